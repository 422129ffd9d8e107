import type { Bar, Fill, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import {
  backtestBars,
  minuteBars,
  recordingLogger,
  US_OPEN,
} from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

/**
 * Buys 10 AAPL at market on the first bar, and $0.50 of it, an amount order the broker takes and
 * then rejects (under its minimum of $1: the risk module denies it before it is sent, so the run
 * has the module off and the venue rejects it, as the broker does); once the buy filled and the
 * amount order was rejected, asks to cancel and to modify both (orders that can no longer change).
 */
class TouchesClosedOrders extends Strategy {
  readonly events: OrderEvent[] = [];
  private buyId = '';
  private sellId = '';
  private n = 0;

  override onBar(bar: Bar): void {
    this.n++;
    if (this.n === 1) {
      this.buyId = this.ctx.buy(bar.symbol, 10);
      this.sellId = this.ctx.buyAmount(bar.symbol, 0.5);
    }
    if (this.n === 3) {
      for (const id of [this.buyId, this.sellId]) {
        this.ctx.cancel(id as never);
        this.ctx.modify(id as never, { price: 201 });
      }
    }
  }

  override onFill(_fill: Fill): void {}

  override onOrderEvent(event: OrderEvent): void {
    this.events.push(event);
  }
}

describe('a cancel or modify of an order that can no longer change', () => {
  it('is refused to the strategy at once, naming the state, and is never sent to the venue; nothing warns', async () => {
    const { logger, records } = recordingLogger('debug');
    let strategy: TouchesClosedOrders | undefined;
    const { outcome } = await backtestBars(
      [
        {
          strategyClass: class extends TouchesClosedOrders {
            constructor(...args: ConstructorParameters<typeof TouchesClosedOrders>) {
              super(...args);
              strategy = this;
            }
          },
          id: 'Touch',
        },
      ],
      minuteBars('AAPL', [200, 200.1, 200.2, 200.3], US_OPEN),
      { logger, start: US_OPEN, risk: { enabled: false } },
    );
    expect(outcome.status).toBe('completed');
    const seen = (strategy?.events ?? []).map((e) => [e.type, 'reason' in e ? e.reason : undefined]);
    const buy = outcome.trades[0]?.clientOrderId ?? '';
    const sell = (strategy?.events ?? []).find((e) => e.type === 'OrderRejected')?.clientOrderId ?? '';
    expect(sell).not.toBe('');
    // after the fill and the rejection: one refusal per request, nothing else (no request events)
    const after = (strategy?.events ?? []).filter(
      (e) => e.type.startsWith('OrderCancel') || e.type.startsWith('OrderModify'),
    );
    // refused by the runtime: none of them reached the venue (sent false)
    expect(
      after.map((e) => [
        e.type,
        e.clientOrderId,
        'code' in e ? e.code : undefined,
        'sent' in e ? e.sent : '-',
      ]),
    ).toEqual([
      ['OrderCancelRejected', buy, 'already-filled', false],
      ['OrderModifyRejected', buy, 'already-filled', false],
      ['OrderCancelRejected', sell, 'already-rejected', false],
      ['OrderModifyRejected', sell, 'already-rejected', false],
    ]);
    expect(seen).toContainEqual([
      'OrderCancelRejected',
      `order ${buy} is FILLED: it can no longer be canceled`,
    ]);
    expect(seen).toContainEqual([
      'OrderModifyRejected',
      `order ${sell} is REJECTED: it can no longer be modified`,
    ]);
    expect(records.filter((r) => (r.level as number) >= 40).map((r) => r.msg)).toEqual([]);
  });
});
