import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import {
  BookFillModel,
  type BookLevel,
  fillableQuantity,
  isFillComplete,
  type OrderBook,
} from './book-fill-model.js';
import type { FillableOrder } from './fill-model.js';

const d = (text: string | number) => new Decimal(text);
const NOW = Date.parse('2026-11-23T01:00:00Z');

/** Levels from `[price, volume]` pairs. */
const levels = (...rows: [string, string][]): BookLevel[] =>
  rows.map(([price, volume]) => ({ price: d(price), volume: d(volume) }));

function order(over: Partial<FillableOrder> = {}): FillableOrder {
  return Object.freeze({
    symbol: '005930',
    currency: 'KRW',
    side: 'BUY',
    orderType: 'MARKET',
    timeInForce: 'DAY',
    price: null,
    quantity: d(10),
    orderAmount: null,
    filledQuantity: d(0),
    filledAmount: d(0),
    acceptedAt: NOW - 1_000,
    ...over,
  } as FillableOrder);
}

/** Slices as `[quantity, price, source]` strings, for compact expectations. */
const run = (o: FillableOrder, book: OrderBook, limits = {}) =>
  new BookFillModel()
    .match(o, book, NOW, limits)
    .map((s) => [s.quantity.toFixed(), s.price.toFixed(), s.source, s.time === NOW ? 'now' : s.time]);

const KR_ASKS = levels(['70000', '100'], ['70100', '100'], ['70200', '100']);
const KR_BIDS = levels(['69900', '50'], ['69800', '50'], ['69700', '100']);
const KR_BOOK: OrderBook = { asks: KR_ASKS, bids: KR_BIDS };

