/**
 * `hoga run` and `hoga backtest` re-execute themselves once in the same process with the Node (and
 * glibc) settings of bin/node-settings.json (bin/hoga.js):
 * - `hoga run`, the command that runs for hours, with those that keep a paper run's memory flat
 *   (docs/order-manager.md, stop 5): what the running process's command line and environment hold,
 *   read from /proc while it runs against the simulator, and that it still stops on SIGTERM with
 *   exit code 0;
 * - `hoga backtest`, a batch job, with an old generation that starts at 256 MB and V8's background
 *   threads one fewer than the cores (docs/strategies.md, "Backtests"): what the process its strategy runs in was started with, written by the strategy.
 * Linux only. Every other command starts without loading bin/node-tuning.js or reading the file:
 * what a module hook and a spy on `fs.readFileSync`, preloaded into `hoga`, saw of them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT, simFlags } from './hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-run-settings-'));
  writeFileSync(join(dir, 'sma.json'), JSON.stringify({ fast: 3, slow: 8, quantity: 10 }));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the running `hoga run` process was started with, and how it ended. */
interface Seen {
  readonly argv: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  readonly code: number | null;
}

/** Runs a paper run until its first status line, reads /proc, then stops it with SIGTERM. */
async function paperRun(name: string, extraEnv: Readonly<Record<string, string>>): Promise<Seen> {
  let argv: string[] = [];
  const env = new Map<string, string>();
  const run = await hoga(
    [
      'run',
      join(REPO_ROOT, 'strategies/sma-crossover.ts'),
      '--mode',
      'paper',
      '--symbols',
      '005930',
      '--interval',
      '1m',
      '--config',
      join(dir, 'sma.json'),
      '--status-every',
      '1',
      '--cash-krw',
      '100000000',
    ],
    {
      cwd: dir,
      env: {
        HOGA_BASE_URL: sim.url,
        HOGA_CLIENT_ID: 'sim-client',
        HOGA_CLIENT_SECRET: 'sim-secret',
        HOGA_DB: join(dir, `${name}.sqlite`),
        HOGA_TOKEN_FILE: join(dir, `${name}-token.json`),
        ...extraEnv,
      },
      onSpawn: (child) => {
        let read = false;
        child.stdout?.on('data', (chunk: Buffer) => {
          if (read || !/ status /.test(chunk.toString())) return;
          read = true;
          argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
          for (const entry of readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0')) {
            const at = entry.indexOf('=');
            if (at > 0) env.set(entry.slice(0, at), entry.slice(at + 1));
          }
          child.kill('SIGTERM');
        });
      },
    },
  );
  // the run follows the real clock: on a weekend or at night it says once that the market is closed
  expect(run.err.replace(/^hoga: (KR|US) market is closed at .*\n/gm, '')).toBe('');
  return { argv, env, code: run.code };
}

describe.runIf(process.platform === 'linux' && 'execve' in process)('hoga run', () => {
  it('runs with a fixed young generation, a 1.5 × old-generation growth and two malloc arenas, in the same process', async () => {
    const seen = await paperRun('tuned', {});
    expect(seen.code).toBe(0);
    // the node options come before the script, the command's own arguments after it
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual(['--max-semi-space-size=8', '--heap-growing-percent=50']);
    expect(seen.argv.slice(script + 1, script + 3)).toEqual([
      'run',
      join(REPO_ROOT, 'strategies/sma-crossover.ts'),
    ]);
    expect(seen.env.get('MALLOC_ARENA_MAX')).toBe('2');
  });

  it('keeps the settings the user gave and adds only the others', async () => {
    const seen = await paperRun('user', { NODE_OPTIONS: '--max-semi-space-size=4', MALLOC_ARENA_MAX: '4' });
    expect(seen.code).toBe(0);
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual(['--heap-growing-percent=50']);
    expect(seen.env.get('NODE_OPTIONS')).toBe('--max-semi-space-size=4');
    expect(seen.env.get('MALLOC_ARENA_MAX')).toBe('4');
  });

  it("knows the user's flag in V8's other spelling (underscores) as the same flag", async () => {
    const seen = await paperRun('user-underscores', { NODE_OPTIONS: '--max_semi_space_size=4' });
    expect(seen.code).toBe(0);
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual(['--heap-growing-percent=50']);
  });

  it('runs untuned when asked', async () => {
    const seen = await paperRun('untuned', { HOGA_RUN_TUNED: '1' });
    expect(seen.code).toBe(0);
    const script = seen.argv.findIndex((a) => a.endsWith('hoga.js'));
    expect(seen.argv.slice(1, script)).toEqual([]);
    expect(seen.env.has('MALLOC_ARENA_MAX')).toBe(false);
  });
});

/** What the process a backtest's strategy ran in was started with (the strategy writes it down). */
interface Started {
  readonly pid: number;
  readonly execArgv: readonly string[];
  /** Node's compile cache directory, null when it is off. */
  readonly compileCache: string | null;
}

