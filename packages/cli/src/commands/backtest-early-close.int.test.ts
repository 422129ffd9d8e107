/**
 * The opening-range example run by `hoga backtest` (a child process, against a simulator over HTTP)
 * on a NYSE early close: it trades the regular session the broker has that day, not the usual one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest, ROOT } from './backtest-runs.test-helper.js';

const OPENING_RANGE = join(ROOT, 'strategies', 'opening-range.ts');

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  // the clock after the early close, so that its minute candles are history
  sim = await startSimulator({ port: 0, seed: 1, start: '2026-11-30T10:00:00+09:00', speed: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-opening-range-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hoga backtest strategies/opening-range.ts', () => {
  it('is flat by the 13:00 close of a NYSE early close, with no order refused', async () => {
    const run = await hogaBacktest([
      OPENING_RANGE,
      ...['--symbols', 'AAPL', '--interval', '1m', '--from', '2026-11-27', '--to', '2026-11-27'],
      ...[...simFlags(sim.url), '--db', join(dir, 'early-close.sqlite'), '--json'],
    ]);
    expect(run.stderr).not.toContain('order refused');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as BacktestJson;
    // before: the breakout bought at 11:47 New York, the flat timer (15:45) and every bar after it
    // sold at market in the after-market, refused 11 times, and the position was held over the weekend
    expect(report.stats.refused).toEqual({});
    const buys = report.trades.filter((t) => t.side === 'BUY');
    const sells = report.trades.filter((t) => t.side === 'SELL');
    expect(buys.length).toBeGreaterThan(0);
    expect(sells.length).toBe(buys.length);
    const closeMs = Date.parse('2026-11-27T13:00:00-05:00');
    for (const t of report.trades) expect(Date.parse(t.time)).toBeLessThanOrEqual(closeMs);
  });
});
