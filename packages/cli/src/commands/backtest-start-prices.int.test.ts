/**
 * A backtest knows each symbol's last price before its first bar, as paper and live know the
 * broker's at their start: the close of the symbol's last daily candle before the run, read from
 * the candle cache (downloaded once, with the run's candles). So an order placed in `onStart` is
 * judged as the broker judges it: a market buy is valued at that close (two strategies' buys are no
 * longer denied `risk-strategy-cash` for want of a price), a buy beyond the cash is denied at once
 * (before, accepted unvalued and cancelled at the first bar, the summary saying no order was
 * refused), and the first day's KR price limits are known (before, a limit buy far above them was
 * accepted and filled at the first open).
 * The real `hoga backtest` as a child process over the simulator's candles, its stored orders read
 * with `hoga db orders`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest } from './backtest-runs.test-helper.js';

/** Buys its config's quantity of 005930 in onStart, at market or at its price. */
const STRATEGY = `import { Strategy } from '@hoga/engine';

export default class StartBuy extends Strategy<{ quantity: number; price?: number }> {
  override onStart(): void {
    this.ctx.submit({ symbol: '005930', side: 'BUY', quantity: this.config.quantity, price: this.config.price });
  }
}
`;

/** Subscribes to 000660's bars in onStart (outside --symbols) and buys its config's quantity of it there. */
const SUBSCRIBING = `import { Strategy } from '@hoga/engine';

export default class SubscribeBuy extends Strategy<{ quantity: number }> {
  override onStart(): void {
    this.ctx.subscribeBars('000660');
    this.ctx.buy('000660', this.config.quantity);
  }
}
`;

interface ListedOrder {
  readonly strategyId: string;
  readonly state: string;
  readonly reason: string | null;
  readonly filledQuantity: string;
}

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-start-prices-'));
  writeFileSync(join(dir, 'start.ts'), STRATEGY);
  writeFileSync(join(dir, 'subscribe.ts'), SUBSCRIBING);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(
  name: string,
  strategies: readonly string[],
  configs: readonly object[],
  range: readonly string[] = ['--interval', '1d', '--from', '2025-01-06', '--to', '2025-01-10'],
): Promise<{ json: BacktestJson; orders: ListedOrder[]; db: string; stderr: string }> {
  const db = join(dir, `${name}.sqlite`);
  const configArgs = configs.flatMap((c, i) => {
    const file = join(dir, `${name}-${i}.json`);
    writeFileSync(file, JSON.stringify(c));
    return ['--config', file];
  });
  const result = await hogaBacktest([
    ...strategies,
    ...configArgs,
    ...['--symbols', '005930', ...range, '--json'],
    ...simFlags(sim.url),
    ...['--db', db],
  ]);
  expect(result.code, result.stderr).toBe(0);
  const json = JSON.parse(result.stdout) as BacktestJson;
  const listed = await hoga([
    'db',
    'orders',
    '--db',
    db,
    '--mode',
    'backtest',
    '--run',
    json.runId,
    '--json',
  ]);
  expect(listed.code, listed.err).toBe(0);
  return { json, orders: JSON.parse(listed.out) as ListedOrder[], db, stderr: result.stderr };
}

/** The close of a symbol's last daily candle before 2025-01-06, cached with the run's candles. */
function lastCloseBefore(db: string, symbol = '005930'): number {
  const before = cachedBars(db, symbol, '2024-12-20', '2025-01-03');
  const last = before[before.length - 1];
  expect(last).toBeDefined();
  return last?.close ?? 0;
}

