/**
 * `hoga sim` stops cleanly on Ctrl-C or SIGTERM (the server closed, exit 0) through the shared
 * interrupt listener (runtime/interrupts.ts), which stays until the process ends.
 */
import { describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

describe('hoga sim, interrupted', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    '%s once it listens: closes, exit 0',
    async (signal) => {
      let sent = false;
      const run = await hoga(['sim', '--port', '0'], {
        killAfterMs: 60_000,
        onSpawn: (child) => {
          let out = '';
          child.stdout?.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            if (!sent && out.includes('listening on ')) {
              sent = true;
              child.kill(signal);
            }
          });
        },
      });
      expect(sent).toBe(true);
      expect([run.code, run.signal], run.err).toEqual([0, null]);
      expect(run.out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    },
    90_000,
  );
});
