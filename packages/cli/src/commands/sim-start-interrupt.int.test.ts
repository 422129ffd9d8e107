/**
 * `hoga sim` interrupted while it starts: after bin/hoga.js has let go of its start-up handler of
 * Ctrl-C, while the command imports and starts the simulator. The command's own listener is in
 * place from its first step: the simulator is stopped before it listens, said, exit 130 (SIGTERM
 * 143), and no `listening on` line (before: no listener yet, and the signal killed the process
 * without a word).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT } from '../hoga-process.test-helper.js';

/** Holds the load of the simulator's code, after `test: the simulator is loading` on stderr. */
const HOLD = join(REPO_ROOT, 'packages/cli/test/fixtures/holds-the-simulator-load.mjs');
const dir = mkdtempSync(join(tmpdir(), 'hoga-sim-start-interrupt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hoga sim, interrupted while it starts', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: stops before it listens, says so, exit %i',
    async (signal, code) => {
      const release = join(dir, `loaded-${signal}`);
      let sent = false;
      const run = await hoga(['sim', '--port', '0'], {
        env: { NODE_OPTIONS: `--import=${HOLD}`, HOLD_SIMULATOR_UNTIL: release, HOGA_NO_BUNDLE: '1' },
        onSpawn: (child) => {
          let seen = '';
          child.stderr?.on('data', (chunk: Buffer) => {
            seen += chunk.toString('utf8');
            if (!sent && seen.includes('test: the simulator is loading')) {
              sent = true;
              child.kill(signal);
              writeFileSync(release, '');
            }
          });
        },
      });
      expect(sent).toBe(true);
      expect([run.code, run.signal], run.err).toEqual([code, null]);
      expect(run.err).toContain('hoga sim: interrupted during start-up: stopped before it listened\n');
      expect(run.out).toBe('');
    },
    90_000,
  );
});
