import { Decimal, type OrderSide } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { BookLevel, OrderBook } from './book-fill-model.js';
import { BookMatcher } from './book-matcher.js';
import type { FillableOrder } from './fill-model.js';

const d = (text: string | number) => new Decimal(text);
const NOW = Date.parse('2026-11-23T15:00:00Z');

const levels = (...rows: [string, string][]): BookLevel[] =>
  rows.map(([price, volume]) => ({ price: d(price), volume: d(volume) }));

/** A ZOM order (a thin sub-dollar book): a market buy of `quantity` unless told otherwise. */
function order(quantity: number, over: Partial<FillableOrder> = {}): FillableOrder {
  return {
    symbol: 'ZOM',
    currency: 'USD',
    side: 'BUY' as OrderSide,
    orderType: 'MARKET',
    timeInForce: 'DAY',
    price: null,
    quantity: d(quantity),
    orderAmount: null,
    filledQuantity: d(0),
    filledAmount: d(0),
    acceptedAt: NOW - 1_000,
    ...over,
  } as FillableOrder;
}

const limit = (quantity: number, price: string, side: OrderSide = 'BUY') =>
  order(quantity, { orderType: 'LIMIT', price: d(price), side });

const BOOK: OrderBook = {
  asks: levels(['0.146', '4000'], ['0.1461', '1000'], ['0.1462', '2000']),
  bids: levels(['0.1459', '3000'], ['0.1458', '3000']),
};

/** Slices as `quantity @ price source` strings. */
const fills = (m: BookMatcher, o: FillableOrder, book: OrderBook) =>
  m.match(o, book, NOW).map((s) => `${s.quantity.toFixed()} @ ${s.price.toFixed()} ${s.source}`);

describe(BookMatcher, () => {
  describe('.match', () => {
    it('lets two orders matched on one book share its levels: the second gets only what the first left', () => {
      const m = new BookMatcher();
      expect(fills(m, order(4500), BOOK)).toEqual(['4000 @ 0.146 book', '500 @ 0.1461 book']);
      expect(fills(m, limit(5000, '0.1462'), BOOK)).toEqual(['500 @ 0.1461 book', '2000 @ 0.1462 book']);
      expect(fills(m, order(1), BOOK)).toEqual([]);
    });

    it('gives an order matched again on the unchanged book nothing more (a poll that saw no new book)', () => {
      const m = new BookMatcher();
      const o = limit(10_000, '0.146');
      expect(fills(m, o, BOOK)).toEqual(['4000 @ 0.146 book']);
      const partly = { ...o, filledQuantity: d(4000), filledAmount: d(584) };
      expect(fills(m, partly, BOOK)).toEqual([]);
      expect(fills(m, partly, { ...BOOK, asks: levels(['0.146', '4000'], ['0.1461', '1000']) })).toEqual([]);
    });

    it('counts a level whose volume changed, or that left the book and came back, as new and whole; one shown unchanged stays taken', () => {
      const m = new BookMatcher();
      expect(fills(m, order(5000), BOOK)).toEqual(['4000 @ 0.146 book', '1000 @ 0.1461 book']);
      const redrawn = { ...BOOK, asks: levels(['0.146', '3500'], ['0.1461', '1000'], ['0.1462', '2000']) };
      expect(fills(m, order(4000), redrawn)).toEqual(['3500 @ 0.146 book', '500 @ 0.1462 book']);
      const moved = { ...BOOK, asks: levels(['0.1461', '1000'], ['0.1462', '2000']) };
      expect(fills(m, order(1), moved)).toEqual(['1 @ 0.1462 book']);
      // 0.146 is back and whole; 0.1461 showed 1000 all along, so it stays used up
      expect(fills(m, order(5000), BOOK)).toEqual(['4000 @ 0.146 book', '1000 @ 0.1462 book']);
    });

    it('keeps the two sides and the symbols apart', () => {
      const m = new BookMatcher();
      expect(fills(m, order(7000), BOOK)).toHaveLength(3);
      expect(fills(m, order(100, { side: 'SELL' }), BOOK)).toEqual(['100 @ 0.1459 book']);
      expect(fills(m, order(100, { symbol: 'AAPL' }), BOOK)).toEqual(['100 @ 0.146 book']);
    });

    it('takes the cross pool of resting limits once per book, and never from a limit the book reaches', () => {
      const m = new BookMatcher();
      const crossed = { ...BOOK, lastPrice: d('0.1458') };
      // below the book, the last price at the limit: the cross pool is the best ask's volume
      expect(fills(m, limit(3000, '0.1458'), crossed)).toEqual(['3000 @ 0.1458 cross']);
      expect(fills(m, limit(3000, '0.1458'), crossed)).toEqual(['1000 @ 0.1458 cross']);
      expect(fills(m, limit(3000, '0.1458'), crossed)).toEqual([]);
      // a limit at the best ask takes the book, and once that level is used up nothing else
      expect(fills(m, limit(5000, '0.146'), crossed)).toEqual(['4000 @ 0.146 book']);
      expect(fills(m, limit(5000, '0.146'), crossed)).toEqual([]);
    });
  });
});
