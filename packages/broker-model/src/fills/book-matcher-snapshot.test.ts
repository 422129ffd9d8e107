/**
 * {@link BookMatcher.snapshot} and {@link BookMatcher.restore}: what a paper account keeps of the
 * liquidity its fills took, so that a book polled again after a restart is not taken twice.
 */
import { Decimal, type OrderSide } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { BookLevel, OrderBook } from './book-fill-model.js';
import { BookMatcher } from './book-matcher.js';
import type { FillableOrder } from './fill-model.js';

const d = (text: string | number) => new Decimal(text);
const NOW = Date.parse('2026-11-23T15:00:00Z');

const levels = (...rows: [string, string][]): BookLevel[] =>
  rows.map(([price, volume]) => ({ price: d(price), volume: d(volume) }));

const limit = (quantity: number, price: string, side: OrderSide = 'BUY'): FillableOrder =>
  ({
    symbol: 'ZOM',
    currency: 'USD',
    side,
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    price: d(price),
    quantity: d(quantity),
    orderAmount: null,
    filledQuantity: d(0),
    filledAmount: d(0),
    acceptedAt: NOW - 1_000,
  }) as FillableOrder;

const BOOK: OrderBook = {
  asks: levels(['0.146', '4000'], ['0.1461', '1000'], ['0.1462', '2000']),
  bids: levels(['0.1459', '3000'], ['0.1458', '3000']),
};

const fills = (m: BookMatcher, o: FillableOrder, book: OrderBook) =>
  m.match(o, book, NOW).map((s) => `${s.quantity.toFixed()} @ ${s.price.toFixed()} ${s.source}`);

/** A snapshot through JSON, as the store keeps it. */
const stored = (m: BookMatcher): unknown => JSON.parse(JSON.stringify(m.snapshot()));

describe(BookMatcher, () => {
  describe('.snapshot', () => {
    it('keeps only the levels something was taken from, as decimal strings', () => {
      const m = new BookMatcher();
      expect(m.snapshot()).toEqual({});
      fills(m, limit(4500, '0.1461'), BOOK);
      expect(stored(m)).toEqual({
        'ZOM|BUY': {
          levels: [
            ['0.146', '4000', '4000'],
            ['0.1461', '1000', '500'],
          ],
          cross: null,
        },
      });
    });
  });

  describe('.restore', () => {
    it('gives a matcher restored from a snapshot only what the first one left of the same book', () => {
      const first = new BookMatcher();
      expect(fills(first, limit(4500, '0.1461'), BOOK)).toEqual(['4000 @ 0.146 book', '500 @ 0.1461 book']);
      const second = new BookMatcher();
      second.restore(stored(first));
      expect(fills(second, limit(10_000, '0.1462'), BOOK)).toEqual([
        '500 @ 0.1461 book',
        '2000 @ 0.1462 book',
      ]);
      // the other side, and a book shown with other volumes, are whole
      expect(fills(second, limit(100, '0.1459', 'SELL'), BOOK)).toEqual(['100 @ 0.1459 book']);
      const moved = { ...BOOK, asks: levels(['0.146', '3999'], ['0.1461', '1000'], ['0.1462', '2000']) };
      expect(fills(second, limit(1, '0.146'), moved)).toEqual(['1 @ 0.146 book']);
    });

    it('ignores what is not a snapshot: nothing taken', () => {
      for (const saved of [undefined, null, 'x', 5, { 'ZOM|BUY': 7 }]) {
        const m = new BookMatcher();
        m.restore(saved);
        expect(fills(m, limit(4000, '0.146'), BOOK)).toEqual(['4000 @ 0.146 book']);
      }
    });
  });
});
