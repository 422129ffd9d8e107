import { clientOrderId, createOrderIntent, Decimal, instrumentOf, strategyId } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { SubmitOrder } from '../commands/order-commands.js';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { OrderView } from '../strategy/strategy-context.js';
import { budgetShortfall, modifyShortfall, StrategyBudgets } from './strategy-budget.js';

const d = (v: number | string) => new Decimal(v);

function buy(symbol: string, fields: { quantity?: number; price?: number; amount?: number }) {
  const base = {
    clientOrderId: clientOrderId('new'),
    strategyId: strategyId('s'),
    instrument: instrumentOf(symbol),
    side: 'BUY' as const,
  };
  if (fields.amount !== undefined)
    return createOrderIntent({ ...base, sizing: 'AMOUNT', orderType: 'MARKET', amount: d(fields.amount) });
  if (fields.price === undefined)
    return createOrderIntent({
      ...base,
      sizing: 'QUANTITY',
      orderType: 'MARKET',
      quantity: d(fields.quantity ?? 0),
    });
  return createOrderIntent({
    ...base,
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity: d(fields.quantity ?? 0),
    price: d(fields.price),
  });
}

function open(o: Partial<OrderView> & { symbol: string }): OrderView {
  return {
    clientOrderId: clientOrderId(`o-${o.symbol}-${String(o.price)}`),
    side: 'BUY',
    orderType: o.price == null ? 'MARKET' : 'LIMIT',
    price: null,
    quantity: null,
    amount: null,
    state: 'ACCEPTED',
    filledQuantity: d(0),
    averageFillPrice: null,
    ...o,
  };
}

const noPrices = () => null;

describe(budgetShortfall, () => {
  it('lets a buy through that fits in the cash less the open buys of its currency', () => {
    const working = [
      // 10 of 20 left at 70,000: 700,000 still needed, 700,105 with the commission (0.015 %, rounded up)
      open({ symbol: '005930', quantity: d(20), price: d(70_000), filledQuantity: d(10) }),
      // another currency: not counted against KRW
      open({ symbol: 'AAPL', quantity: d(100), price: d(200) }),
      // a sell holds no cash
      open({ symbol: '000660', side: 'SELL', quantity: d(5), price: d(200_000) }),
    ];
    // 10 × 70,000 with its commission: 700,105 beside the 700,105 held
    expect(
      budgetShortfall(buy('005930', { quantity: 10, price: 70_000 }), d(1_400_210), working, noPrices),
    ).toBeNull();
    // before, the commission was not counted: 1,400,000 let it through
    expect(
      budgetShortfall(buy('005930', { quantity: 10, price: 70_000 }), d(1_400_209), working, noPrices),
    ).toBe(
      "the buy needs 700,105 KRW with its commission, more than the strategy's own cash of 1,400,209 KRW less 700,105 KRW held by its open buys",
    );
  });

  it('values an amount order at what is left of its amount, and a market order at what it is held at', () => {
    const working = [
      open({ symbol: 'AAPL', amount: d(300), filledQuantity: d(1), averageFillPrice: d(200) }),
    ];
    const last = (s: string) => (s === 'NVDA' ? d(150) : null);
    // 100 USD left of the amount order; 3 NVDA at 150 = 450; each with 0.1 % commission
    expect(budgetShortfall(buy('NVDA', { quantity: 3 }), d(550.55), working, last)).toBeNull();
    expect(budgetShortfall(buy('NVDA', { quantity: 3 }), d(550.54), working, last)).toContain(
      "needs 450.45 USD with its commission, more than the strategy's own cash of 550.54 USD less 100.1 USD",
    );
    expect(budgetShortfall(buy('AAPL', { amount: 450 }), d(550.54), working, last)).toContain(
      'needs 450.45 USD',
    );
  });

  it('refuses a market buy of a symbol no price is known of, whatever the cash', () => {
    expect(budgetShortfall(buy('005930', { quantity: 1 }), d(1e12), [], noPrices)).toContain(
      'no price of 005930 is known yet',
    );
    // a limit buy, or an amount, is valued without a price
    expect(budgetShortfall(buy('005930', { quantity: 1, price: 70_000 }), d(1e12), [], noPrices)).toBeNull();
  });
});

