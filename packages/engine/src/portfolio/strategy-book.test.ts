import { type BrokerOrderId, type ClientOrderId, Decimal, type Fill, Money } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { MarkBook } from './mark-book.js';
import { StrategyBook } from './strategy-book.js';

function fill(
  side: 'BUY' | 'SELL',
  quantity: string,
  price: string,
  commission: string,
  tax = '0',
  currency: 'KRW' | 'USD' = 'KRW',
): Fill {
  return {
    fillId: 'f',
    clientOrderId: 'c' as ClientOrderId,
    brokerOrderId: 'b' as BrokerOrderId,
    symbol: currency === 'KRW' ? '005930' : 'AAPL',
    side,
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    commission: Money.of(commission, currency),
    tax: Money.of(tax, currency),
    cumulativeQuantity: new Decimal(quantity),
    tsEvent: 0,
  };
}

describe('StrategyBook', () => {
  it('keeps the average price as the broker rounds holdings (4 places, commission excluded)', () => {
    const book = new StrategyBook({ USD: new Decimal(10_000) });
    book.apply(fill('BUY', '3', '100.01', '0.30', '0', 'USD'), 'USD');
    book.apply(fill('BUY', '4', '100.02', '0.40', '0', 'USD'), 'USD');
    // (300.03 + 400.08) / 7 = 100.015714…
    expect(book.position('AAPL')?.averagePrice.toFixed()).toBe('100.0157');
    expect(book.cash('USD').toFixed()).toBe('9299.19');
  });

  it('realizes PnL against the average price on sells and sums commissions and taxes per currency', () => {
    const book = new StrategyBook({ KRW: new Decimal(1_000_000) });
    book.apply(fill('BUY', '10', '70000', '105'), 'KRW');
    book.apply(fill('SELL', '4', '71000', '42', '426'), 'KRW');
    const totals = book.totals('KRW');
    expect(totals.realizedPnl.toFixed()).toBe('4000');
    expect(totals.commissions.toFixed()).toBe('147');
    expect(totals.taxes.toFixed()).toBe('426');
    expect(book.position('005930')?.quantity.toFixed()).toBe('6');
    expect(book.cash('KRW').toFixed()).toBe(String(1_000_000 - 700_105 + 284_000 - 42 - 426));
    expect(book.unrealizedPnl('KRW', () => 72_000).toFixed()).toBe('12000');
    expect(book.equityKrw(() => 72_000, 1400)).toBe(1_000_000 - 700_105 + 284_000 - 42 - 426 + 6 * 72_000);
  });

  it('is flat again after selling everything', () => {
    const book = new StrategyBook({ KRW: new Decimal(1_000_000) });
    book.apply(fill('BUY', '1', '1000', '0'), 'KRW');
    book.apply(fill('SELL', '1', '1000', '0'), 'KRW');
    expect(book.position('005930')).toBeUndefined();
    expect(book.positions()).toEqual([]);
  });

  it('values its positions at a mark book as at the same marks looked up one by one', () => {
    const book = new StrategyBook({ KRW: new Decimal(1_000_000), USD: new Decimal(10_000) });
    book.apply(fill('BUY', '10', '70000', '105'), 'KRW');
    book.apply(fill('BUY', '3', '100.01', '0.30', '0', 'USD'), 'USD');
    const marks = new MarkBook();
    const both = () => [book.equityKrwAt(marks, 1400), book.equityKrw((s) => marks.get(s), 1400)];
    // no marks yet: both at the average prices
    expect(both()).toEqual([both()[1], 1_000_000 - 700_105 + 700_000 + (10_000 - 300.33 + 300.03) * 1400]);
    marks.set('AAPL', 101.5);
    for (let i = 0; i < 40; i++) marks.set(`S${i}`, i);
    marks.set('005930', 71_000);
    const [atMarks, oneByOne] = both();
    expect(atMarks).toBe(oneByOne);
    expect(atMarks).toBe(1_000_000 - 700_105 + 710_000 + (10_000 - 300.33 + 304.5) * 1400);
  });
});
