/**
 * `hoga backtest` listens for Ctrl-C and SIGTERM from its action's start to its end, one listener
 * for the whole command. Before, each step (the download of the bars, the reading of the USD/KRW
 * rates, the run) installed its own and removed it after: a signal in between (while the
 * strategies loaded, while the instruments were read between the download and the rates) found no
 * listener of hoga's and killed the process by the signal, without a word.
 *
 * The gap is made to show by a strategy file that signals its own process while it is imported,
 * then yields: Node's default action (no listener) kills the process at once, so the test does not
 * race the signal's delivery.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hoga } from '../hoga-process.test-helper.js';

/** A strategy that sends `$SELF_SIGNAL` to its own process while it is imported, then yields. */
const SELF_SIGNALLING = `
import { Strategy } from '@hoga/engine';

process.kill(process.pid, process.env.SELF_SIGNAL as NodeJS.Signals);
// the signal is handled on a later turn of the event loop, when a listener exists
await new Promise((resolve) => setTimeout(resolve, 200));

export default class SelfSignalling extends Strategy {
  override onBar(): void {}
}
`;

const dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-interrupt-gaps-'));
const strategy = join(dir, 'self-signalling.ts');
writeFileSync(strategy, SELF_SIGNALLING);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a signal while hoga backtest loads its strategies (before the download)', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: says nothing was run and exits %i by itself',
    async (signal, code) => {
      const db = join(dir, `${signal}.sqlite`);
      const run = await hoga(
        [
          'backtest',
          strategy,
          '--symbols',
          '005930',
          '--interval',
          '1d',
          '--from',
          '2025-01-02',
          '--to',
          '2025-01-31',
          '--db',
          db,
        ],
        { env: { SELF_SIGNAL: signal }, killAfterMs: 110_000 },
      );
      expect(run.signal, run.err).toBeNull();
      expect(run.code, run.err).toBe(code);
      expect(run.err).toContain(
        'hoga: interrupted before the backtest ran: no bar was downloaded and no run stored',
      );
      expect(run.out).toBe('');
    },
    120_000,
  );
});
