// Builds the `hoga` bundle: every TypeScript source of the CLI and the packages it imports in one
// ES module (esbuild), with the npm dependencies that must stay separate (native addons, worker
// threads) imported by absolute path; and beside it the store's journal thread (the module a
// backtest's worker thread runs, loaded by path). bin/hoga.js calls it when the bundle is missing
// or older than a source file; `pnpm hoga:build` calls it directly.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The CLI package directory. */
export const CLI_DIR = join(here, '..');
/** Where the bundle goes. */
export const BUNDLE = join(CLI_DIR, 'dist', 'hoga.mjs');

/** Worker-thread modules built beside the bundle: the source, and the name the bundle loads. */
const THREADS = [
  {
    source: join(CLI_DIR, '..', 'store', 'src', 'run-journal', 'run-journal-thread.ts'),
    name: 'run-journal-thread.mjs',
  },
];

/** Packages loaded from node_modules at run time rather than bundled. */
const EXTERNAL = new Set(['better-sqlite3', 'pino', 'pino-pretty', 'thread-stream', 'esbuild', 'tsx']);

/**
 * Builds dist/hoga.mjs (written beside, then renamed, so a running hoga never reads half a file).
 *
 * @returns the bundle's path
 */
export async function bundle() {
  // esbuild comes with tsx (a dependency of the CLI), so no second copy is needed.
  const fromCli = createRequire(join(CLI_DIR, 'package.json'));
  const { build } = createRequire(fromCli.resolve('tsx/package.json'))('esbuild');
  const options = {
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    tsconfig: join(CLI_DIR, 'tsconfig.json'),
    logLevel: 'error',
    define: { 'import.meta.HOGA_BUNDLED': 'true' },
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
  // the threads first: once the bundle is in place, what it loads beside it is too
  for (const thread of THREADS) {
    const target = join(dirname(BUNDLE), thread.name);
    const temporary = `${target}.${process.pid}.tmp`;
    await build({ ...options, entryPoints: [thread.source], outfile: temporary });
    asciiOnly(temporary);
    renameSync(temporary, target);
  }
  const temporary = `${BUNDLE}.${process.pid}.tmp`;
  await build({ ...options, entryPoints: [join(CLI_DIR, 'src', 'main.ts')], outfile: temporary });
  asciiOnly(temporary);
  renameSync(temporary, BUNDLE);
  return BUNDLE;
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
