/**
 * `hoga backtest` (a child process, against a simulator over HTTP) on days of special hours and on
 * exchange holidays: the opening-range example on a NYSE early close trades the regular session the
 * broker has that day; an order on one market's holiday, placed in a mixed run while the other
 * market trades, is refused as the broker refuses it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest, ROOT } from './backtest-runs.test-helper.js';

const OPENING_RANGE = join(ROOT, 'strategies', 'opening-range.ts');
const BUYS_AT_TIMES = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'buys-at-times.ts');

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

  it.each([
    // Thanksgiving: KR trades, the US is closed all day (its day market of the next day opens at 20:00)
    {
      market: 'US',
      at: '2026-11-26T10:00:00-05:00',
      symbol: 'AAPL',
      from: '2026-11-26',
      to: '2026-11-27',
      next: 'they are taken again from 2026-11-27 10:00 KST (Fri) = 2026-11-26 20:00 New York (Thu)',
    },
    // Chuseok: the KRX is closed three days, the US trades
    {
      market: 'KR',
      at: '2026-09-24T10:00:00+09:00',
      symbol: '005930',
      from: '2026-09-23',
      to: '2026-09-28',
      next: 'they are taken again from 2026-09-28 08:00 KST (Mon)',
    },
  ])('refuses an order on a $market holiday (order-hours-closed), as the broker does', async (c) => {
    const config = join(dir, `holiday-${c.market}.json`);
    writeFileSync(config, JSON.stringify({ orders: [{ at: c.at, symbol: c.symbol, quantity: 1 }] }));
    const run = await hogaBacktest([
      BUYS_AT_TIMES,
      ...['--symbols', '005930,AAPL', '--interval', '1m', '--from', c.from, '--to', c.to],
      ...['--config', config, ...simFlags(sim.url), '--db', join(dir, `holiday-${c.market}.sqlite`)],
      '--json',
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as BacktestJson;
    // before: taken as an order of an open market (every weekday was a trading day), and filled at
    // the market's next bar, where paper and live are refused
    expect(report.trades).toEqual([]);
    expect(report.stats.refused).toEqual({ 'order-hours-closed': 1 });
    expect(run.stderr).toContain(c.next);
  });
});
