/**
 * A test's worker program (a `*.test-helper.ts` run as a child process) bundled into one ES module
 * that plain `node` runs, as bin/bundle.js does for `hoga`. Run through `--import tsx` instead, each
 * start compiled the engine, the store and the connector again: 2–3 s a process on an idle
 * two-core machine, far more on a loaded one, in tests that start five to seven of them.
 * Test code only.
 */
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';

const root = join(import.meta.dirname, '..');
/** Packages the bundle imports from node_modules (by absolute path): native or worker-thread code. */
const EXTERNAL = new Set(['better-sqlite3', 'pino', 'pino-pretty', 'thread-stream']);

/** The part of esbuild's API used here (esbuild is no dependency of its own: tsx's is used). */
interface EsbuildApi {
  build(options: Record<string, unknown>): Promise<unknown>;
}
interface EsbuildPluginBuild {
  onResolve(
    options: { filter: RegExp },
    resolve: (args: { path: string; resolveDir: string }) => { path: string; external: boolean } | undefined,
  ): void;
}

/**
 * Bundles `entry` (a TypeScript file) into `dir`, and answers the bundle's path (`<name>.mjs`).
 *
 * @param entry - the worker's source
 * @param dir - a directory of the test's own (a temporary one)
 */
export async function bundleTestWorker(entry: string, dir: string): Promise<string> {
  const fromRoot = createRequire(join(root, 'package.json'));
  const { build } = createRequire(fromRoot.resolve('tsx/package.json'))('esbuild') as EsbuildApi;
  const outfile = join(dir, `${basename(entry).replace(/\.ts$/, '')}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    tsconfig: join(root, 'tsconfig.json'),
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);",
    },
    plugins: [
      {
        name: 'external-by-path',
        setup(b: EsbuildPluginBuild) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            const name = args.path.startsWith('@')
              ? args.path.split('/').slice(0, 2).join('/')
              : (args.path.split('/')[0] ?? '');
            if (!EXTERNAL.has(name)) return undefined;
            return {
              path: createRequire(join(args.resolveDir, 'noop.js')).resolve(args.path),
              external: true,
            };
          });
        },
      },
    ],
  });
  return outfile;
}
