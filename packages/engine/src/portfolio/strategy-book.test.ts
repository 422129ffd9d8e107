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
  it("counts what a sell of the account's shares past the position brought in, apart from its gain", () => {
    const book = new StrategyBook({ KRW: new Decimal(1_000_000), USD: new Decimal(100) });
    // nothing held: the whole sell is the account's shares
    book.apply(fill('SELL', '5', '65700', '49', '492'), 'KRW');
    expect(book.brought('KRW').toFixed()).toBe('328500');
    expect(book.broughtKrw).toBe(328_500);
    // 2 held, 3 sold: 1 of them the account's
    book.apply(fill('BUY', '2', '65000', '19'), 'KRW');
    book.apply(fill('SELL', '3', '66000', '29', '297'), 'KRW');
    expect(book.brought('KRW').toFixed()).toBe(String(328_500 + 66_000));
    expect(book.totals('KRW').realizedPnl.toFixed()).toBe('2000');
    expect(book.position('005930')).toBeUndefined();
    // USD alike
    book.apply(fill('SELL', '0.5', '231.5', '0.12', '0', 'USD'), 'USD');
    expect(book.brought('USD').toFixed()).toBe('115.75');
    expect(book.broughtUsd).toBe(115.75);
    // the cash holds the proceeds all the same
    expect(book.cash('KRW').toFixed()).toBe(String(1_000_000 + 328_500 - 541 - 130_019 + 198_000 - 326));
  });

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

  it('realizes what the cash moved by over a round trip, the average rounded to 4 places or not', () => {
    // before: 100 @ 10.01 and 200 @ 10.02 average 10.0167 (10.01666…), and the sale of the 300 at
    // 10.00 realized 3,000.00 − 300 × 10.0167 = −5.01, where the cash had moved by −5.00 (before
    // charges): the average's rounding leaked into the realized PnL
    const book = new StrategyBook({ USD: new Decimal(10_000) });
    book.apply(fill('BUY', '100', '10.01', '1.00', '0', 'USD'), 'USD');
    book.apply(fill('BUY', '200', '10.02', '2.00', '0', 'USD'), 'USD');
    expect(book.position('AAPL')?.averagePrice.toFixed()).toBe('10.0167');
    book.apply(fill('SELL', '300', '10', '3.00', '0', 'USD'), 'USD');
    expect(book.totals('USD').realizedPnl.toFixed(2)).toBe('-5.00');
    expect(book.cash('USD').toFixed()).toBe(String(10_000 - 5 - 6));
  });

  it('realizes a partial sale at the average price and the rest of the cost on the sale that closes', () => {
    const book = new StrategyBook({ KRW: new Decimal(10_000_000) });
    book.apply(fill('BUY', '10', '70000', '105'), 'KRW');
    book.apply(fill('BUY', '5', '71000', '53'), 'KRW');
    // 1,055,000 / 15 = 70,333.3333…
    expect(book.position('005930')?.averagePrice.toFixed()).toBe('70333.3333');
    book.apply(fill('SELL', '4', '72000', '43', '432'), 'KRW');
    // 288,000 − 4 × 70,333.3333
    expect(book.position('005930')?.realizedPnl.toFixed()).toBe('6666.6668');
    book.apply(fill('SELL', '11', '69000', '113', '1138'), 'KRW');
    // sold 1,047,000 for 1,055,000: −8,000 (before: −7,999.9995)
    const totals = book.totals('KRW');
    expect(totals.realizedPnl.toFixed()).toBe('-8000');
    expect(book.cash('KRW').toFixed()).toBe(
      new Decimal(10_000_000)
        .plus(totals.realizedPnl)
        .minus(totals.commissions)
        .minus(totals.taxes)
        .toFixed(),
    );
    // opened again: the average starts afresh, the realized PnL goes on from the symbol's
    book.apply(fill('BUY', '2', '50000', '15'), 'KRW');
    expect(book.position('005930')?.averagePrice.toFixed()).toBe('50000');
    expect(book.position('005930')?.realizedPnl.toFixed()).toBe('-8000');
  });

  it('values an open position at what it cost: realized + unrealized − charges is what the equity moved by', () => {
    // before: 300 held at 10.0167 and marked at 10.02 counted 300 × 0.0033 = 0.99 unrealized, where
    // the shares bought for 3,005.00 were worth 3,006.00
    const book = new StrategyBook({ USD: new Decimal(10_000) });
    book.apply(fill('BUY', '100', '10.01', '1.00', '0', 'USD'), 'USD');
    book.apply(fill('BUY', '200', '10.02', '2.00', '0', 'USD'), 'USD');
    expect(book.unrealizedPnl('USD', () => 10.02).toFixed(2)).toBe('1.00');
    book.apply(fill('SELL', '100', '10.05', '1.01', '0', 'USD'), 'USD');
    const t = book.totals('USD');
    const unrealized = book.unrealizedPnl('USD', () => 10.02);
    const moved = book.cash('USD').plus(new Decimal('10.02').times(200)).minus(10_000);
    expect(t.realizedPnl.plus(unrealized).minus(t.commissions).toFixed()).toBe(moved.toFixed());
  });
});