describe(modifyShortfall, () => {
  // 10 of 30 left at 70,000; another open buy needs 700,000 (700,105 with the commission)
  const order = open({ symbol: '005930', quantity: d(30), price: d(70_000), filledQuantity: d(20) });
  const other = open({ symbol: '000660', quantity: d(5), price: d(140_000) });
  const working = [order, other];

  it('judges the rest of a buy at its new price beside the other open buys', () => {
    // 10 × 80,000 = 800,000, 800,120 with the commission, + 700,105 held: within 1,500,225, not 1,500,224
    expect(modifyShortfall(order, { price: d(80_000) }, d(1_500_225), working, noPrices)).toBeNull();
    expect(modifyShortfall(order, { price: d(80_000) }, d(1_500_224), working, noPrices)).toBe(
      "the buy needs 800,120 KRW with its commission, more than the strategy's own cash of 1,500,224 KRW less 700,105 KRW held by its open buys",
    );
    // a smaller rest at the higher price: 400,060 + 700,105
    expect(
      modifyShortfall(order, { price: d(80_000), quantity: d(5) }, d(1_100_165), working, noPrices),
    ).toBeNull();
  });

  it('lets a modify through that needs no more than before, a sell, and an amount order', () => {
    expect(modifyShortfall(order, { price: d(60_000) }, d(0), working, noPrices)).toBeNull();
    const sell = open({ symbol: '005930', side: 'SELL', quantity: d(10), price: d(70_000) });
    expect(modifyShortfall(sell, { price: d(90_000) }, d(0), [sell], noPrices)).toBeNull();
    const amount = open({ symbol: 'AAPL', amount: d(300) });
    expect(modifyShortfall(amount, { price: d(1) }, d(0), [amount], noPrices)).toBeNull();
  });
});

describe(StrategyBudgets, () => {
  /** A portfolio of one strategy with `cash` of each currency, the last prices given. */
  const portfolio = (cash: number, last: Record<string, number>) =>
    ({
      lastPrice: (symbol: string) => last[symbol],
      book: () => ({ cash: () => d(cash) }),
    }) as unknown as Portfolio;
  const submit = (symbol: string, quantity: number): SubmitOrder => ({
    type: 'SubmitOrder',
    commandId: 'c',
    tsInit: 0,
    strategyId: strategyId('s'),
    intent: buy(symbol, { quantity }),
  });

  it('holds a market buy at the price the broker holds it at: a KR stock at its upper limit, a US one 5 % above its last', () => {
    const limits = (symbol: string) => (symbol === '005930' ? { upper: d(91_000), lower: d(49_000) } : null);
    const budgets = new StrategyBudgets(portfolio(1_000_000, { '005930': 70_000, NVDA: 150.01 }), limits);
    // 10 × 91,000 = 910,000, 910,137 with the commission (at the last close, 700,105)
    expect(budgets.shortfall(submit('005930', 10), [])).toBeNull();
    expect(budgets.shortfall(submit('005930', 11), [])).toBe(
      "the buy needs 1,001,151 KRW with its commission, more than the strategy's own cash of 1,000,000 KRW less 0 KRW held by its open buys",
    );
    // 150.01 × 1.05 = 157.5105, 157.52 rounded up to the cent: 6,342 fit with their commission, not
    // 6,343 (at the last price, 150.01, 6,600 would)
    const usd = new StrategyBudgets(portfolio(1_000_000, { NVDA: 150.01 }), limits);
    expect(usd.shortfall(submit('NVDA', 6_342), [])).toBeNull();
    expect(usd.shortfall(submit('NVDA', 6_343), [])).toContain('needs 1,000,148.51 USD');
  });

  it('holds a KR market buy at its last price while the day’s limits are not known, and refuses one with no price', () => {
    const budgets = new StrategyBudgets(portfolio(700_105, { '005930': 70_000 }));
    expect(budgets.shortfall(submit('005930', 10), [])).toBeNull();
    expect(budgets.shortfall(submit('005930', 11), [])).toContain('needs 770,116 KRW');
    expect(budgets.shortfall(submit('000660', 1), [])).toContain('no price of 000660 is known yet');
  });

  it('values a market buy of a symbol the portfolio has no price of at the last one read from the broker', () => {
    // a buy in onStart, before any bar: the risk module's market view read 005930 at 70,000
    const budgets = new StrategyBudgets(portfolio(700_105, {}), undefined, (symbol) =>
      symbol === '005930' ? d(70_000) : undefined,
    );
    expect(budgets.shortfall(submit('005930', 10), [])).toBeNull();
    expect(budgets.shortfall(submit('005930', 11), [])).toContain('needs 770,116 KRW');
    expect(budgets.shortfall(submit('000660', 1), [])).toContain('no price of 000660 is known yet');
  });
});
