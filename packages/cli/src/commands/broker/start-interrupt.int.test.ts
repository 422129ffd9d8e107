/**
 * Ctrl-C during `pnpm start` (`hoga start`), the first command a new user runs: the demo stops
 * early as a run does (strategies stopped, the store flushed), still prints its summary, and leaves
 * nothing behind in the temporary directory. Before, Node's default ended the process on the signal:
 * no summary, no word, and the demo's SQLite file was left in `$TMPDIR/hoga-start-…`.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';

describe('hoga start, interrupted', () => {
  it('Ctrl-C once it trades: stops early with its summary, exit 0, its temporary files removed', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'hoga-demo-interrupt-'));
    let interrupted = false;
    const run = await hoga(['start', '--seconds', '600'], {
      env: { TMPDIR: temp },
      killAfterMs: 120_000,
      onSpawn: (child) => {
        let seen = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          seen += chunk.toString('utf8');
          // the first status line: the session runs and has polled bars
          if (!interrupted && / status {2}holdings: /.test(seen)) {
            interrupted = true;
            child.kill('SIGINT');
          }
        });
      },
    });
    expect(interrupted).toBe(true);
    expect(run.signal).toBeNull();
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^interrupted: stopping early…$/m);
    expect(run.out).toMatch(/^stopped: strategies stopped, open orders kept, store flushed$/m);
    expect(run.out).toMatch(/^summary: \d+ orders, \d+ fills, \d+ bars$/m);
    expect(run.out.trimEnd().split('\n').at(-1)).toBe('done: closing the connector and the simulator.');
    expect(readdirSync(temp)).toEqual([]);
  }, 150_000);
});