describe('BookFillModel', () => {
  describe('.match', () => {
    it.each([
      {
        name: 'a market buy walks several ask levels until it is complete',
        o: order({ quantity: d(250) }),
        book: KR_BOOK,
        slices: [
          ['100', '70000', 'book', 'now'],
          ['100', '70100', 'book', 'now'],
          ['50', '70200', 'book', 'now'],
        ],
      },
      {
        name: 'a limit buy stops mid-book at the first level beyond its limit (KR ticks)',
        o: order({ orderType: 'LIMIT', price: d(70100), quantity: d(250) }),
        book: KR_BOOK,
        slices: [
          ['100', '70000', 'book', 'now'],
          ['100', '70100', 'book', 'now'],
        ],
      },
      {
        name: 'a limit sell walks the bids down to its limit',
        o: order({ side: 'SELL', orderType: 'LIMIT', price: d(69800), quantity: d(150) }),
        book: KR_BOOK,
        slices: [
          ['50', '69900', 'book', 'now'],
          ['50', '69800', 'book', 'now'],
        ],
      },
      {
        name: 'a market buy larger than the book fills partly (every level, nothing more)',
        o: order({ quantity: d(1000) }),
        book: KR_BOOK,
        slices: [
          ['100', '70000', 'book', 'now'],
          ['100', '70100', 'book', 'now'],
          ['100', '70200', 'book', 'now'],
        ],
      },
      {
        name: 'a partly filled order fills only its remainder',
        o: order({ quantity: d(130), filledQuantity: d(60), filledAmount: d(4_200_000) }),
        book: KR_BOOK,
        slices: [['70', '70000', 'book', 'now']],
      },
      {
        name: 'a limit below the best ask does not trade without a last price',
        o: order({ orderType: 'LIMIT', price: d(69950) }),
        book: KR_BOOK,
        slices: [],
      },
      {
        name: 'a market order against an empty side does not trade',
        o: order(),
        book: { asks: [], bids: KR_BIDS },
        slices: [],
      },
      {
        name: 'a whole-share order takes whole shares of a level with a fractional volume',
        o: order({ symbol: 'AAPL', currency: 'USD', quantity: d(5) }),
        book: { asks: levels(['150.25', '2.7'], ['150.30', '10']), bids: [] },
        slices: [
          ['2', '150.25', 'book', 'now'],
          ['3', '150.3', 'book', 'now'],
        ],
      },
      {
        name: 'a fractional sell takes fractions to 1e-6 share',
        o: order({ symbol: 'NVDA', currency: 'USD', side: 'SELL', quantity: d('5.5') }),
        book: { asks: [], bids: levels(['120.10', '2.7'], ['120.00', '10']) },
        slices: [
          ['2.7', '120.1', 'book', 'now'],
          ['2.8', '120', 'book', 'now'],
        ],
      },
      {
        name: 'a US amount buy spends up to its amount across levels (fractional shares)',
        o: order({ symbol: 'AAPL', currency: 'USD', quantity: null, orderAmount: d(1000) }),
        book: { asks: levels(['200', '2'], ['250', '10']), bids: [] },
        // 2 × 200 = 400, then 600 / 250 = 2.4 shares
        slices: [
          ['2', '200', 'book', 'now'],
          ['2.4', '250', 'book', 'now'],
        ],
      },
      {
        name: 'a US amount buy truncates the last slice to 1e-6 share and then counts as complete',
        o: order({ symbol: 'AAPL', currency: 'USD', quantity: null, orderAmount: d(100) }),
        book: { asks: levels(['30', '1.5'], ['31', '10'], ['32', '10']), bids: [] },
        // 45 spent at 30; 55 / 31 = 1.774193… → 1.774193 (54.999983 → 55.00): nothing left for 32
        slices: [
          ['1.5', '30', 'book', 'now'],
          ['1.774193', '31', 'book', 'now'],
        ],
      },
      {
        name: 'an amount order capped by the book spends what the book offers',
        o: order({ symbol: 'AAPL', currency: 'USD', quantity: null, orderAmount: d(10_000) }),
        book: { asks: levels(['200', '2'], ['250', '1']), bids: [] },
        slices: [
          ['2', '200', 'book', 'now'],
          ['1', '250', 'book', 'now'],
        ],
      },
    ])('$name', ({ o, book, slices }) => {
      expect(run(o, book)).toEqual(slices);
    });

    it.each([
      {
        name: 'a resting buy limit fills at its limit when the last price crosses it, up to the best ask volume',
        o: order({ orderType: 'LIMIT', price: d(69950), quantity: d(500) }),
        book: { ...KR_BOOK, lastPrice: d(69900) },
        limits: {},
        slices: [['100', '69950', 'cross', 'now']],
      },
      {
        name: 'a last price exactly at the limit crosses it',
        o: order({ orderType: 'LIMIT', price: d(69950), quantity: d(5) }),
        book: { ...KR_BOOK, lastPrice: d(69950) },
        limits: {},
        slices: [['5', '69950', 'cross', 'now']],
      },
      {
        name: 'a last price above a buy limit does not cross it',
        o: order({ orderType: 'LIMIT', price: d(69950), quantity: d(5) }),
        book: { ...KR_BOOK, lastPrice: d(70000) },
        limits: {},
        slices: [],
      },
      {
        name: 'a resting sell limit crossed by the last price fills at its limit',
        o: order({ side: 'SELL', orderType: 'LIMIT', price: d(69950), quantity: d(5) }),
        book: { ...KR_BOOK, lastPrice: d(70000) },
        limits: {},
        slices: [['5', '69950', 'cross', 'now']],
      },
      {
        name: 'the cross pool a caller passes caps the crossed fill',
        o: order({ orderType: 'LIMIT', price: d(69950), quantity: d(500) }),
        book: { ...KR_BOOK, lastPrice: d(69900) },
        limits: { crossVolume: d(30) },
        slices: [['30', '69950', 'cross', 'now']],
      },
      {
        name: 'a limit that traded in the book does not also cross',
        o: order({ orderType: 'LIMIT', price: d(70000), quantity: d(500) }),
        book: { ...KR_BOOK, lastPrice: d(69000) },
        limits: {},
        slices: [['100', '70000', 'book', 'now']],
      },
      {
        name: 'a limit the book reaches does not cross when the levels it reaches are used up',
        o: order({ orderType: 'LIMIT', price: d(70000), quantity: d(500) }),
        book: { asks: levels(['70000', '0'], ['70100', '100']), bids: [], lastPrice: d(69000) },
        limits: { crossVolume: d(50) },
        slices: [],
      },
      {
        name: 'a market order never crosses',
        o: order({ quantity: d(5) }),
        book: { asks: [], bids: [], lastPrice: d(1) },
        limits: {},
        slices: [],
      },
    ])('$name', ({ o, book, limits, slices }) => {
      expect(run(o, book, limits)).toEqual(slices);
    });

    it.each([
      {
        name: 'a buy fills only what the cash pays for, price plus commission',
        // 70000 × 1.00015 = 70010.5 a share: 5,000,000 pays for 71; 29,255 left is short of one at 70100
        o: order({ quantity: d(250) }),
        limits: { cash: d(5_000_000) },
        slices: [['71', '70000', 'book', 'now']],
      },
      {
        name: 'the cash left after one level buys into the next',
        // 100 at 70000 cost 7,000,000 + 1,050; 2,998,950 left / 70110.515 a share = 42 at 70100
        o: order({ quantity: d(250) }),
        limits: { cash: d(10_000_000) },
        slices: [
          ['100', '70000', 'book', 'now'],
          ['42', '70100', 'book', 'now'],
        ],
      },
      {
        name: 'a sell fills no more than the shares held',
        o: order({ side: 'SELL', quantity: d(100) }),
        limits: { shares: d(70) },
        slices: [
          ['50', '69900', 'book', 'now'],
          ['20', '69800', 'book', 'now'],
        ],
      },
      {
        name: 'no cash, no fill',
        o: order(),
        limits: { cash: d(0) },
        slices: [],
      },
    ])('$name', ({ o, limits, slices }) => {
      expect(run(o, KR_BOOK, limits)).toEqual(slices);
    });

    it.each([
      // 42 at 70100 book 2,944,200 + 441 commission = 2,944,641, but affordability counts the
      // commission unrounded (42 × 70110.515 = 2,944,641.63): one won more is needed
      ['2944641', '41'],
      ['2944642', '42'],
    ])(
      'counts the commission unrounded when %s won is left for the next level: %s shares',
      (left, shares) => {
        const book = { asks: levels(['70000', '100'], ['70100', '100']), bids: [] };
        const slices = run(order({ quantity: d(250) }), book, { cash: d(7_001_050).plus(left) });
        expect(slices).toEqual([
          ['100', '70000', 'book', 'now'],
          [shares, '70100', 'book', 'now'],
        ]);
      },
    );

    it('never changes the order it is given', () => {
      const o = order({ quantity: d(250) });
      const before = JSON.stringify(o);
      new BookFillModel().match(o, KR_BOOK, NOW);
      expect(JSON.stringify(o)).toBe(before);
      expect(Object.isFrozen(o)).toBe(true);
    });
  });
});

