import { type Bar, Decimal, instrumentOf, SecurityType } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { BarFillModel, krPriceLimits } from './bar-fill-model.js';
import {
  AT_0901,
  expectRowFills,
  type FillRow,
  kr,
  kst,
  limit,
  type More,
  market,
  order,
  US_1000,
  us,
} from './bar-fill-model.test-helper.js';
import type { FillableOrder } from './fill-model.js';

/** Before the KR open of 2026-11-23 (its opening auction). */
const AT_0845 = kst('2026-11-23T08:45:00');
/** An AAPL limit order at the close (CLS), accepted at 10:00 New York unless `acceptedAt` says otherwise. */
const cls = (side: 'BUY' | 'SELL', price: string, quantity: string, acceptedAt = US_1000): FillableOrder =>
  limit(side, price, quantity, { symbol: 'AAPL', tif: 'CLS', acceptedAt });
/** An AAPL market buy of `amount` dollars, accepted at 10:00 New York. */
const amountBuy = (amount: string, more: More = {}): FillableOrder =>
  order({ symbol: 'AAPL', side: 'BUY', type: 'MARKET', amount, ...more });

/** The 09:02 KST bar the most rows fill on: open 72,100, volume 5,000. */
const BAR_0902 = kr('09:02', 72100, 72400, 71900, 72300, 5000);
/** The 09:01 KST candle holding the opening auction: open 71,000. */
const AUCTION = kr('09:01', 71000, 71500, 70500, 71200, 80_000);
/** The AAPL bar of 10:01 New York (EST), o/h/l/c/v. */
const us1001 = (o: number, h: number, l: number, c: number, v: number): Bar =>
  us('2026-11-23T10:01:00-05:00', o, h, l, c, v);
const uncapped = new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY });

