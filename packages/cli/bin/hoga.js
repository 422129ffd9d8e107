#!/usr/bin/env node
// The `hoga` command. Runs dist/hoga.mjs, one ES module that esbuild bundles from the TypeScript
// sources (bin/bundle.js), rebuilding it first when a source file is newer; HOGA_NO_BUNDLE=1 (or a
// failed build) runs the sources through tsx instead. Relative paths are the caller's: run through
// `pnpm hoga` the command moves back to the directory pnpm was started in.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeVersionProblem } from './node-version.js';

/**
 * A Node.js older than hoga needs (bin/node-version.js) is refused before anything else is loaded,
 * for every command: said once, with the version found and the one needed, exit 2; `--json` makes
 * it the one JSON line of a failure. Before, on Node 22.12 every command that opens a database died
 * of a bare `Segmentation fault`. src/node-version.int.test.ts runs it under an older Node.
 */
function refuseOlderNode() {
  const problem = nodeVersionProblem();
  if (problem === undefined) return;
  const { message, hint } = problem;
  process.stderr.write(
    process.argv.includes('--json')
      ? `${JSON.stringify({ error: { code: 'unsupported-node', message, exitCode: 2, details: [hint] } })}\n`
      : `hoga: ${message}\n${hint}\n`,
  );
  process.exit(2);
}

refuseOlderNode();

/**
 * Ctrl-C (or SIGTERM) while the command's code is still loading (the bundle read and compiled, or
 * rebuilt, or the sources run through tsx), before the command has a handler of its own: said,
 * exit 130 (SIGTERM 143), as `hoga run` says it later in its start-up
 * (packages/cli/src/commands/run-start-interrupt.ts, whose first words these are). Node's default ended the process with no word. The command takes the
 * signal back (src/runtime/startup-interrupt.ts): every command before its action runs, `hoga run`
 * once its own start-up handler is in place.
 */
