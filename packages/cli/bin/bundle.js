// Builds the `hoga` bundle: every TypeScript source of the CLI and the packages it imports as ES
// modules (esbuild), split into an entry and chunks that the commands import when they run (so a
// command's start reads and compiles only what it needs), with the npm dependencies that must stay
// separate (native addons, worker threads) imported by absolute path; and beside them the store's
// journal thread (the module a backtest's worker thread runs, loaded by path). Each build goes to
// a directory of its own (`dist/b-<time>-<pid>/`), and `dist/hoga.mjs`, one line importing its
// entry, is replaced last (written beside, then renamed): a running hoga never reads half a build,
// and its later imports still find their chunks. bin/hoga.js calls it when the bundle is missing
// or older than a source file; `pnpm hoga:build` calls it directly.

import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The CLI package directory. */
export const CLI_DIR = join(here, '..');
/** What bin/hoga.js imports: one line importing the newest build's entry. */
export const BUNDLE = join(CLI_DIR, 'dist', 'hoga.mjs');

/** Worker-thread modules built beside the entry: the source, and the name the bundle loads. */
const THREADS = [
  {
    source: join(CLI_DIR, '..', 'store', 'src', 'run-journal', 'run-journal-thread.ts'),
    name: 'run-journal-thread.mjs',
  },
];

/** Packages loaded from node_modules at run time rather than bundled. */
const EXTERNAL = new Set(['better-sqlite3', 'pino', 'pino-pretty', 'thread-stream', 'esbuild', 'tsx']);

/** Earlier builds kept (a running hoga may still import chunks of its own), and how long at least. */
const KEEP_BUILDS = 3;
const KEEP_MS = 24 * 3_600_000;

/**
 * Builds the bundle into a new directory and points dist/hoga.mjs at it.
 *
 * @returns the path of dist/hoga.mjs
 */
export async function bundle() {
  // esbuild comes with tsx (a dependency of the CLI), so no second copy is needed.
  const fromCli = createRequire(join(CLI_DIR, 'package.json'));
  const { build } = createRequire(fromCli.resolve('tsx/package.json'))('esbuild');
  const { version } = JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8'));
  const options = {
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    tsconfig: join(CLI_DIR, 'tsconfig.json'),
    logLevel: 'error',
    define: { 'import.meta.HOGA_BUNDLED': 'true', 'import.meta.HOGA_VERSION': JSON.stringify(version) },
    banner: {
      js: "import { createRequire as __hogaRequire } from 'node:module'; const require = __hogaRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'external-by-path',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.startsWith('@')
              ? args.path.split('/').slice(0, 2).join('/')
              : args.path.split('/')[0];
            if (!EXTERNAL.has(name)) return undefined;
            const from = createRequire(join(args.resolveDir, 'noop.js'));
            return { path: from.resolve(args.path), external: true };
          });
        },
      },
    ],
  };
  const dist = dirname(BUNDLE);
  const name = `b-${Date.now()}-${process.pid}`;
  const out = join(dist, name);
  // the threads first: once the entry is in place, what it loads beside it is too
  for (const thread of THREADS) {
    await build({ ...options, entryPoints: [thread.source], outfile: join(out, thread.name) });
  }
  await build({
    ...options,
    entryPoints: { hoga: join(CLI_DIR, 'src', 'main.ts') },
    outdir: out,
    splitting: true,
    chunkNames: 'chunk-[hash]',
    outExtension: { '.js': '.mjs' },
  });
  for (const file of readdirSync(out)) asciiOnly(join(out, file));
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  writeFileSync(temporary, `import './${name}/hoga.mjs';\n`);
  renameSync(temporary, BUNDLE);
  removeOldBuilds(dist, name);
  return BUNDLE;
}

/**
 * Removes the builds older than a day beyond the newest {@link KEEP_BUILDS} (and the one just made).
 * Best effort: another hoga may be removing them at the same time, and the new build is in place.
 */
function removeOldBuilds(dist, current) {
  try {
    const builds = readdirSync(dist)
      .filter((n) => n.startsWith('b-') && n !== current)
      .map((n) => ({ n, at: statSync(join(dist, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.at - a.at);
    for (const { n, at } of builds.slice(KEEP_BUILDS - 1)) {
      if (Date.now() - at > KEEP_MS) rmSync(join(dist, n), { recursive: true, force: true });
    }
  } catch {
    // left for the next build
  }
}

/**
 * Escapes the few non-ASCII characters esbuild leaves in the bundle (all in comments: `–`, `±`, the
 * luxon examples; strings and identifiers are escaped by esbuild already). One such character makes
 * V8 hold the whole 3 MB source, which it keeps for as long as the process runs, as a two-byte string
 * (6.4 MB instead of 3.2 MB).
 *
 * @param {string} file - the built bundle, rewritten in place
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(text)) return;
  writeFileSync(
    file,
    text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await bundle());
}
