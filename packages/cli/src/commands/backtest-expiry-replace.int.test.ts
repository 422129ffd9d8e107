/**
 * A DAY order's `OrderExpired` reaches the strategy at the end of its trading day (KR 20:00 KST),
 * with the engine's clock there, as paper and live hand it over: an order the strategy places in
 * answer is an order for the next open, and on daily bars it fills at the next bar's open. Before,
 * the backtest handed the expiry over only at the next bar or timer, its clock already there (on
 * daily bars the next day's 15:30 close): a market buy placed in answer met that bar as one placed
 * on its close, did not fill on it, and expired itself at 20:00, so a strategy that re-places an
 * order when it expires never traded again. `hoga backtest` in a child process over the
 * simulator's candles.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

/** Rests a buy 20 % below the first bar's close; when it expires, buys 1 at market. */
const REPLACES_ON_EXPIRY = `
import type { Bar, OrderEvent } from '@hoga/core';
import { Strategy } from '@hoga/engine';

export default class ReplacesOnExpiry extends Strategy {
  private placed = false;
  override onBar(bar: Bar): void {
    if (this.placed) return;
    this.placed = true;
    this.ctx.buy(bar.symbol, 1, Math.floor((bar.close * 0.8) / 100) * 100);
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type !== 'OrderExpired') return;
    console.error('expired at ' + new Date(this.ctx.now()).toISOString());
    this.ctx.buy('005930', 1);
  }
}
`;

const scratch = useCliSimulator('hoga-backtest-expiry-replace-');
const db = join(scratch.dir, 'hoga.sqlite');
const strategy = join(scratch.dir, 'replaces-on-expiry.ts');
writeFileSync(strategy, REPLACES_ON_EXPIRY);
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

/** `hoga backtest` starts through tsx, which compiles the CLI's sources at the start. */
const TSX_CHILD = { timeout: 120_000 };

describe('hoga backtest: an order placed when a DAY order expires', TSX_CHILD, () => {
  it("daily bars: the expiry comes at 20:00 KST of the order's day, and a market buy placed then fills at the next open", async () => {
    const result = await hoga([
      strategy,
      ...['--symbols', '005930', '--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-06'],
      ...['--json', ...simFlags(scratch.sim.url), '--db', db],
    ]);
    expect(result.code, result.stderr).toBe(0);
    // placed on 11-03's close, the limit buy works through 11-04 and ends at 20:00 KST then
    expect(result.stderr).toContain('expired at 2026-11-04T11:00:00.000Z');
    const run = JSON.parse(result.stdout) as BacktestJson;
    const day = cachedBars(db, '005930', '2026-11-05', '2026-11-05')[0];
    expect(day).toBeDefined();
    const { open, closeTime } = day as NonNullable<typeof day>;
    expect(
      run.trades.map((t) => ({
        side: t.side,
        quantity: t.quantity,
        price: t.price,
        time: Date.parse(t.time),
      })),
    ).toEqual([{ side: 'BUY', quantity: '1', price: String(open), time: closeTime }]);
  });
});