function interruptWhileLoading() {
  const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  /** @param {NodeJS.Signals} signal */
  const onSignal = (signal) => {
    process.stderr.write(
      command === 'run'
        ? 'hoga run: interrupted during start-up, before the run started: no order was placed\n'
        : `hoga${command === undefined ? '' : ` ${command}`}: interrupted during start-up, before the command ran: nothing was done\n`,
    );
    // 128 + the signal's number, as the commands exit once they have handlers of their own
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  globalThis[Symbol.for('hoga.startupInterrupt')] = {
    release: () => {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}

interruptWhileLoading();

/**
 * `--client-secret <secret>` (or `--client-secret=<secret>`) is in the command line, which every
 * user of the machine reads in `ps` (`/proc/<pid>/cmdline`): the process's title, which takes the
 * command line's place there, shows `***` instead from here on (the flag's help says to prefer
 * stdin, a file or the environment: this only shortens the time it is seen).
 */
function hideSecretFlag() {
  const args = process.argv;
  let hidden = false;
  const shown = args.map((arg, i) => {
    if (args[i - 1] === '--client-secret' && arg !== '-') {
      hidden = true;
      return '***';
    }
    if (arg.startsWith('--client-secret=') && arg !== '--client-secret=-') {
      hidden = true;
      return '--client-secret=***';
    }
    return arg;
  });
  if (hidden) process.title = shown.join(' ');
}

hideSecretFlag();

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(cliDir, '..');
const bundlePath = join(cliDir, 'dist', 'hoga.mjs');

/**
 * The commands bin/node-settings.json has settings for: only these load bin/node-tuning.js and read
 * the file, every other command starts without either (a few milliseconds of start-up), and only
 * the others keep Node's compile cache (below). Their names are written here and as the file's
 * keys: src/hoga-node-settings.int.test.ts pins the two together.
 */
const TUNED_COMMANDS = ['run', 'backtest'];

/**
 * Node and glibc settings per command (bin/node-settings.json, for the {@link TUNED_COMMANDS}),
 * applied by re-executing the command once in the same process (bin/node-tuning.js;
 * `process.execve`: the same pid, so signals and a supervisor see one process; Node 22.15+ /
 * 23.11+; without it the command goes on untuned). Flags the user set (`NODE_OPTIONS`, node's own
 * arguments) and environment variables already set are kept; `HOGA_RUN_TUNED=1` skips the
 * re-execution.
 *
 * `hoga run`, a paper or live run that lasts hours, measured by
 * packages/engine/bench/paper-rss.bench.ts (docs/order-manager.md, "Figures"):
 * - `--max-semi-space-size=8`: V8's young generation stays at the 2 × 8 MB it has after start-up
 *   instead of doubling to 2 × 16 MB a few minutes into the run (12–13 MB more RSS, no live data);
 * - `--heap-growing-percent=50`: after a full collection the old generation may grow to 1.5 × what
 *   survived before the next one (V8 otherwise picks 1.1–4 × from its own speeds): a run promotes
 *   short-lived objects (reads waiting on the rate limits, bars) steadily, and they piled up as
 *   garbage (old space 10 → 36 MB used in the bench's simulated hour, while heap snapshots taken
 *   after a full collection grew about 3 MB in 100 s);
 * - `MALLOC_ARENA_MAX=2`: glibc's malloc keeps two arenas instead of one per thread that ever
 *   allocated (V8's and libuv's worker threads: 8 arenas, 1.5–3 MB each).
 *
 * `hoga backtest`, a batch job of seconds, measured by packages/engine/bench/backtest.bench.ts
 * (docs/strategies.md, "Backtests", the paragraph on speed), whose cold runs use the same flags:
 * - `--initial-old-space-size=256`: V8's old generation may reach 256 MB before its first full
 *   collection (V8 otherwise starts far lower and marks the heap several times as a run's orders,
 *   fills and trades pile up: in the daily bench, five full collections, each marking the heap
 *   concurrently while the engine's and the journal's threads run, on their two cores). A run
 *   holds more garbage meanwhile (at most that much); a heap that outgrows it is collected as usual.
 * - `--v8-pool-size={v8PoolSize}`: V8's background threads (its optimising compiler's and
 *   collector's helpers) one fewer than the cores, 1 to 4 (node-tuning.js; Node's own is 4): on two
 *   cores its four threads and the journal's took the engine's thread off its core for 130–180 ms
 *   of a 1 s daily run (its run-queue wait, /proc's schedstat); with one, and the journal's thread
 *   at nice 19 (store's RunJournalWriter, `background`), the run takes about 0.93 s instead of 1.06.
 */
async function tuneNode() {
  const command = process.argv[2];
  if (!TUNED_COMMANDS.includes(command) || process.env.HOGA_RUN_TUNED === '1') return;
  const tuning = await import('./node-tuning.js');
  const settings = tuning.nodeSettingsOf(command);
  if (settings === undefined || !tuning.canReexecute()) return;
  try {
    tuning.reexecuteWith(settings, { HOGA_RUN_TUNED: '1' });
  } catch {
    // go on untuned
  }
}

await tuneNode();

if (process.env.npm_lifecycle_event === 'hoga' && process.env.INIT_CWD) {
  try {
    process.chdir(process.env.INIT_CWD);
  } catch {
    // stay where pnpm put us
  }
}

/** Newest modification time of the sources the bundle is made of (tests excluded). */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.includes('.test')) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  for (const pkg of readdirSync(packagesDir)) {
    const src = join(packagesDir, pkg, 'src');
    if (existsSync(src)) walk(src);
    const manifest = join(packagesDir, pkg, 'package.json');
    if (existsSync(manifest)) newest = Math.max(newest, statSync(manifest).mtimeMs);
  }
  newest = Math.max(newest, statSync(join(cliDir, 'bin', 'bundle.js')).mtimeMs);
  return newest;
}

async function runSources() {
  const { register } = await import('tsx/esm/api');
  // the repository's compiler options (inversify's parameter decorators), not the working
  // directory's: the command runs from the user's directory, which has none
  register({ tsconfig: join(packagesDir, '..', 'tsconfig.json') });
  await import(pathToFileURL(join(cliDir, 'src', 'main.ts')).href);
}

/** What the child of {@link stripTypesOutOfProcess} runs: Node's own stripping, stdin to stdout. */
const STRIP_CHILD = `
const { stripTypeScriptTypes } = require('node:module');
let out;
try {
  const code = stripTypeScriptTypes(require('node:fs').readFileSync(0, 'utf8'), { mode: 'strip', sourceUrl: process.argv[1] });
  out = { code };
} catch (e) {
  out = { error: { name: String(e?.name ?? 'Error'), code: e?.code, message: String(e?.message ?? e) } };
}
process.stdout.write(JSON.stringify(out));
`;

/**
 * A strategy's `.ts` module has its types stripped by Node (the same strip-only mode and output as
 * Node's own loader) in a short-lived child process rather than in this one: Node's stripper is a
 * WebAssembly build of swc that, once loaded, stays for the life of the process (about 11 MB of
 * anonymous memory and 8 MB of the Node binary's pages; `hoga run` runs for hours). Costs one child
 * process per strategy file at start-up (about 0.1 s). Falls back to Node's in-process stripping
 * when the child cannot run; files under node_modules are left to Node (which refuses them).
 */
function stripTypesOutOfProcess() {
  if (typeof nodeModule.registerHooks !== 'function' || typeof nodeModule.stripTypeScriptTypes !== 'function')
    return;
  const { NODE_OPTIONS: _ignored, ...childEnv } = process.env;
  nodeModule.registerHooks({
    load(url, context, next) {
      const loaded = next(url, context);
      if (loaded.format !== 'module-typescript' || loaded.source == null || url.includes('/node_modules/')) {
        return loaded;
      }
      const source =
        typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source).toString('utf8');
      const child = spawnSync(process.execPath, ['--no-warnings', '-e', STRIP_CHILD, url], {
        input: source,
        encoding: 'utf8',
        env: childEnv,
        maxBuffer: 64 * 1024 * 1024 + source.length * 2,
      });
      let answer;
      try {
        answer = child.status === 0 ? JSON.parse(child.stdout) : undefined;
      } catch {
        answer = undefined;
      }
      if (answer?.error !== undefined) {
        const error =
          answer.error.name === 'SyntaxError'
            ? new SyntaxError(answer.error.message)
            : new Error(answer.error.message);
        if (answer.error.code !== undefined) error.code = answer.error.code;
        throw error;
      }
      if (typeof answer?.code !== 'string') return loaded;
      return { format: 'module', source: answer.code, shortCircuit: true };
    },
  });
}

