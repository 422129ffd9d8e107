import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { BarFeed } from './bar-feed.js';

const MIN = 60_000;
const T = Date.parse('2026-11-23T09:01:00+09:00');
const bar = (symbol: string, minute: number, close = 100 + minute): Bar => ({
  symbol,
  interval: '1m',
  ts: T + minute * MIN,
  closeTime: T + minute * MIN,
  open: close - 1,
  high: close + 1,
  low: close - 2,
  close,
  volume: 10 * minute,
});
const walk = (c: { next(): boolean; current: Bar }) => {
  const out: string[] = [];
  while (c.next()) out.push(`${c.current.symbol}@${(c.current.closeTime - T) / MIN}`);
  return out;
};

describe('BarFeed', () => {
  describe('.cursor', () => {
    it('merges series by close time, ties broken by symbol, whatever order the bars came in', () => {
      const feed = BarFeed.fromBars([
        bar('B', 1),
        bar('A', 2),
        bar('C', 0),
        bar('A', 0),
        bar('B', 0),
        bar('C', 3),
      ]);
      expect(walk(feed.cursor())).toEqual(['A@0', 'B@0', 'C@0', 'B@1', 'A@2', 'C@3']);
    });

    it('delivers every field of each bar in one reused object', () => {
      const feed = BarFeed.fromBars([bar('A', 0), bar('A', 1)]);
      const c = feed.cursor();
      expect(c.next()).toBe(true);
      const first = c.current;
      expect({ ...first }).toEqual(bar('A', 0));
      expect(c.next()).toBe(true);
      expect(c.current).toBe(first);
      expect({ ...c.current }).toEqual(bar('A', 1));
      expect(c.next()).toBe(false);
    });

    it('orders KR and US daily bars by their close (15:30 KST before 16:00 New York of the same date)', () => {
      const day = Date.parse('2026-11-23T00:00:00+09:00');
      const daily = (symbol: string, closeTime: number): Bar => ({
        ...bar(symbol, 0),
        interval: '1d',
        ts: day,
        closeTime,
      });
      const feed = BarFeed.fromBars([
        daily('AAPL', Date.parse('2026-11-23T16:00:00-05:00')),
        daily('005930', Date.parse('2026-11-23T15:30:00+09:00')),
      ]);
      const c = feed.cursor();
      const order: string[] = [];
      while (c.next()) order.push(c.current.symbol);
      expect(order).toEqual(['005930', 'AAPL']);
    });

    it('keeps the order by close time then symbol as the number of series closing together rises and falls', () => {
      // 40 symbols: minutes 0–9 all close together, minutes 10–29 one or two at a time, then all again
      const bars: Bar[] = [];
      for (let k = 0; k < 40; k++) {
        const symbol = `S${String(k).padStart(2, '0')}`;
        for (let m = 0; m < 10; m++) bars.push(bar(symbol, m));
        bars.push(bar(symbol, 10 + (k % 20)));
        for (let m = 30; m < 35; m++) bars.push(bar(symbol, m));
      }
      const expected = [...bars]
        .sort((a, b) => a.closeTime - b.closeTime || (a.symbol < b.symbol ? -1 : 1))
        .map((b) => `${b.symbol}@${(b.closeTime - T) / MIN}`);
      expect(walk(BarFeed.fromBars([...bars].reverse()).cursor())).toEqual(expected);
    });

    it('limits delivery to close times in [from, to)', () => {
      const feed = BarFeed.fromBars([0, 1, 2, 3].flatMap((m) => [bar('A', m), bar('B', m)]));
      expect(walk(feed.cursor(T + MIN, T + 3 * MIN))).toEqual(['A@1', 'B@1', 'A@2', 'B@2']);
    });
  });

  describe('.warmup / .main / .stream', () => {
    it('splits each series at the run start: warm-up stamped before it, the run from it on', () => {
      const feed = BarFeed.fromBars(
        [0, 1, 2].flatMap((m) => [bar('A', m), bar('B', m)]),
        T + MIN,
      );
      expect(walk(feed.warmup())).toEqual(['A@0', 'B@0']);
      expect(walk(feed.main())).toEqual(['A@1', 'B@1', 'A@2', 'B@2']);
      expect(feed.warmupLength).toBe(2);
      expect(feed.firstMainClose).toBe(T + MIN);
    });

    it('splits per symbol, so a US bar of the day before never joins the run of a KR start day', () => {
      const kr = Date.parse('2026-11-23T00:00:00+09:00');
      // The US after-hours minute 19:59 New York on 11-22 closes at 09:59 KST on 11-23.
      const usLate: Bar = {
        ...bar('AAPL', 0),
        ts: Date.parse('2026-11-22T19:59:00-05:00'),
        closeTime: Date.parse('2026-11-22T19:59:00-05:00'),
      };
      const krOpen: Bar = {
        ...bar('005930', 0),
        ts: Date.parse('2026-11-23T09:01:00+09:00'),
        closeTime: Date.parse('2026-11-23T09:01:00+09:00'),
      };
      const start = (symbol: string) =>
        symbol === 'AAPL' ? Date.parse('2026-11-22T20:00:00-05:00') + 1 : kr;
      const feed = BarFeed.fromBars([usLate, krOpen], start);
      const s = feed.stream();
      const seen: string[] = [];
      while (s.next()) seen.push(`${s.current.symbol}:${s.isWarmup ? 'warm' : 'run'}`);
      expect(seen).toEqual(['AAPL:warm', '005930:run']);
    });
  });

  describe('.forEach', () => {
    it('visits (series, index) pairs in delivery order', () => {
      const feed = BarFeed.fromBars([bar('B', 0), bar('A', 1), bar('A', 0)]);
      const seen: string[] = [];
      feed.forEach((s, i) => {
        seen.push(`${feed.series[s]?.symbol}:${i}:${feed.series[s]?.columns.close[i]}`);
      });
      expect(seen).toEqual(['A:0:100', 'B:0:100', 'A:1:101']);
      expect(feed.length).toBe(3);
    });
  });
});
