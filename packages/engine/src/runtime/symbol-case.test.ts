/**
 * A strategy's symbols are upper-cased as the command line's are (`aapl` is AAPL): an order, a
 * position and the open orders of `aapl` are those of AAPL. Before, `ctx.buy('aapl', 1, 200)` was
 * denied `risk-market-data-missing: hoga has no market data for aapl` in live (`no-market-data` in
 * a backtest), and `ctx.subscribePrices('msft')` in paper never delivered a price.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars, US_OPEN } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

class LowerCase extends Strategy {
  static seen: string[] = [];
  private n = 0;
  override onStart(): void {
    this.ctx.subscribeBars('aapl');
  }
  override onBar(bar: Bar): void {
    this.n++;
    if (this.n === 1) {
      this.ctx.buy('aapl', 2);
      LowerCase.seen.push(`open ${this.ctx.openOrders('aapl').length} ${this.ctx.openOrders('AAPL').length}`);
    }
    if (this.n === 3)
      LowerCase.seen.push(`position ${this.ctx.position('aapl')?.quantity.toFixed()} ${bar.symbol}`);
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderDenied') LowerCase.seen.push(`denied ${event.code}`);
    if (event.type === 'OrderFilled') LowerCase.seen.push(`filled ${event.fill.symbol}`);
  }
}

describe("a strategy's lower-case symbol", () => {
  it('orders, holds and lists the upper-case symbol in a backtest', async () => {
    LowerCase.seen = [];
    const { outcome } = await backtestBars(
      [{ strategyClass: LowerCase }],
      minuteBars('AAPL', [227, 227.5, 228, 228.5], US_OPEN),
      { start: US_OPEN },
    );
    expect(outcome.status).toBe('completed');
    expect(LowerCase.seen).toEqual(['open 1 1', 'filled AAPL', 'position 2 AAPL']);
  });
});
