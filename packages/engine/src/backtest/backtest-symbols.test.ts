import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, minuteBars } from './backtest-fixture.test-helper.js';

/** The order events the strategy got. */
const events: OrderEvent[] = [];

/** On its first bar, buys one share of 005930 (in the run) and one of `other` (which has no bars). */
function buysOutside(other: string) {
  return class extends Strategy {
    n = 0;
    override onBar(bar: Bar): void {
      if (++this.n !== 1) return;
      this.ctx.buy(bar.symbol, 1);
      this.ctx.buy(other, 1);
    }
    override onOrderEvent(event: OrderEvent): void {
      events.push(event);
    }
  };
}

describe('an order for a symbol with no bars in the backtest', () => {
  it('is denied at once, saying how to give it bars; the run goes on and its orders fill', async () => {
    const strategyClass = buysOutside('ZZZZ');
    const { outcome } = await backtestBars(
      [{ strategyClass, id: 'Outside' }],
      minuteBars('005930', [70_000, 70_100, 70_200]),
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.trades.map((t) => [t.symbol, t.quantity.toFixed()])).toEqual([['005930', '1']]);
    const denied = events.find((e) => e.type === 'OrderDenied');
    // before: accepted, and left working for the whole run with nothing to fill it
    expect(denied).toMatchObject({
      code: 'no-market-data',
      reason: 'ZZZZ has no bars in this backtest: add it to --symbols, or subscribe to its bars in onStart',
    });
  });
});