describe('hoga backtest: orders placed in onStart', () => {
  it("values two strategies' market buys at the last close before the run, and fills both", async () => {
    const start = join(dir, 'start.ts');
    const { json, orders } = await run(
      'two',
      [`${start}:a`, `${start}:b`],
      [{ quantity: 10 }, { quantity: 10 }],
    );
    expect(orders.map((o) => [o.strategyId, o.state, o.reason])).toEqual([
      ['a', 'FILLED', null],
      ['b', 'FILLED', null],
    ]);
    // both filled at the first bar's open, the run's first trades
    expect(json.trades.map((t) => t.quantity)).toEqual(['10', '10']);
    expect(json.stats.refused).toEqual({});
  });

  it('denies a market buy beyond the cash at once, as the broker would, and counts it refused', async () => {
    // under 100,000,000 KRW at the last close (no high-value confirmation needed), but beyond the
    // cash at the upper price limit, what the broker holds a KR market buy's funds at
    const { json, orders, db } = await run('oversize', [join(dir, 'start.ts')], [{ quantity: 1_800 }]);
    const close = lastCloseBefore(db);
    expect(1_800 * close).toBeLessThan(100_000_000);
    expect(1_800 * close * 1.3).toBeGreaterThan(100_000_000);
    expect(orders).toHaveLength(1);
    expect(orders[0]?.state).toBe('DENIED');
    expect(orders[0]?.reason).toMatch(/^insufficient-buying-power: /);
    expect(json.trades).toEqual([]);
    expect(json.stats.refused).toEqual({ 'insufficient-buying-power': 1 });
  });

  it("denies a limit buy above the first day's upper price limit (30 % over the last close before the run)", async () => {
    const { json, orders, db } = await run(
      'limit',
      [join(dir, 'start.ts')],
      [{ quantity: 1, price: 5_000_000 }],
    );
    expect(5_000_000).toBeGreaterThan(lastCloseBefore(db) * 1.3);
    expect(orders[0]?.state).toBe('DENIED');
    expect(orders[0]?.reason).toMatch(/^price-out-of-range: /);
    expect(json.trades).toEqual([]);
  });

  it("values a minute run's market buys at the last daily close before it", async () => {
    const start = join(dir, 'start.ts');
    const { orders, stderr } = await run(
      'minute',
      [`${start}:a`, `${start}:b`],
      [{ quantity: 3 }, { quantity: 4 }],
      // from within the session (at 00:00 KST the broker takes no order); the day's own daily
      // candle closes at 15:30, after the start: the one before is the run's price
      ['--interval', '1m', '--from', '2025-01-07T09:30:00+09:00', '--to', '2025-01-07T10:00:00+09:00'],
    );
    expect(orders.map((o) => [o.strategyId, o.state, o.filledQuantity, o.reason])).toEqual([
      ['a', 'FILLED', '3', null],
      ['b', 'FILLED', '4', null],
    ]);
    // its daily candles, downloaded after its minute candles, named as what they are for
    expect(stderr).toContain('hoga: 005930 1m: downloaded');
    expect(stderr).toMatch(
      /hoga: 005930 1d, the last close before 2025-01-07T09:30:00\+09:00: downloaded \d+ candles in 1 page\n/,
    );
  });

  it('judges a market buy of a symbol subscribed to in onStart at its last close too: beyond the cash, denied at once', async () => {
    const subscribe = join(dir, 'subscribe.ts');
    // within the cash: valued at the close, filled at the first open
    const small = await run('subscribed', [subscribe], [{ quantity: 10 }]);
    expect(small.orders.map((o) => [o.state, o.filledQuantity, o.reason])).toEqual([['FILLED', '10', null]]);
    // under 100,000,000 KRW at the close (no high-value confirmation needed), beyond the cash at
    // the upper price limit: denied, as a buy of a --symbols symbol is (before, taken unvalued
    // and cancelled at the first bar for the buying power, the summary saying none was refused)
    const close = lastCloseBefore(small.db, '000660');
    const quantity = Math.floor(96_000_000 / close);
    const { json, orders } = await run('subscribed-oversize', [subscribe], [{ quantity }]);
    expect(quantity * close * 1.3).toBeGreaterThan(100_000_000);
    expect(orders.map((o) => o.state)).toEqual(['DENIED']);
    expect(orders[0]?.reason).toMatch(/^insufficient-buying-power: /);
    expect(json.trades).toEqual([]);
    expect(json.stats.refused).toEqual({ 'insufficient-buying-power': 1 });
  });
});
