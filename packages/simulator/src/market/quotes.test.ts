import { Decimal, VirtualClock } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { PriceProcess } from './price-process.js';
import { Quotes } from './quotes.js';
import { SimMarket } from './sim-market.js';
import { UNIVERSE } from './universe.js';

const ms = (iso: string): number => DateTime.fromISO(iso, { setZone: true }).toMillis();

function quotesOf(symbol: string, seed = 7): Quotes {
  const spec = UNIVERSE.find((s) => s.symbol === symbol);
  if (spec === undefined) throw new Error(`no ${symbol}`);
  return new Quotes(new PriceProcess(spec, seed));
}

describe(Quotes, () => {
  describe('.sessionDay', () => {
    it.each([
      ['005930', '2026-11-23T10:00:00+09:00', '2026-11-23'],
      ['005930', '2026-11-21T10:00:00+09:00', '2026-11-23'], // Saturday → Monday
      ['005930', '2026-11-23T23:00:00+09:00', '2026-11-23'],
      ['AAPL', '2026-11-23T10:00:00+09:00', '2026-11-23'], // Sunday 20:00 New York
      ['AAPL', '2026-11-26T12:00:00+09:00', '2026-11-27'], // Thanksgiving → Friday
    ])('of %s at %s is %s', (symbol, at, expected) => {
      const dn = quotesOf(symbol).sessionDay(ms(at));
      expect(new Date(dn * 86_400_000).toISOString().slice(0, 10)).toBe(expected);
    });
  });

  describe('.lastTrade', () => {
    it('is the reference price, stamped at the previous close, before the first trade', () => {
      const q = quotesOf('005930');
      const at = ms('2026-11-23T07:30:00+09:00');
      const last = q.lastTrade(at);
      expect(last.ms).toBe(ms('2026-11-20T15:30:00+09:00'));
      expect(last.price).toEqual(q.process.limits(q.sessionDay(at)).ref);
      expect(last.price).toEqual(q.process.auctionPrice(q.sessionDay(last.ms), 'close'));
    });

    it('is the opening auction right at the open of a stock without NXT', () => {
      const q = quotesOf('069500');
      const last = q.lastTrade(ms('2026-11-23T09:00:00+09:00'));
      expect(last.ms).toBe(ms('2026-11-23T09:00:00+09:00'));
      expect(last.price).toEqual(q.process.auctionPrice(q.sessionDay(last.ms), 'open'));
    });

    it('gives the same answer from a cold and a warm cache', () => {
      const warm = quotesOf('TSLA');
      const at = ms('2026-11-24T01:00:00+09:00');
      for (let t = at - 120_000; t < at; t += 1_000) warm.lastTrade(t);
      expect(warm.lastTrade(at)).toEqual(quotesOf('TSLA').lastTrade(at));
    });
  });

  describe('.recentTrades', () => {
    it('shows the after-hours single-price trades of a stock without NXT every ten minutes', () => {
      const trades = quotesOf('069500').recentTrades(ms('2026-11-23T17:05:00+09:00'), 7);
      const stamps = trades.map((t) =>
        DateTime.fromMillis(t.ms, { zone: 'Asia/Seoul' }).toFormat('HH:mm:ss.SSS'),
      );
      expect(stamps).toEqual([
        '17:00:00.000',
        '16:50:00.000',
        '16:40:00.000',
        '16:30:00.000',
        '16:20:00.000',
        '16:10:00.000',
        '16:00:00.000',
      ]);
    });

    it('shows US day-market trades', () => {
      const trades = quotesOf('NVDA').recentTrades(ms('2026-11-23T12:00:00+09:00'), 50);
      expect(trades.length).toBeGreaterThan(10);
      for (const t of trades) expect(t.ms).toBeGreaterThanOrEqual(ms('2026-11-22T20:00:00-05:00'));
    });

    it('never lists trades of a suspended stock', () => {
      expect(quotesOf('900110').recentTrades(ms('2026-11-23T14:00:00+09:00'), 50)).toEqual([]);
    });
  });

  describe('.book', () => {
    it('is empty for a suspended stock', () => {
      expect(quotesOf('900110').book(ms('2026-11-23T10:00:00+09:00'))).toEqual({ asks: [], bids: [] });
    });

    it('leaves out asks above the upper limit', () => {
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      const market = new SimMarket({ seed: 7, clock });
      market.setPrice('035720', new Decimal(1_000_000));
      const limits = market.priceLimits('035720', clock.now());
      const book = market.book('035720', clock.now());
      expect(book.bids).toHaveLength(10);
      expect(book.asks.length).toBeLessThanOrEqual(1);
      for (const level of book.asks) expect(level.price.lessThanOrEqualTo(limits?.upper ?? 0)).toBe(true);
    });

    it('crosses the KR 50,000 tick boundary with the right ticks', () => {
      const clock = new VirtualClock('2026-11-23T10:00:00+09:00');
      const market = new SimMarket({ seed: 7, clock });
      market.setPrice('035720', new Decimal(50_000));
      const book = market.book('035720', clock.now());
      const prices = [...book.bids.map((l) => l.price.toNumber())]
        .reverse()
        .concat(book.asks.map((l) => l.price.toNumber()));
      const steps = prices.slice(1).map((p, i) => p - (prices[i] as number));
      for (const [i, step] of steps.entries()) {
        const from = prices[i] as number;
        expect(step).toBe(from >= 50_000 ? 100 : 50);
      }
    });
  });
});
