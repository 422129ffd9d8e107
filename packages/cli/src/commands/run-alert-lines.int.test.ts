/**
 * The order manager's alerts in `hoga run`'s output are plain lines: a position the store and the
 * broker disagree on (`PositionMismatch`) says which symbol, both quantities, and that the symbol's
 * new orders are denied until they agree. Found in the audit of live mode: a live run on a store
 * whose broker lost its state (a simulator restarted without `--state`) printed
 * `14:31:32 ALERT PositionMismatch {"symbol":"035420","store":"1","broker":"0","tsEvent":1796016692741}`:
 * JSON with an epoch, and not a word of what it means for the run (every order of the symbol denied
 * `symbol-blocked`) or what to do.
 * Each alert is now a line of words (`run-alert-line.ts`).
 */
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, root, setup, start, until } from './run-process.test-helper.js';

const buysOnBars = join(root, 'packages/cli/test/fixtures/buys-on-bars.ts');
const logsEachBar = join(root, 'packages/cli/test/fixtures/logs-each-bar.ts');
const RUN = [
  '--mode',
  'live',
  '--symbols',
  '005930',
  '--interval',
  '1m',
  '--status-every',
  '2',
  '--poll-ms',
  '300',
];

const mine: SimulatorHandle[] = [];
afterEach(async () => {
  await closeSims();
  for (const sim of mine.splice(0)) await sim.close();
});

describe('hoga run: an alert of the order manager', () => {
  it('PositionMismatch is a plain line: the symbol, both quantities, and that its orders are denied', async () => {
    // a live run buys a share of 005930 (the account held 100)
    const { sim, db } = await setup(true, 30);
    const first = start(['run', buysOnBars, ...RUN, '--candle-poll-ms', '300'], env(sim, db));
    expect(await until(first, / fill /, 90_000)).toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await sim.close();

    // the broker loses its state (a simulator started afresh, later that day): it holds 100 again
    const fresh = await startSimulator({ port: 0, seed: 7, start: '2026-11-23T11:00:00+09:00', speed: 30 });
    mine.push(fresh);
    const second = start(['run', logsEachBar, ...RUN], env(fresh, db));
    const found = await until(second, /PositionMismatch|mismatch/i, 60_000);
    second.child.kill('SIGTERM');
    await second.exited;
    expect(found).toBe(true);
    const line = second.out
      .join('')
      .split('\n')
      .find((l) => /PositionMismatch|mismatch/i.test(l));
    expect(line).toContain('005930');
    expect(line).toMatch(/\b101\b/);
    expect(line).toMatch(/\b100\b/);
    // words, not the alert's JSON with its epoch
    expect(line).not.toMatch(/[{}]|tsEvent/);
    // what it means for the run
    expect(line).toMatch(/denied|refused|blocked/i);
  }, 180_000);
});
