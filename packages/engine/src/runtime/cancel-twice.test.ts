import type { Bar, Fill, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

/**
 * Rests a limit buy far below the market on the first bar, cancels it twice on the second (the
 * second cancel is checked while the first's `OrderCanceled` is still on its way back to the
 * strategy: the risk gate refuses it without sending, the venue having ended the order), and once
 * more on the third (the order known CANCELED: the runtime refuses it without sending).
 */
class CancelsThrice extends Strategy {
  static last: CancelsThrice | undefined;
  readonly events: OrderEvent[] = [];
  private id = '';
  private n = 0;

  override onStart(): void {
    CancelsThrice.last = this;
  }

  override onBar(bar: Bar): void {
    this.n++;
    if (this.n === 1) this.id = this.ctx.buy(bar.symbol, 1, 50_000);
    if (this.n === 2) {
      this.ctx.cancel(this.id as never);
      this.ctx.cancel(this.id as never);
    }
    if (this.n === 3) this.ctx.cancel(this.id as never);
  }

  override onFill(_fill: Fill): void {}

  override onOrderEvent(event: OrderEvent): void {
    this.events.push(event);
  }
}

describe('a cancel of an order already cancelled', () => {
  it('is refused already-canceled, unsent, whether the risk gate or the runtime answers (before: already-canceled, then order-closed)', async () => {
    const { outcome } = await backtestBars(
      [{ strategyClass: CancelsThrice, id: 'Thrice' }],
      minuteBars('005930', [70_000, 70_100, 70_200, 70_300]),
    );
    expect(outcome.status).toBe('completed');
    const events = CancelsThrice.last?.events ?? [];
    const answers = events
      .filter((e) => e.type === 'OrderCanceled' || e.type === 'OrderCancelRejected')
      .map((e) => [e.type, 'code' in e ? e.code : undefined, 'sent' in e ? e.sent : undefined]);
    expect(answers).toEqual([
      ['OrderCanceled', undefined, undefined],
      // as paper's and live's risk gate refuses it (before, sent to the venue and refused there, sent true)
      ['OrderCancelRejected', 'already-canceled', false],
      ['OrderCancelRejected', 'already-canceled', false],
    ]);
  });
});
