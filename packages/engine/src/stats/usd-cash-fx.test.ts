import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { BacktestTrade } from '../backtest/run-backtest.js';
import { SteppedFxRates } from '../portfolio/fx-rates.js';
import { usdCashFx } from './usd-cash-fx.js';

const DAY = 86_400_000;
// 1300 from day 0, 1350 from day 2, 1320 from day 4
const fx = new SteppedFxRates([
  [0, 1300],
  [2 * DAY, 1350],
  [4 * DAY, 1320],
]);

function trade(
  day: number,
  strategyId: string,
  side: 'BUY' | 'SELL',
  quantity: string,
  price: string,
): BacktestTrade {
  return {
    time: day * DAY,
    strategyId,
    clientOrderId: `${strategyId}-${day}`,
    symbol: 'AAPL',
    side,
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    currency: 'USD',
    commission: new Decimal('1'),
    tax: new Decimal(0),
  };
}

describe('usdCashFx', () => {
  it('is the start cash times the rate move when no dollar moves, the parts of the cash added', () => {
    const parts = [new Decimal(600), undefined, new Decimal(400)];
    expect(usdCashFx(parts, [], 0, 5 * DAY, fx)).toBe(1000 * (1320 - 1300));
  });

  it('counts the cash before each fill at the move since the one before, a buy and a sell mid-run', () => {
    // 1000 held over 1300 → 1350; a buy of 5 at 100.005 (500.03 with the cent rounded half up, and 1
    // commission) leaves 498.97 over 1350 → 1320; a sell of 2 at 110 (220 less 1) on day 5
    const trades = [trade(3, 'A', 'BUY', '5', '100.005'), trade(5, 'A', 'SELL', '2', '110')];
    expect(usdCashFx([new Decimal(1000)], trades, 0, 6 * DAY, fx)).toBeCloseTo(
      1000 * (1350 - 1300) + 498.97 * (1320 - 1350),
      6,
    );
  });

  it("counts a sell past the strategy's own shares (fromAccount) only for its own shares' proceeds", () => {
    // A holds 2; it sells 5 on day 3 (the account's 3 more): 2 × 100 of it is its cash, the rest
    // the account's; the cash held from day 3 is 1000 − 201 (the buy) + 200 − 1 = 998
    const trades = [trade(1, 'A', 'BUY', '2', '100'), trade(3, 'A', 'SELL', '5', '100')];
    const expected = 1000 * (1300 - 1300) + 799 * (1350 - 1300) + 998 * (1320 - 1350);
    expect(usdCashFx([new Decimal(1000)], trades, 0, 5 * DAY, fx)).toBeCloseTo(expected, 6);
  });
});
