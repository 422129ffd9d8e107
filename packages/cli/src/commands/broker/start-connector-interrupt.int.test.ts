/**
 * Ctrl-C or SIGTERM during `hoga start --connector` (the connector-only demo) stops it early as
 * `hoga start` stops: it says so, places no order, closes the connector and the simulator, and
 * exits 0. Before, it had no listener: Node's default ended the process on the signal, without a
 * word.
 */
import { describe, expect, it } from 'vitest';
import { hoga } from '../../hoga-process.test-helper.js';

describe('hoga start --connector, interrupted', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while it watches quotes: stops early, places no order, exit 0',
    async (signal) => {
      let sent = false;
      const run = await hoga(['start', '--connector', '--watch', '600'], {
        killAfterMs: 120_000,
        onSpawn: (child) => {
          let seen = '';
          child.stdout?.on('data', (chunk: Buffer) => {
            seen += chunk.toString('utf8');
            // a quote line: the demo is watching
            if (!sent && /^\d\d:\d\d:\d\d {2}\d{6} {2}last /m.test(seen)) {
              sent = true;
              child.kill(signal);
            }
          });
        },
      });
      expect(sent).toBe(true);
      expect(run.signal, run.err).toBeNull();
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(run.out).toMatch(/^interrupted: stopping early…$/m);
      expect(run.out).not.toContain('placing BUY');
      expect(run.out.trimEnd().split('\n').at(-1)).toBe('done: closing the connector and the simulator.');
    },
    150_000,
  );
});