/** Runs `hoga backtest` of a strategy that writes down its process's pid and node flags. */
async function backtestRun(
  name: string,
  extraEnv: Readonly<Record<string, string>>,
  node?: string,
): Promise<Started & { readonly childPid: number | undefined }> {
  const out = join(dir, `${name}.json`);
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { writeFileSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { Strategy } from '@hoga/engine';
export default class WritesItsProcess extends Strategy {
  override onStart(): void {
    const started = { pid: process.pid, execArgv: process.execArgv, compileCache: getCompileCacheDir() ?? null };
    writeFileSync(${JSON.stringify(out)}, JSON.stringify(started));
  }
}
`,
  );
  let childPid: number | undefined;
  const run = await hoga(
    [
      'backtest',
      file,
      ...['--symbols', '005930', '--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-05'],
      ...simFlags(sim.url),
      ...['--db', join(dir, `${name}.sqlite`)],
    ],
    {
      cwd: dir,
      env: extraEnv,
      onSpawn: (child) => (childPid = child.pid),
      ...(node === undefined ? {} : { node }),
    },
  );
  expect(run.code, run.err).toBe(0);
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as Started), childPid };
}

describe.runIf(process.platform === 'linux' && 'execve' in process)('hoga backtest', () => {
  it("runs with an old generation that starts at 256 MB and one core left to the engine's thread, in the same process", async () => {
    const seen = await backtestRun('bt-tuned', {});
    expect(seen.execArgv).toContain('--initial-old-space-size=256');
    // V8's background threads: the cores but one, 1 to 4 (this 2-core machine: 1)
    expect(seen.execArgv).toContain(`--v8-pool-size=${Math.min(4, Math.max(1, availableParallelism() - 1))}`);
    expect(seen.pid).toBe(seen.childPid);
    // without Node's compile cache: a start that crashed reading it is not worth its 30–40 ms here
    expect(seen.compileCache).toBeNull();
  });

  it("keeps the user's own setting (node's own arguments: V8 takes this one nowhere else)", async () => {
    const node = join(dir, 'node-with-flag');
    writeFileSync(node, `#!/bin/sh\nexec ${process.execPath} --initial-old-space-size=64 "$@"\n`, {
      mode: 0o755,
    });
    const seen = await backtestRun('bt-user', {}, node);
    expect(seen.execArgv.filter((a) => a.startsWith('--initial-old-space-size'))).toEqual([
      '--initial-old-space-size=64',
    ]);
  });

  it('runs untuned when asked', async () => {
    const seen = await backtestRun('bt-untuned', { HOGA_RUN_TUNED: '1' });
    expect(seen.execArgv.join(' ')).not.toContain('--initial-old-space-size');
  });
});

/**
 * Preloaded into `hoga` (`--import`): writes to `$LOADS_LOG` each module resolved and each file
 * read through `fs.readFileSync` whose name holds `node-tuning` or `node-settings`, and each call
 * of `module.enableCompileCache` (as `enableCompileCache`); with
 * `$EXIT_AT_COMMAND=1` it ends the process where bin/hoga.js would go on to load the command
 * (the bundle or the sources): after the tuning, before the seconds a command may take.
 */
const LOADS_HOOK = `import fs from 'node:fs';
import { createRequire, registerHooks, syncBuiltinESMExports } from 'node:module';
const note = (what) => {
  if (/node-(tuning|settings)/.test(what)) fs.appendFileSync(process.env.LOADS_LOG, what + '\\n');
};
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    note(resolved.url);
    if (process.env.EXIT_AT_COMMAND === '1' && /dist\\/hoga\\.mjs$|tsx\\/esm\\/api/.test(resolved.url)) process.exit(0);
    return resolved;
  },
});
const nodeModule = createRequire(import.meta.url)('node:module');
const enableCompileCache = nodeModule.enableCompileCache;
nodeModule.enableCompileCache = function (...args) {
  fs.appendFileSync(process.env.LOADS_LOG, 'enableCompileCache\\n');
  return enableCompileCache?.apply(this, args);
};
const readFileSync = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  note(String(file));
  return readFileSync.call(this, file, ...rest);
};
syncBuiltinESMExports();
`;

/** Runs `hoga <args>` with {@link LOADS_HOOK} preloaded; answers what it saw of the settings. */
async function loadsOf(name: string, args: readonly string[], exitAtCommand: boolean) {
  const hook = join(dir, 'loads-hook.mjs');
  writeFileSync(hook, LOADS_HOOK);
  const log = join(dir, `${name}.loads`);
  writeFileSync(log, '');
  const run = await hoga(args, {
    cwd: dir,
    env: {
      NODE_OPTIONS: `--import ${pathToFileURL(hook).href}`,
      LOADS_LOG: log,
      EXIT_AT_COMMAND: exitAtCommand ? '1' : '0',
    },
  });
  expect(run.code, run.err).toBe(0);
  return { run, loads: readFileSync(log, 'utf8') };
}

describe.runIf(process.platform === 'linux' && 'registerHooks' in nodeModule)(
  'commands without settings',
  () => {
    it('start without loading bin/node-tuning.js or reading bin/node-settings.json; the tuned ones are its keys', async () => {
      const help = await loadsOf('help', ['--help'], false);
      // Node's compile cache is on for the short commands (hoga run and hoga backtest: see below)
      expect(help.loads).toBe('enableCompileCache\n');
      const commands = [
        ...help.run.out.slice(help.run.out.indexOf('Commands:')).matchAll(/^ {2}([a-z][\w-]*)/gm),
      ].map((m) => m[1] as string);
      expect(commands).toEqual(expect.arrayContaining(['run', 'backtest', 'quote', 'sim', 'order']));
      const tuned: string[] = [];
      for (const command of commands) {
        const { loads } = await loadsOf(command, [command, '--help'], true);
        if (loads !== 'enableCompileCache\n') {
          // the tuned command: the module and the file, and no compile cache
          expect(loads).toMatch(/node-tuning\.js\n/);
          expect(loads).toMatch(/node-settings\.json\n/);
          expect(loads).not.toMatch(/enableCompileCache/);
          tuned.push(command);
        }
      }
      const settings = JSON.parse(
        readFileSync(join(REPO_ROOT, 'packages/cli/bin/node-settings.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(tuned.sort()).toEqual(Object.keys(settings).sort());
    });
  },
);
