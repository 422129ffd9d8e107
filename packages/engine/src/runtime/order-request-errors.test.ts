import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

/** Calls `request` on its second bar. */
function strategyCalling(request: (s: Strategy, bar: Bar) => void) {
  return class extends Strategy {
    n = 0;
    override onBar(bar: Bar): void {
      if (++this.n === 1) this.ctx.buy(bar.symbol, 1, 60_000);
      if (this.n === 2) request(this, bar);
    }
  };
}

describe('an order request with a value that is not a number', () => {
  for (const [name, request, message] of [
    [
      'a limit price',
      (s: Strategy, bar: Bar) => s.ctx.buy(bar.symbol, 1, 'abc'),
      'order of 005930: price: expected a number, found "abc"',
    ],
    [
      'a quantity',
      (s: Strategy, bar: Bar) => s.ctx.sell(bar.symbol, '1,000'),
      'order of 005930: quantity: expected a number, found "1,000"',
    ],
    [
      'an amount',
      (s: Strategy) => s.ctx.buyAmount('AAPL', 'lots'),
      'order of AAPL: amount: expected a number, found "lots"',
    ],
    [
      'a modified price',
      (s: Strategy) => s.ctx.modify(s.ctx.openOrders()[0]?.clientOrderId ?? ('' as never), { price: 'x' }),
      'modify of order',
    ],
  ] as const) {
    it(`stops the run naming the field and the value (${name}), not with a bare DecimalError`, async () => {
      const { outcome } = await backtestBars(
        [{ strategyClass: strategyCalling(request), id: 'Asks' }],
        minuteBars('005930', [70_000, 71_000, 72_000]),
      );
      expect(outcome.status).toBe('failed');
      expect(outcome.failure?.message).toContain(message);
      expect(outcome.failure?.message).not.toContain('DecimalError');
    });
  }
});

describe('a modify that changes nothing', () => {
  const open = (s: Strategy) => s.ctx.openOrders()[0]?.clientOrderId ?? ('' as never);
  for (const [change, found] of [
    [{}, '{}'],
    [{ price: undefined, quantity: undefined }, '{price: undefined, quantity: undefined}'],
    [{ confirmHighValue: true }, '{confirmHighValue: true}'],
  ] as const) {
    it(`stops the run naming the call and what was given (${found}); nothing is sent`, async () => {
      const { outcome } = await backtestBars(
        [{ strategyClass: strategyCalling((s) => s.ctx.modify(open(s), change as never)), id: 'Asks' }],
        minuteBars('005930', [70_000, 71_000, 72_000]),
      );
      expect(outcome.status).toBe('failed');
      expect(outcome.failure?.message).toMatch(
        /modify of order \S+: expected a new price or quantity, found /,
      );
      expect(outcome.failure?.message).toContain(`found ${found}`);
    });
  }
});