// The bundle loads a strategy's .ts file with Node's own type stripping and module hooks
// (packages/engine/src/strategy/strategy-imports.ts): Node 22.18+ / 23.6+, which every Node hoga
// starts on has (bin/node-version.js); the check stays for a Node run without type stripping
// (`--no-experimental-strip-types`), which runs the sources through tsx.
const nodeCanRunBundle =
  Boolean(process.features.typescript) && typeof nodeModule.registerHooks === 'function';

/**
 * The compile cache directory of the build dist/hoga.mjs points at (`dist/b-…/.compile-cache`), or
 * undefined (Node's default place) when it names none.
 */
function buildCacheDir() {
  try {
    const build = /\.\/(b-[^/]+)\/hoga\.mjs/.exec(readFileSync(bundlePath, 'utf8'))?.[1];
    return build === undefined ? undefined : join(cliDir, 'dist', build, '.compile-cache');
  } catch {
    return undefined;
  }
}

if (process.env.HOGA_NO_BUNDLE === '1' || !nodeCanRunBundle) {
  await runSources();
} else {
  let ready = existsSync(bundlePath) && statSync(bundlePath).mtimeMs >= newestSource();
  if (!ready) {
    try {
      const { bundle } = await import('./bundle.js');
      await bundle();
      ready = true;
    } catch {
      ready = false;
    }
  }
  if (ready) {
    stripTypesOutOfProcess();
    // V8's code of the bundle is kept between runs (Node's compile cache, in its default place
    // unless NODE_COMPILE_CACHE says otherwise): a start no longer compiles its 3.7 MB again (30–40
    // ms). Not for the tuned commands, a live or paper run of hours and a backtest of seconds, to
    // which that is nothing: a `hoga backtest` was once seen dying of SIGSEGV at start, seven times
    // in a row, beside a new bundle's first starts (never reproduced), and V8 aborting on a code
    // cache it cannot read back is a known failure of Node's compile cache elsewhere.
    // Kept beside the build (dist/b-…/.compile-cache), removed with it: in Node's default place,
    // the system's temporary directory, each build left its entries for ever (384 MB seen).
    if (process.env.NODE_DISABLE_COMPILE_CACHE === undefined && !TUNED_COMMANDS.includes(process.argv[2]))
      nodeModule.enableCompileCache?.(process.env.NODE_COMPILE_CACHE ?? buildCacheDir());
    await import(pathToFileURL(bundlePath).href);
  } else await runSources();
}