const rows: FillRow[] = [
  // market orders
  {
    name: 'market buy fills at the next bar open',
    order: market('BUY', '10'),
    bar: BAR_0902,
    expected: ['10', '72100'],
  },
  {
    name: 'market sell fills at the next bar open',
    order: market('SELL', '10'),
    bar: BAR_0902,
    expected: ['10', '72100'],
  },
  {
    name: 'no fill on the bar that closed when the order was accepted',
    order: market('BUY', '10'),
    bar: kr('09:01', 72100, 72400, 71900, 72300, 5000),
    expected: null,
  },
  {
    name: 'no fill on a bar that closed before the order was accepted',
    order: market('BUY', '10', { acceptedAt: AT_0901 + 30_000 }),
    bar: kr('09:01', 72100, 72400, 71900, 72300, 5000),
    expected: null,
  },
  // limits
  {
    name: 'limit buy: the bar gaps down through the limit, fills at the open',
    order: limit('BUY', '72000', '10'),
    bar: kr('09:02', 71500, 71800, 71000, 71700, 5000),
    expected: ['10', '71500'],
  },
  {
    name: 'limit buy: the low touches the limit exactly, fills at the limit',
    order: limit('BUY', '72000', '10'),
    bar: kr('09:02', 72300, 72400, 72000, 72200, 5000),
    expected: ['10', '72000'],
  },
  {
    name: 'limit buy: the low stays one tick above the limit, no fill',
    order: limit('BUY', '72000', '10'),
    bar: kr('09:02', 72300, 72400, 72100, 72200, 5000),
    expected: null,
  },
  {
    name: 'limit sell: the bar gaps up through the limit, fills at the open',
    order: limit('SELL', '72000', '10'),
    bar: kr('09:02', 72500, 72600, 72400, 72500, 5000),
    expected: ['10', '72500'],
  },
  {
    name: 'limit sell: the high touches the limit exactly, fills at the limit',
    order: limit('SELL', '72000', '10'),
    bar: kr('09:02', 71800, 72000, 71700, 71900, 5000),
    expected: ['10', '72000'],
  },
  {
    name: 'limit sell: the high stays below the limit, no fill',
    order: limit('SELL', '72000', '10'),
    bar: kr('09:02', 71800, 71900, 71700, 71900, 5000),
    expected: null,
  },
  // volume caps (default 10 % of the bar's volume)
  {
    name: 'volume cap: 10 % of 300 shares fills 30 of 100',
    order: market('BUY', '100'),
    bar: kr('09:02', 72100, 72400, 71900, 72300, 300),
    model: new BarFillModel(),
    expected: ['30', '72100'],
  },
  {
    name: 'volume cap: the remaining 70 fill on a later bar with room for 100',
    order: market('BUY', '100', { filledQuantity: '30' }),
    bar: kr('09:03', 72200, 72400, 71900, 72300, 1000),
    model: new BarFillModel(),
    expected: ['70', '72200'],
  },
  {
    name: 'volume cap: a fraction of 0.25 of 45 shares rounds down to 11 whole shares',
    order: limit('SELL', '72000', '50'),
    bar: kr('09:02', 72100, 72400, 71900, 72300, 45),
    model: new BarFillModel({ volumeFraction: 0.25 }),
    expected: ['11', '72100'],
  },
  {
    name: 'volume cap: a KR minute without trades (volume 0) fills nothing',
    order: market('BUY', '10'),
    bar: kr('09:02', 72100, 72100, 72100, 72100, 0),
    model: new BarFillModel(),
    expected: null,
  },
  {
    name: 'volume cap: a cap below one share fills nothing',
    order: market('BUY', '10'),
    bar: kr('09:02', 72100, 72100, 72100, 72100, 9),
    model: new BarFillModel(),
    expected: null,
  },
  // KR ticks and price limits
  {
    name: 'KR tick: an off-grid open (72,123) rounds up for a buy (tick 100)',
    order: market('BUY', '1'),
    bar: kr('09:02', 72123, 72400, 71900, 72300, 5000),
    expected: ['1', '72200'],
  },
  {
    name: 'KR tick: an off-grid open (72,123) rounds down for a sell (tick 100)',
    order: market('SELL', '1'),
    bar: kr('09:02', 72123, 72400, 71900, 72300, 5000),
    expected: ['1', '72100'],
  },
  {
    name: 'KR tick: 4,997 rounds up to 5,000 for a buy (tick 5 below 5,000)',
    order: market('BUY', '1'),
    bar: kr('09:02', 4997, 5100, 4900, 5000, 5000),
    expected: ['1', '5000'],
  },
  {
    name: 'KR tick: an ETF uses the flat 5-won grid (72,123 → 72,120 for a sell)',
    order: market('SELL', '1', { symbol: '069500' }),
    bar: kr('09:02', 72123, 72400, 71900, 72300, 5000, '069500'),
    model: new BarFillModel({
      volumeFraction: Number.POSITIVE_INFINITY,
      instrument: (s) => instrumentOf(s, SecurityType.ETF),
    }),
    expected: ['1', '72120'],
  },
  {
    name: 'KR price limits: a synthetic open above +30 % of the reference fills at the upper limit',
    order: market('BUY', '1'),
    bar: kr('09:02', 13500, 13500, 12900, 13000, 5000),
    model: new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY, referencePrice: () => 10_000 }),
    expected: ['1', '13000'],
  },
  {
    name: 'KR price limits: a synthetic open below −30 % fills at the lower limit',
    order: market('SELL', '1'),
    bar: kr('09:02', 6500, 7100, 6500, 7000, 5000),
    model: new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY, referencePrice: () => 10_000 }),
    expected: ['1', '7000'],
  },
  // the 09:01 candle holds the opening auction
  {
    name: 'opening auction: a market buy placed before the open fills at the 09:01 open (auction price)',
    order: market('BUY', '10', { acceptedAt: AT_0845 }),
    bar: AUCTION,
    expected: ['10', '71000'],
  },
  {
    name: 'opening auction: an order placed at the previous close fills on the 09:01 candle too',
    order: market('SELL', '10', { acceptedAt: kst('2026-11-20T15:31:00') }),
    bar: AUCTION,
    expected: ['10', '71000'],
  },
  {
    name: 'opening auction: a limit buy above the auction price fills at the auction price',
    order: limit('BUY', '71200', '10', { acceptedAt: AT_0845 }),
    bar: AUCTION,
    expected: ['10', '71000'],
  },
  {
    name: 'opening auction: a limit buy below the auction price fills at its limit when the minute reaches it',
    order: limit('BUY', '70800', '10', { acceptedAt: AT_0845 }),
    bar: AUCTION,
    expected: ['10', '70800'],
  },
  // CLS (US limit at the close)
  {
    name: 'CLS: fills at the close of the 16:00 New York minute bar',
    order: cls('BUY', '190', '3'),
    bar: us('2026-11-23T16:00:00-05:00', 189.9, 190.2, 189.4, 189.5, 20_000),
    expected: ['3', '189.5'],
  },
  {
    name: 'CLS: a minute bar before the close fills nothing',
    order: cls('BUY', '190', '3'),
    bar: us('2026-11-23T15:59:00-05:00', 189.9, 190.2, 189.4, 189.5, 20_000),
    expected: null,
  },
  {
    name: 'CLS: a close above a buy limit fills nothing',
    order: cls('BUY', '190', '3'),
    bar: us('2026-11-23T16:00:00-05:00', 189.9, 190.4, 189.4, 190.01, 20_000),
    expected: null,
  },
  {
    name: 'CLS: the 16:00 close in summer time (EDT)',
    order: cls('SELL', '180', '2', Date.parse('2026-07-01T10:00:00-04:00')),
    bar: us('2026-07-01T16:00:00-04:00', 181, 181.5, 180.5, 181.25, 20_000),
    expected: ['2', '181.25'],
  },
  {
    name: 'CLS: on an early close (the day after Thanksgiving) fills at the 13:00 New York minute bar',
    order: cls('BUY', '190', '3', Date.parse('2026-11-27T10:00:00-05:00')),
    bar: us('2026-11-27T13:00:00-05:00', 189.9, 190.2, 189.4, 189.5, 20_000),
    expected: ['3', '189.5'],
  },
  {
    name: 'CLS: on an early close the 16:00 bar is an after-market bar and fills nothing',
    order: cls('BUY', '190', '3', Date.parse('2026-11-27T10:00:00-05:00')),
    bar: us('2026-11-27T16:00:00-05:00', 189.9, 190.2, 189.4, 189.5, 20_000),
    expected: null,
  },
  // US amounts and ticks
  {
    name: 'amount order: $1,000 at an open of $250 buys 4 shares',
    order: amountBuy('1000'),
    bar: us1001(250, 251, 249, 250.5, 10_000),
    expected: ['4', '250'],
  },
  {
    name: 'amount order: $1,000 at $300 buys 3.333333 shares (6 places, truncated)',
    order: amountBuy('1000'),
    bar: us1001(300, 301, 299, 300.5, 10_000),
    expected: ['3.333333', '300'],
  },
  {
    name: 'amount order: what is left of the amount ($500 of $1,000) buys 2 shares at $250',
    order: amountBuy('1000', { filledAmount: '500' }),
    bar: us1001(250, 251, 249, 250.5, 10_000),
    expected: ['2', '250'],
  },
  {
    name: 'amount order: capped to 2 whole shares by 10 % of a 25-share bar',
    order: amountBuy('1000'),
    bar: us1001(250, 251, 249, 250.5, 25),
    model: new BarFillModel(),
    expected: ['2', '250'],
  },
  {
    name: 'US tick: a sub-dollar open of 0.12345 rounds up to 0.1235 for a buy',
    order: market('BUY', '100', { symbol: 'AAPL' }),
    bar: us1001(0.12345, 0.13, 0.12, 0.125, 100_000),
    expected: ['100', '0.1235'],
  },
  {
    name: 'US fractional market sell of 0.5 share fills whole at the open',
    order: market('SELL', '0.5', { symbol: 'AAPL' }),
    bar: us1001(250.07, 251, 249, 250.5, 10),
    model: new BarFillModel(),
    expected: ['0.5', '250.07'],
  },
];

