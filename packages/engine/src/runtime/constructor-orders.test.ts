/**
 * An order a strategy places in its constructor (or a field initialiser), before `onStart`: its
 * events reach the strategy and its view of the order follows them, in a backtest as in paper.
 * Before, a backtest's venue answered the order at once, while the strategy was not yet among the
 * run's: `OrderSubmitted` and `OrderAccepted` never reached `onOrderEvent`, the order stayed
 * `INITIALIZED` in the strategy's view, the fill warned "order event does not apply to the order
 * state", and `openOrders()` listed the filled order as open to the end of the run.
 */
import type { Bar, ClientOrderId, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';

describe('an order placed in the constructor', () => {
  it('reaches onOrderEvent with its events and is no longer open once filled (backtest)', async () => {
    const events: string[] = [];
    const seen: string[] = [];
    class BuysInConstructor extends Strategy {
      private readonly id: ClientOrderId;
      constructor(ctx: StrategyContext, config: Record<string, unknown>) {
        super(ctx, config);
        this.id = this.ctx.buy('005930', 1);
      }
      override onOrderEvent(event: OrderEvent): void {
        events.push(event.type);
      }
      override onBar(bar: Bar): void {
        seen.push(`${bar.close} ${this.ctx.order(this.id)?.state} open ${this.ctx.openOrders().length}`);
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: BuysInConstructor }],
      minuteBars('005930', [70000, 70100, 70200]),
    );
    expect(outcome.status).toBe('completed');
    expect(outcome.trades).toHaveLength(1);
    expect(events).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
    // as for an order placed in onStart: filled at the first bar's open, its events routed after
    // that bar's onBar (a fill is stamped at the close of the bar it filled on)
    expect(seen).toEqual(['70000 ACCEPTED open 1', '70100 FILLED open 0', '70200 FILLED open 0']);
  });
});
