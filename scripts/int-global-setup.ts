/**
 * Global set-up of the `int` test project: brings the `hoga` bundle (packages/cli/dist) up to
 * date once, before any test file runs, by starting `hoga --version` the way a user does
 * (bin/hoga.js rebuilds the bundle when it is missing or older than a source file).
 *
 * Before, the first tests to start `hoga` in a fresh checkout built it themselves, inside their own
 * time limits: on a loaded two-core machine a build took more than the 20 s that `hoga sim`'s tests
 * wait for the listening line, each such test was killed mid-build, and the next one began another
 * build (simulator/test/cli.int.test.ts: 4 of its 10 tests failed in a fresh worktree under load).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs `hoga --version` once; throws (failing the run early, with hoga's output) if it cannot. */
export default function setup(): void {
  const hoga = join(import.meta.dirname, '..', 'packages', 'cli', 'bin', 'hoga.js');
  const env = { ...process.env };
  delete env.HOGA_NO_BUNDLE;
  execFileSync(process.execPath, [hoga, '--version'], { env, stdio: 'pipe', timeout: 600_000 });
}