describe('BarFillModel', () => {
  describe('.match', () => {
    it.each(rows)('$name', (row) => expectRowFills(row, uncapped));

    it('fills nothing from a bar that has not closed yet at the given time', () => {
      const bar = BAR_0902;
      const o = market('BUY', '10');
      expect(uncapped.match(o, bar, bar.closeTime - 1)).toEqual([]);
      expect(uncapped.match(o, bar, bar.closeTime)).toHaveLength(1);
    });

    it('fills nothing from another symbol’s bar', () => {
      const o = market('BUY', '10');
      const bar = kr('09:02', 72100, 72400, 71900, 72300, 5000, '000660');
      expect(uncapped.match(o, bar, bar.closeTime)).toEqual([]);
    });

    it('fills a daily bar at its open after an order placed at the previous close, CLS at its close', () => {
      const ts = kst('2026-11-23T00:00:00');
      const bar: Bar = {
        symbol: 'AAPL',
        interval: '1d',
        ts,
        closeTime: Date.parse('2026-11-23T16:00:00-05:00'),
        open: 190,
        high: 193,
        low: 188,
        close: 192.5,
        volume: 50_000_000,
      };
      const acceptedAt = Date.parse('2026-11-20T16:00:00-05:00');
      const buy = market('BUY', '5', { symbol: 'AAPL', acceptedAt });
      const sellAtClose = cls('SELL', '192', '5', acceptedAt);
      const model = new BarFillModel();
      expect(model.match(buy, bar, bar.closeTime).map((s) => s.price.toFixed())).toEqual(['190']);
      expect(model.match(sellAtClose, bar, bar.closeTime).map((s) => s.price.toFixed())).toEqual(['192.5']);
    });

    it('carries what remains over consecutive bars until the order is filled', () => {
      const model = new BarFillModel({ volumeFraction: 0.1 });
      let filled = new Decimal(0);
      const fills: string[] = [];
      const bars = [
        kr('09:02', 72100, 72200, 72000, 72100, 400),
        kr('09:03', 72200, 72300, 72100, 72200, 0),
        kr('09:04', 72300, 72300, 72200, 72300, 2000),
      ];
      for (const bar of bars) {
        const o = market('BUY', '100', { filledQuantity: filled.toFixed() });
        for (const s of model.match(o, bar, bar.closeTime)) {
          filled = filled.plus(s.quantity);
          fills.push(`${s.quantity.toFixed()}@${s.price.toFixed()}`);
        }
      }
      expect(fills).toEqual(['40@72100', '60@72300']);
      expect(filled.toFixed()).toBe('100');
    });

    it('prices a symbol whose bars cross tick bands up and down as a fresh model prices each bar', () => {
      // opens around the 20,000 / 50,000 / 200,000 won band edges, on and off their grids
      const opens = [
        19_990, 20_000, 20_010, 19_995, 49_990, 50_000, 50_050, 50_020, 49_995, 20_005, 199_900, 200_050,
      ];
      const model = new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY });
      for (const side of ['BUY', 'SELL'] as const) {
        for (const open of opens) {
          const bar = kr('09:02', open, open + 100, open - 100, open, 1000);
          const o = market(side, '1');
          const fresh = new BarFillModel({ volumeFraction: Number.POSITIVE_INFINITY }).match(
            o,
            bar,
            bar.closeTime,
          );
          expect(model.match(o, bar, bar.closeTime).map((x) => x.price.toFixed())).toEqual(
            fresh.map((x) => x.price.toFixed()),
          );
        }
      }
      // 20,010 is off the 50-won grid of 20,000 and up: a buy pays 20,050, a sell gets 20,000
      const bar = kr('09:02', 20_010, 20_100, 19_900, 20_010, 1000);
      const prices = (['BUY', 'SELL'] as const).map((side) =>
        model.match(market(side, '1'), bar, bar.closeTime).map((x) => x.price.toFixed()),
      );
      expect(prices).toEqual([['20050'], ['20000']]);
    });

    it('refuses a volume fraction that is not positive', () => {
      expect(() => new BarFillModel({ volumeFraction: 0 })).toThrow(/volumeFraction/);
    });
  });
});

describe('krPriceLimits', () => {
  it.each([
    ['10000', '13000', '7000'],
    ['72100', '93700', '50500'],
    ['1999', '2595', '1400'],
  ])('reference %s gives upper %s and lower %s', (ref, upper, lower) => {
    const limits = krPriceLimits(instrumentOf('005930'), new Decimal(ref));
    expect([limits.upper.toFixed(), limits.lower.toFixed()]).toEqual([upper, lower]);
  });
});
