/**
 * A modify or cancel of an id the strategy does not have (an order of an earlier run that ended
 * while the engine was down, kept in `ctx.state`; another strategy's; none at all) is refused
 * `order-not-found`, as the broker answers an unknown id, and the run goes on. Before, the call
 * threw 'order … is not an order of strategy …' and stopped the run (`hoga run` exit 1): a live
 * strategy cancelling yesterday's order id after a restart ended its run.
 */
import type { Bar, ClientOrderId, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const placed: ClientOrderId[] = [];

/** Places a limit buy far below on its first bar. */
class Places extends Strategy {
  static canceled = 0;
  override onBar(bar: Bar): void {
    if (placed.length === 0) placed.push(this.ctx.buy(bar.symbol, 1, 60_000));
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderCanceled') Places.canceled++;
  }
}

/** On its second bar: cancels and modifies an unknown id and the other strategy's order. */
class Asks extends Strategy {
  static seen: string[] = [];
  private n = 0;
  override onBar(): void {
    if (++this.n !== 2) return;
    const other = placed[0] as ClientOrderId;
    this.ctx.cancel('yesterday' as ClientOrderId);
    this.ctx.modify('yesterday' as ClientOrderId, { price: 61_000 });
    this.ctx.cancel(other);
  }
  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderCancelRejected' || event.type === 'OrderModifyRejected')
      Asks.seen.push(
        `${event.type} ${event.clientOrderId === placed[0] ? 'other' : event.clientOrderId} ${event.code} sent=${event.sent}`,
      );
  }
}

describe('a modify or cancel of an order the strategy does not have', () => {
  it('is refused order-not-found, and the run completes; the other strategy keeps its order', async () => {
    placed.length = 0;
    Asks.seen = [];
    Places.canceled = 0;
    const { outcome } = await backtestBars(
      [{ strategyClass: Places }, { strategyClass: Asks }],
      minuteBars('005930', [70_000, 70_100, 70_200]),
    );
    expect(outcome.failure).toBeNull();
    expect(Asks.seen).toEqual([
      // refused by the runtime: nothing reached the venue
      'OrderCancelRejected yesterday order-not-found sent=false',
      'OrderModifyRejected yesterday order-not-found sent=false',
      'OrderCancelRejected other order-not-found sent=false',
    ]);
    expect(Places.canceled).toBe(0);
  });
});