describe('fillableQuantity', () => {
  it.each([
    ['nothing when no volume is available', order(), '70000', '0', '0'],
    [
      'the remainder of a quantity order',
      order({ quantity: d(10), filledQuantity: d(4) }),
      '70000',
      '100',
      '6',
    ],
    ['the visible volume when it is smaller', order({ quantity: d(10) }), '70000', '3', '3'],
  ] as const)('gives %s', (_name, o, price, available, expected) => {
    const progress = { filledQuantity: o.filledQuantity, filledAmount: o.filledAmount };
    expect(fillableQuantity(o, d(price), d(available), progress).toFixed()).toBe(expected);
  });
});

describe('isFillComplete', () => {
  it.each([
    [{ orderAmount: null, quantity: d(10) }, '10', '0', '1', true],
    [{ orderAmount: null, quantity: d(10) }, '9', '0', '1', false],
    // an amount order is complete when less is left than one 1e-6 share costs
    [{ orderAmount: d(100), quantity: null }, '0', '99.99', '200', false],
    [{ orderAmount: d(100), quantity: null }, '0', '99.9999', '200', true],
  ] as const)('%o with %s filled for %s at %s → %s', (o, quantity, amount, price, complete) => {
    expect(isFillComplete(o, d(quantity), d(amount), d(price))).toBe(complete);
  });
});
