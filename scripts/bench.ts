/**
 * Runs every package's benchmark (`bench` script) one after another, so that
 * they do not compete for the machine's two cores. Each benchmark reports its
 * figures as ratios against a baseline it measures in the same run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', 'packages');
let failed = 0;
for (const name of readdirSync(root).sort()) {
  const manifest = JSON.parse(readFileSync(join(root, name, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  if (!manifest.scripts?.bench) continue;
  console.log(`\n=== @hoga/${name} ===`);
  const run = spawnSync('pnpm', ['--silent', 'run', 'bench'], { cwd: join(root, name), stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
