import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSmaTrades } from '../../../../strategies/sma-crossover-reference.test-helper.js';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest, SMA } from './backtest-runs.test-helper.js';

/** KODEX 200: an ETF (5-won ticks) trading around 35,000 won, where a stock's tick is 50 won. */
const ETF = '069500';
const FROM = '2025-01-01';
const TO = '2025-12-31';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-etf-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function backtest(
  baseUrl = sim.url,
  extra: readonly string[] = [],
): Promise<{ run: BacktestJson; stderr: string }> {
  const result = await hogaBacktest([
    SMA,
    '--symbols',
    ETF,
    '--interval',
    '1d',
    '--from',
    FROM,
    '--to',
    TO,
    '--json',
    ...extra,
    ...simFlags(baseUrl),
    '--db',
    join(dir, 'hoga.sqlite'),
  ]);
  if (result.code !== 0) throw new Error(`hoga backtest exited ${result.code}: ${result.stderr}`);
  return { run: JSON.parse(result.stdout) as BacktestJson, stderr: result.stderr };
}

describe('hoga backtest of a KR ETF', () => {
  it("fills on the ETF's 5-won grid (not the stock grid's 50 won), without the stock sell tax, the same twice", async () => {
    const first = await backtest();
    // market orders fill at the next bar's open as it is (the simulator's opens are on the ETF grid)
    const expected = expectedSmaTrades(cachedBars(join(dir, 'hoga.sqlite'), ETF, FROM, TO), {
      fast: 5,
      slow: 20,
      quantity: 10,
    });
    expect(expected.length).toBeGreaterThan(5);
    expect(
      first.run.trades.map((t) => ({
        time: Date.parse(t.time),
        symbol: t.symbol,
        side: t.side,
        quantity: Number(t.quantity),
        price: Number(t.price),
      })),
    ).toEqual(expected);
    const prices = first.run.trades.map((t) => Number(t.price));
    // every fill on the ETF grid, and the opens are not all rounded to 50 won as a stock's would be
    expect(prices.filter((p) => p % 5 !== 0)).toEqual([]);
    expect(prices.filter((p) => p % 50 !== 0).length).toBeGreaterThan(0);
    // KR ETFs pay no securities transaction tax on sells
    expect(first.run.trades.filter((t) => t.side === 'SELL').map((t) => Number(t.tax))).toEqual(
      first.run.trades.filter((t) => t.side === 'SELL').map(() => 0),
    );
    expect(first.stderr).not.toContain('instrument type');
    const second = await backtest();
    expect(second.run.trades).toEqual(first.run.trades);
  }, 120_000);

  it('backtests from the cache alone (no broker) as a stock, with a warning naming the symbol', async () => {
    // the first test filled the cache; nothing listens on port 9 of 127.0.0.1
    const offline = await backtest('http://127.0.0.1:9', ['--usd-krw', '1350']);
    expect(offline.stderr).toContain(
      `instrument type unknown for ${ETF} (stock info failed: issueToken: network-connection`,
    );
    const prices = offline.run.trades.map((t) => Number(t.price));
    expect(prices.length).toBeGreaterThan(5);
    expect(prices.filter((p) => p % 50 !== 0)).toEqual([]);
  }, 120_000);
});
