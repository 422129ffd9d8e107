#!/usr/bin/env node
// The `hoga` command. Runs dist/hoga.mjs, one ES module that esbuild bundles from the TypeScript
// sources (bin/bundle.js), rebuilding it first when a source file is newer; HOGA_NO_BUNDLE=1 (or a
// failed build) runs the sources through tsx instead. Relative paths are the caller's: run through
// `pnpm hoga` the command moves back to the directory pnpm was started in.
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cliDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(cliDir, '..');
const bundlePath = join(cliDir, 'dist', 'hoga.mjs');

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
  register();
  await import(pathToFileURL(join(cliDir, 'src', 'main.ts')).href);
}

// The bundle loads a strategy's .ts file with Node's own type stripping and module hooks
// (packages/engine/src/strategy/strategy-imports.ts): Node 22.18+ / 23.6+. On an older Node,
// the sources run through tsx.
const nodeCanRunBundle =
  Boolean(process.features.typescript) && typeof nodeModule.registerHooks === 'function';

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
  if (ready) await import(pathToFileURL(bundlePath).href);
  else await runSources();
}
