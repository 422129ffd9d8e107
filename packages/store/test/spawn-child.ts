/**
 * Starts TypeScript child processes quickly: each script is bundled once with esbuild into one
 * `.mjs` file (better-sqlite3 stays external), then run with plain `node`, so that tests that
 * start twenty processes do not pay the TypeScript loader's start-up each time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

const OUT_DIR = join(import.meta.dirname, '..', 'node_modules', '.cache', 'hoga-store-test');

/** Bundles `script` and returns the path of the runnable `.mjs` file. */
export async function bundleScript(script: string): Promise<string> {
  mkdirSync(OUT_DIR, { recursive: true });
  const outfile = join(OUT_DIR, `${basename(script, '.ts')}-${process.pid}.mjs`);
  await build({
    entryPoints: [script],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: ['better-sqlite3'],
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  return outfile;
}

/** Runs `node <bundle> ...args` with piped stdout/stderr. */
export function spawnNode(bundle: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [bundle, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Collects a child's stdout lines; `lines` grows as output arrives. */
export function collectLines(child: ChildProcess): { lines: string[]; stderr: () => string } {
  const lines: string[] = [];
  let partial = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  return { lines, stderr: () => err };
}

/** Resolves with the exit code (or signal name) when the child ends. */
export function exited(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve(child.exitCode ?? child.signalCode ?? -1);
      return;
    }
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1));
  });
}
