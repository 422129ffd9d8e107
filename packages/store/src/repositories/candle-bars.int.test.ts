import { type Bar, Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import { barToCachedCandle, CandleBarReader, cachedCandleToBar } from './candle-bars.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const day = (date: string) => Date.parse(`${date}T00:00:00+09:00`);
const usDaily = (date: string, close: number): Bar => ({
  symbol: 'AAPL',
  interval: '1d',
  ts: day(date),
  closeTime: 0,
  open: 190.25,
  high: 193.1,
  low: 188.07,
  close,
  volume: 51_234_567,
});

describe('cachedCandleToBar / barToCachedCandle', () => {
  it('round-trips a bar through a cached candle with its prices unchanged', () => {
    const bar = { ...usDaily('2026-11-23', 192.33), closeTime: Date.parse('2026-11-23T16:00:00-05:00') };
    const candle = barToCachedCandle(bar);
    expect(candle.high).toEqual(new Decimal('193.1'));
    expect(cachedCandleToBar(candle, 'AAPL', '1d')).toEqual(bar);
  });
});

describe('CandleBarReader', () => {
  describe('.read', () => {
    it('reads a series as columns of numbers with daily close times, oldest first, within the range', () => {
      const key = { symbol: 'AAPL', interval: '1d', adjusted: true };
      const bars = [
        usDaily('2026-07-01', 181.5),
        usDaily('2026-11-23', 192.33),
        usDaily('2026-11-24', 0.1234),
      ];
      db.candles.store(
        key,
        { start: day('2026-01-01'), end: day('2027-01-01') },
        bars.map(barToCachedCandle),
      );
      const cols = new CandleBarReader(db.connection).read(key, {
        start: day('2026-07-01'),
        end: day('2026-11-24'),
      });
      expect(cols.length).toBe(2);
      expect([...cols.ts]).toEqual([day('2026-07-01'), day('2026-11-23')]);
      expect([...cols.closeTime]).toEqual([
        Date.parse('2026-07-01T16:00:00-04:00'),
        Date.parse('2026-11-23T16:00:00-05:00'),
      ]);
      expect([...cols.close]).toEqual([181.5, 192.33]);
      expect([...cols.open]).toEqual([190.25, 190.25]);
      expect([...cols.high]).toEqual([193.1, 193.1]);
      expect([...cols.low]).toEqual([188.07, 188.07]);
      expect([...cols.volume]).toEqual([51_234_567, 51_234_567]);
    });

    it('reads awkward decimal texts as the same doubles as Number() does', () => {
      const key = { symbol: 'AAPL', interval: '1m', adjusted: true };
      const texts = ['0.1', '0.3', '190.01', '0.0001', '123456789.123456', '1.0000000000000002', '4.35'];
      const t0 = Date.parse('2026-11-23T10:00:00-05:00');
      db.candles.store(
        key,
        { start: t0, end: t0 + texts.length * 60_000 },
        texts.map((t, i) => {
          const d = new Decimal(t);
          return { ts: t0 + i * 60_000, open: d, high: d, low: d, close: d, volume: d };
        }),
      );
      const cols = new CandleBarReader(db.connection).read(key, {
        start: t0,
        end: t0 + texts.length * 60_000,
      });
      expect([...cols.close]).toEqual(texts.map(Number));
      expect([...cols.volume]).toEqual(texts.map(Number));
    });

    it('reads a series longer than one query chunk (4,096 rows) whole and in order', () => {
      const key = { symbol: '000660', interval: '1m', adjusted: true };
      const t0 = Date.parse('2026-11-23T09:01:00+09:00');
      const n = 9_000;
      db.candles.store(
        key,
        { start: t0, end: t0 + n * 60_000 },
        Array.from({ length: n }, (_, i) => {
          const d = new Decimal(100_000 + i);
          return { ts: t0 + i * 60_000, open: d, high: d, low: d, close: d, volume: new Decimal(i) };
        }),
      );
      const cols = new CandleBarReader(db.connection).read(key, { start: t0 + 60_000, end: t0 + n * 60_000 });
      expect(cols.length).toBe(n - 1);
      expect(cols.close.length).toBe(n - 1);
      expect(cols.close.every((c, i) => c === 100_001 + i)).toBe(true);
      expect(cols.ts.every((t, i) => t === t0 + (i + 1) * 60_000)).toBe(true);
    });

    it('gives minute bars their stamp as close time and an empty series zero rows', () => {
      const key = { symbol: '005930', interval: '1m', adjusted: true };
      const ts = Date.parse('2026-11-23T09:01:00+09:00');
      db.candles.store(key, { start: ts, end: ts + 60_000 }, [
        {
          ts,
          open: new Decimal(72000),
          high: new Decimal(72100),
          low: new Decimal(71900),
          close: new Decimal(72050),
          volume: new Decimal(10),
        },
      ]);
      const reader = new CandleBarReader(db.connection);
      const cols = reader.read(key, { start: ts, end: ts + 60_000 });
      expect([...cols.closeTime]).toEqual([ts]);
      expect(reader.read({ ...key, symbol: '000660' }, { start: ts, end: ts + 60_000 }).length).toBe(0);
    });
  });
});
