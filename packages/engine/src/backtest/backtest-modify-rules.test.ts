/**
 * A backtest refuses the modifies the broker refuses, with its codes, as paper and live do (the
 * broker model's `checkModifyRequest` and `checkChangeable`): a US modify of the quantity
 * (`us-modify-quantity-not-supported`), a KR modify to a fractional quantity or past the unfilled
 * rest (`invalid-request`), a modify of an amount order (`modify-restricted`). Before, the backtest's
 * venue took them: a US limit buy of 2 AAPL modified with `{quantity: 0.5}` became a working order
 * of 0.5 shares, where paper answered `us-modify-quantity-not-supported`.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, minuteBars, US_OPEN } from './backtest-fixture.test-helper.js';

/** Places a limit buy far below on its first bar, then on its second asks `change` of it. */
function modifying(change: { quantity?: number; price?: number }, price: number) {
  return class Modifying extends Strategy {
    static seen: string[] = [];
    static quantity: string | undefined;
    private n = 0;
    private id: ReturnType<Strategy['ctx']['buy']> | undefined;
    override onBar(bar: Bar): void {
      this.n++;
      if (this.n === 1) this.id = this.ctx.buy(bar.symbol, 2, price);
      if (this.n === 2 && this.id !== undefined) this.ctx.modify(this.id, change);
      if (this.n === 3 && this.id !== undefined)
        Modifying.quantity = this.ctx.order(this.id)?.quantity?.toFixed();
    }
    override onOrderEvent(event: OrderEvent): void {
      if (event.type === 'OrderModifyRejected') Modifying.seen.push(`${event.code}: ${event.reason}`);
      if (event.type === 'OrderModified') Modifying.seen.push('modified');
    }
  };
}

describe('a backtest judges a modify by the broker rules', () => {
  it.each([
    [
      'a US modify of the quantity',
      'AAPL',
      { quantity: 0.5 },
      'us-modify-quantity-not-supported: A US order modify changes the price only',
    ],
    [
      'a KR modify to a fractional quantity',
      '005930',
      { quantity: 1.5 },
      'invalid-request: A KR modify needs a positive integer quantity',
    ],
    [
      'a KR modify past the unfilled rest',
      '005930',
      { quantity: 3 },
      'invalid-request: quantity must not exceed the unfilled 2',
    ],
  ] as const)('refuses %s, the order left as it was', async (_name, symbol, change, expected) => {
    const us = symbol === 'AAPL';
    const Modifying = modifying(change, us ? 100 : 60_000);
    const start = us ? US_OPEN : undefined;
    const { outcome } = await backtestBars(
      [{ strategyClass: Modifying }],
      minuteBars(symbol, us ? [227, 227.5, 228, 228.5] : [70_000, 70_100, 70_200, 70_300], start),
      start === undefined ? {} : { start },
    );
    expect(outcome.status).toBe('completed');
    expect(Modifying.seen).toEqual([expected]);
    expect(Modifying.quantity).toBe('2');
  });

  it('takes a KR modify of the quantity within the rest', async () => {
    const Modifying = modifying({ quantity: 1 }, 60_000);
    await backtestBars(
      [{ strategyClass: Modifying }],
      minuteBars('005930', [70_000, 70_100, 70_200, 70_300]),
    );
    expect(Modifying.seen).toEqual(['modified']);
    expect(Modifying.quantity).toBe('1');
  });
});
