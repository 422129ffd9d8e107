/**
 * A strategy's context after its run ended (`onStop` ran and the engine stopped): a call that
 * would place, change or cancel an order, set a timer or subscribe does nothing and says so on the
 * strategy's log, once per call, naming the strategy and the call. Before, `ctx.buy` from a
 * callback the strategy left behind (a `setTimeout` set in `onStop`) answered an order id and the
 * order went nowhere without a word: not filled, not journalled, not denied. (It threw for a while:
 * no run catches a callback's exception after the run, and `hoga backtest` died before its report.)
 * Reading (positions, cash, the clock) and logging still work; orders placed in `onStop` itself are
 * placed as before.
 */
import type { Bar, ClientOrderId, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars, recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';

describe('the context after the run ended', () => {
  it('does nothing for orders, timers and subscriptions and says so once per call, naming the strategy and the call; reads still answer', async () => {
    let kept: StrategyContext | undefined;
    const events: string[] = [];
    class KeepsContext extends Strategy {
      override onBar(bar: Bar): void {
        if (this.ctx.positions().length === 0 && this.ctx.openOrders().length === 0)
          this.ctx.buy(bar.symbol, 1);
      }
      override onOrderEvent(event: OrderEvent): void {
        events.push(event.type);
      }
      override onStop(): void {
        kept = this.ctx;
        // an order placed in onStop itself is still placed (it is journalled, working at the end)
        this.ctx.buy('005930', 1, 60_000);
      }
    }
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [{ strategyClass: KeepsContext }],
      minuteBars('005930', [70000, 70100, 70200]),
      { logger },
    );
    expect(outcome.status).toBe('completed');
    expect(events.filter((e) => e === 'OrderSubmitted')).toHaveLength(2);
    const ctx = kept as StrategyContext;
    const calls: [string, () => unknown][] = [
      ['buy', () => ctx.buy('005930', 1)],
      ['sell', () => ctx.sell('005930', 1)],
      ['buyAmount', () => ctx.buyAmount('AAPL', 100)],
      ['submit', () => ctx.submit({ symbol: '005930', side: 'BUY', quantity: 1 })],
      ['modify', () => ctx.modify('x-1' as ClientOrderId, { price: 70_000 })],
      ['cancel', () => ctx.cancel('x-1' as ClientOrderId)],
      ['setTimer', () => ctx.setTimer('late', { every: 1000 })],
      ['subscribeBars', () => ctx.subscribeBars('000660')],
      ['subscribePrices', () => ctx.subscribePrices('000660')],
    ];
    for (const [name, call] of calls) {
      expect(call, name).not.toThrow();
      call(); // said once per call
    }
    const said = records.filter((r) => r.level === 40 && typeof r.call === 'string').map((r) => r.msg);
    expect(said).toEqual(
      calls.map(
        ([name]) =>
          `strategy KeepsContext: ctx.${name} after the run ended (onStop has run): nothing is placed, set or subscribed`,
      ),
    );
    expect(events.filter((e) => e === 'OrderSubmitted')).toHaveLength(2);
    expect(ctx.position('005930')?.quantity.toFixed()).toBe('1');
    expect(ctx.cash('KRW').isPositive()).toBe(true);
    expect(ctx.now()).toBeGreaterThan(0);
    expect(ctx.cancelTimer('late')).toBe(false);
  });
});
