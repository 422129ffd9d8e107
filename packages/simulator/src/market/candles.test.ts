import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { CandleBuilder } from './candles.js';
import { SimMarket } from './sim-market.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON-ready payloads
type Json = any;

const q = (params: Record<string, string>): URLSearchParams => new URLSearchParams(params);

function candles(at: string, params: Record<string, string>, seed = 7): Json {
  return new SimMarket({ seed, clock: new VirtualClock(at) }).candles(q(params));
}

/** Walks pages back with nextBefore and returns all candles (newest first). */
function walk(at: string, params: Record<string, string>, pages: number): Json[] {
  const m = new SimMarket({ seed: 7, clock: new VirtualClock(at) });
  const out: Json[] = [];
  let before: string | null = null;
  for (let i = 0; i < pages; i++) {
    const page: Json = m.candles(q(before === null ? params : { ...params, before }));
    out.push(...page.candles);
    before = page.nextBefore;
    if (before === null) break;
  }
  return out;
}

const minuteOf = (stamp: string): string => stamp.slice(11, 16);

describe(CandleBuilder, () => {
  describe('.page (1m)', () => {
    it('stamps candles with their end time, newest first, one minute apart within a KR day', () => {
      const page = candles('2026-11-23T10:00:30+09:00', { symbol: '005930', interval: '1m', count: '5' });
      expect(page.candles.map((c: Json) => minuteOf(c.timestamp))).toEqual([
        '10:01',
        '10:00',
        '09:59',
        '09:58',
        '09:57',
      ]);
      expect(page.nextBefore).toBe(page.candles[4].timestamp);
      for (const c of page.candles) expect(c.currency).toBe('KRW');
    });

    it('includes the minute in progress with its partial values and nothing after now', () => {
      const at = '2026-11-23T10:00:30+09:00';
      const m = new SimMarket({ seed: 7, clock: new VirtualClock(at) });
      const page: Json = m.candles(q({ symbol: '005930', interval: '1m', count: '1' }));
      const trades: Json = m.trades(q({ symbol: '005930' }));
      const inMinute = trades.filter((t: Json) => t.timestamp >= '2026-11-23T10:00:00.000+09:00');
      const volume = inMinute.reduce((s: number, t: Json) => s + Number(t.volume), 0);
      expect(page.candles[0].timestamp).toBe('2026-11-23T10:01:00.000+09:00');
      expect(Number(page.candles[0].volume)).toBe(volume);
    });

    it('produces flat KR candles with volume 0 at the previous close for minutes without trades', () => {
      const all = walk('2026-11-23T15:45:00+09:00', { symbol: '005930', interval: '1m', count: '200' }, 2);
      const auction = all.filter(
        (c: Json) => minuteOf(c.timestamp) > '15:20' && minuteOf(c.timestamp) <= '15:30',
      );
      expect(auction).toHaveLength(10);
      const before = all.find((c: Json) => minuteOf(c.timestamp) === '15:20');
      for (const c of auction) {
        expect(c.volume).toBe('0');
        expect([c.openPrice, c.highPrice, c.lowPrice, c.closePrice]).toEqual(
          Array(4).fill(before.closePrice),
        );
      }
      const regular = all.filter(
        (c: Json) => minuteOf(c.timestamp) > '09:00' && minuteOf(c.timestamp) <= '15:20',
      );
      const empty = regular.filter((c: Json) => c.volume === '0');
      expect(empty.length).toBeGreaterThan(0);
      expect(empty.length).toBeLessThan(regular.length / 5);
    });

    it('puts the opening auction in the 09:01 candle and the closing auction in the 15:31 candle', () => {
      const m = new SimMarket({ seed: 7, clock: new VirtualClock('2026-11-23T21:00:00+09:00') });
      const day: Json = (m.candles(q({ symbol: '005930', interval: '1d', count: '1' })) as Json).candles[0];
      const all = walk('2026-11-23T21:00:00+09:00', { symbol: '005930', interval: '1m', count: '200' }, 4);
      const at = (hhmm: string): Json => all.find((c: Json) => minuteOf(c.timestamp) === hhmm);
      expect(at('09:01').openPrice).toBe(day.openPrice);
      expect(at('15:31').openPrice).toBe(day.closePrice);
      expect(Number(at('15:31').volume)).toBeGreaterThan(0);
    });

    it.each([
      ['005930', '08:01', '20:00', 720], // NXT stock
      ['069500', '09:01', '20:00', 660], // no NXT, after-hours single price
      ['900110', '09:01', '15:30', 390], // suspended, not after-market eligible
    ])('covers the KR range of %s from %s to %s', (symbol, first, last, count) => {
      const all = walk('2026-11-23T21:00:00+09:00', { symbol, interval: '1m', count: '200' }, 4).filter(
        (c: Json) => c.timestamp.startsWith('2026-11-23'),
      );
      expect(all).toHaveLength(count);
      expect(minuteOf(all[0].timestamp)).toBe(last);
      expect(minuteOf(all[all.length - 1].timestamp)).toBe(first);
    });

    it('keeps a suspended stock flat with volume 0', () => {
      const page = candles('2026-11-23T11:00:00+09:00', { symbol: '900110', interval: '1m', count: '50' });
      const prices = new Set(page.candles.map((c: Json) => c.closePrice));
      expect(prices.size).toBe(1);
      expect(page.candles.every((c: Json) => c.volume === '0')).toBe(true);
    });

    it("gives a suspended stock's day the minutes' one price: open, high, low and close alike", () => {
      // before, the daily high was a tick above (the frozen price rounded up onto the grid: 207 / 208)
      const at = '2026-11-23T21:00:00+09:00';
      const minute = candles(at, { symbol: '900110', interval: '1m', count: '1' }).candles[0];
      const day = candles(at, { symbol: '900110', interval: '1d', count: '1' }).candles[0];
      expect(day.timestamp.startsWith('2026-11-23')).toBe(true);
      expect([day.openPrice, day.highPrice, day.lowPrice, day.closePrice]).toEqual(
        Array(4).fill(minute.closePrice),
      );
      expect(day.volume).toBe('0');
    });

    it('omits US minutes without trades and never produces flat zero-volume US candles', () => {
      const all = walk('2026-11-24T09:00:00+09:00', { symbol: 'AAPL', interval: '1m', count: '200' }, 7);
      const day = all.filter((c: Json) => c.timestamp >= '2026-11-23T10:00:00.000+09:00');
      expect(day.every((c: Json) => c.volume !== '0')).toBe(true);
      expect(day.length).toBeLessThan(1320);
      expect(day.length).toBeGreaterThan(800);
      const regular = day.filter(
        (c: Json) =>
          c.timestamp > '2026-11-23T23:30:00.000+09:00' && c.timestamp <= '2026-11-24T06:00:00.000+09:00',
      );
      expect(regular.length).toBeLessThan(390);
      expect(regular.length).toBeGreaterThan(330);
    });

    it('pages back without gaps or overlaps and skips weekends', () => {
      const all = walk('2026-11-23T09:10:00+09:00', { symbol: '005930', interval: '1m', count: '50' }, 4);
      const stamps = all.map((c: Json) => c.timestamp);
      expect(new Set(stamps).size).toBe(stamps.length);
      expect(stamps).toEqual([...stamps].sort().reverse());
      const days = new Set(stamps.map((s: string) => s.slice(0, 10)));
      expect([...days]).toEqual(['2026-11-23', '2026-11-20']);
    });

    it('treats before as exclusive', () => {
      const page = candles('2026-11-23T15:00:00+09:00', {
        symbol: '005930',
        interval: '1m',
        count: '3',
        before: '2026-11-23T10:00:00+09:00',
      });
      expect(page.candles.map((c: Json) => minuteOf(c.timestamp))).toEqual(['09:59', '09:58', '09:57']);
    });

    it.each([
      ['005930', '2022-11-23T08:03:00+09:00', '2022-11-23T08:01:00.000+09:00'],
      ['AAPL', '2021-11-30T20:03:00-05:00', '2021-12-01T10:01:00.000+09:00'],
    ])('ends %s minute history at its start date with nextBefore null', (symbol, before, oldest) => {
      const page = candles('2026-11-23T10:00:00+09:00', { symbol, interval: '1m', count: '200', before });
      expect(page.nextBefore).toBeNull();
      expect(page.candles.length).toBeGreaterThan(0);
      expect(page.candles.length).toBeLessThan(200);
      expect(page.candles[page.candles.length - 1].timestamp.slice(0, 16)).toBe(oldest.slice(0, 16));
      const empty = candles('2026-11-23T10:00:00+09:00', { symbol, interval: '1m', before: oldest });
      expect(empty).toEqual({ candles: [], nextBefore: null });
    });
  });

  describe('.page (1d)', () => {
    it('stamps daily candles at KST midnight, skipping weekends and holidays', () => {
      const page = candles('2026-11-27T16:00:00+09:00', { symbol: '005930', interval: '1d', count: '8' });
      expect(page.candles.map((c: Json) => c.timestamp.slice(0, 10))).toEqual([
        '2026-11-27',
        '2026-11-26',
        '2026-11-25',
        '2026-11-24',
        '2026-11-23',
        '2026-11-20',
        '2026-11-19',
        '2026-11-18',
      ]);
      for (const c of page.candles) expect(c.timestamp.slice(10)).toBe('T00:00:00.000+09:00');
    });

    it('stamps US days by their New York trading date and skips Thanksgiving', () => {
      const page = candles('2026-11-28T12:00:00+09:00', { symbol: 'AAPL', interval: '1d', count: '3' });
      expect(page.candles.map((c: Json) => c.timestamp)).toEqual([
        '2026-11-27T00:00:00.000+09:00',
        '2026-11-25T00:00:00.000+09:00',
        '2026-11-24T00:00:00.000+09:00',
      ]);
    });

    it('shows today only once the regular session opened', () => {
      const before = candles('2026-11-23T08:30:00+09:00', { symbol: '005930', interval: '1d', count: '1' });
      expect(before.candles[0].timestamp.slice(0, 10)).toBe('2026-11-20');
      const after = candles('2026-11-23T09:00:00+09:00', { symbol: '005930', interval: '1d', count: '1' });
      expect(after.candles[0].timestamp.slice(0, 10)).toBe('2026-11-23');
    });

    it('keeps open and close within high and low and matches the closing price to the next reference', () => {
      const page = candles('2026-11-23T16:00:00+09:00', { symbol: '000660', interval: '1d', count: '50' });
      for (const c of page.candles) {
        const [o, h, l, cl] = [c.openPrice, c.highPrice, c.lowPrice, c.closePrice].map(Number) as number[];
        expect(h).toBeGreaterThanOrEqual(Math.max(o as number, cl as number));
        expect(l).toBeLessThanOrEqual(Math.min(o as number, cl as number));
        expect(Number(c.volume)).toBeGreaterThan(0);
      }
    });

    it('contains the minute candles of the regular session within its high and low', () => {
      const day: Json = candles('2026-11-23T21:00:00+09:00', { symbol: '035720', interval: '1d', count: '1' })
        .candles[0];
      const minutes = walk(
        '2026-11-23T15:31:00+09:00',
        { symbol: '035720', interval: '1m', count: '200' },
        2,
      );
      const regular = minutes.filter(
        (c: Json) => minuteOf(c.timestamp) >= '09:01' && minuteOf(c.timestamp) <= '15:31',
      );
      expect(regular).toHaveLength(391);
      for (const c of regular) {
        expect(Number(c.highPrice)).toBeLessThanOrEqual(Number(day.highPrice));
        expect(Number(c.lowPrice)).toBeGreaterThanOrEqual(Number(day.lowPrice));
      }
    });

    it('reaches back two years in a few pages', () => {
      const all = walk('2026-11-23T16:00:00+09:00', { symbol: '005930', interval: '1d', count: '200' }, 3);
      expect(all).toHaveLength(600);
      expect(all[599].timestamp < '2024-11-23').toBe(true);
    });

    it('starts 1d history at 2015-01-01 or the listing date, with nextBefore null', () => {
      const page = candles('2026-11-23T16:00:00+09:00', {
        symbol: '247540',
        interval: '1d',
        count: '10',
        before: '2019-03-09T00:00:00+09:00',
      });
      expect(page.candles.map((c: Json) => c.timestamp.slice(0, 10))).toEqual([
        '2019-03-08',
        '2019-03-07',
        '2019-03-06',
        '2019-03-05',
      ]);
      expect(page.nextBefore).toBeNull();
    });
  });

  describe('.page (adjusted)', () => {
    const nvda = (adjusted: string): Json =>
      candles('2026-11-23T16:00:00+09:00', {
        symbol: 'NVDA',
        interval: '1d',
        count: '2',
        adjusted,
        before: '2024-06-11T00:00:00+09:00',
      }).candles;

    it('multiplies US prices before a split by the ratio without rounding and scales volume', () => {
      const [split, before] = [nvda('true'), nvda('false')];
      expect(split[0].timestamp.slice(0, 10)).toBe('2024-06-10');
      expect(split[0]).toEqual(before[0]);
      expect(Number(before[1].closePrice)).toBeGreaterThan(Number(split[0].closePrice) * 5);
      expect(split[1].closePrice).toBe(String(Number(before[1].closePrice) / 10));
      expect(split[1].volume).toBe(String(Number(before[1].volume) * 10));
    });

    it('is the default', () => {
      const page = candles('2026-11-23T16:00:00+09:00', {
        symbol: 'NVDA',
        interval: '1d',
        count: '2',
        before: '2024-06-11T00:00:00+09:00',
      });
      expect(page.candles).toEqual(nvda('true'));
    });

    it('rounds KR adjusted prices to whole won and floors volume', () => {
      const params = { symbol: '035720', interval: '1d', count: '1', before: '2021-04-15T00:00:00+09:00' };
      const raw: Json = candles('2026-11-23T16:00:00+09:00', { ...params, adjusted: 'false' }).candles[0];
      const adj: Json = candles('2026-11-23T16:00:00+09:00', { ...params, adjusted: 'true' }).candles[0];
      expect(adj.closePrice).toBe(String(Math.round(Number(raw.closePrice) * 0.2)));
      expect(adj.volume).toBe(String(Math.floor(Number(raw.volume) * 5)));
    });

    it('shows very old history adjusted even with adjusted=false', () => {
      const params = { symbol: '005930', interval: '1d', count: '1', before: '2016-01-01T00:00:00+09:00' };
      const raw: Json = candles('2026-11-23T16:00:00+09:00', { ...params, adjusted: 'false' }).candles[0];
      const adj: Json = candles('2026-11-23T16:00:00+09:00', { ...params, adjusted: 'true' }).candles[0];
      expect(raw).toEqual(adj);
    });

    it('adjusts US minute candles before the split too', () => {
      const params = { symbol: 'NVDA', interval: '1m', count: '1', before: '2024-06-08T00:00:00+09:00' };
      const raw: Json = candles('2026-11-23T16:00:00+09:00', { ...params, adjusted: 'false' }).candles[0];
      const adj: Json = candles('2026-11-23T16:00:00+09:00', { ...params, adjusted: 'true' }).candles[0];
      expect(Number(adj.closePrice)).toBeCloseTo(Number(raw.closePrice) / 10, 6);
    });
  });

  describe('.page (validation)', () => {
    it.each([
      [{ symbol: '005930' }, 'interval', { allowedValues: ['1m', '1d'] }],
      [{ symbol: '005930', interval: '5m' }, 'interval', { allowedValues: ['1m', '1d'] }],
      [{ symbol: '005930', interval: '1m', count: '0' }, 'count', { constraint: { min: 1, max: 200 } }],
      [{ symbol: '005930', interval: '1m', count: '201' }, 'count', { constraint: { min: 1, max: 200 } }],
      [{ symbol: '005930', interval: '1m', before: 'yesterday' }, 'before', {}],
      [{ symbol: '005930', interval: '1m', before: '2026-11-23T10:00:00' }, 'before', {}],
      [
        { symbol: '005930', interval: '1m', adjusted: 'yes' },
        'adjusted',
        { allowedValues: ['true', 'false'] },
      ],
      [{ interval: '1m' }, 'symbol', {}],
    ])('rejects %j with 400 naming %s', (params, field, data) => {
      let error: unknown;
      try {
        candles('2026-11-23T10:00:00+09:00', params);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SimApiError);
      expect((error as SimApiError).status).toBe(400);
      expect((error as SimApiError).data).toEqual({ field, ...data });
    });

    it('answers 404 for an unknown symbol', () => {
      expect(() => candles('2026-11-23T10:00:00+09:00', { symbol: 'NOPE', interval: '1d' })).toThrow(
        expect.objectContaining({ code: 'stock-not-found', status: 404 }),
      );
    });
  });
});
