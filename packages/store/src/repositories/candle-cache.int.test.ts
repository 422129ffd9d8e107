import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import type { CachedCandle, CandleSeriesKey } from './candle-cache.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const MIN = 60_000;
const key: CandleSeriesKey = { symbol: '005930', interval: '1m', adjusted: true };
const candle = (minute: number, close = '72100'): CachedCandle => ({
  ts: minute * MIN,
  open: new Decimal('72000'),
  high: new Decimal('72200.5'),
  low: new Decimal('71900'),
  close: new Decimal(close),
  volume: new Decimal('1234'),
});
const range = (from: number, to: number) => ({ start: from * MIN, end: to * MIN });

describe('CandleCache', () => {
  describe('.store', () => {
    it('keeps candles exactly and returns those inside a range in time order', () => {
      db.candles.store(key, range(0, 10), [candle(5), candle(1), candle(9)]);
      const got = db.candles.get(key, range(1, 9));
      expect(got.map((c) => c.ts / MIN)).toEqual([1, 5]);
      expect(got[0]).toEqual(candle(1));
    });

    it('merges overlapping and adjacent covered ranges and keeps separate ones apart', () => {
      db.candles.store(key, range(0, 10), []);
      db.candles.store(key, range(20, 30), []);
      db.candles.store(key, range(10, 12), []);
      db.candles.store(key, range(11, 15), []);
      expect(db.candles.coverage(key)).toEqual([range(0, 15), range(20, 30)]);
      db.candles.store(key, range(14, 21), []);
      expect(db.candles.coverage(key)).toEqual([range(0, 30)]);
    });

    it('replaces a cached candle with the same timestamp (late corrections win)', () => {
      db.candles.store(key, range(0, 10), [candle(3, '100')]);
      db.candles.store(key, range(2, 4), [candle(3, '101')]);
      expect(db.candles.get(key, range(0, 10)).map((c) => c.close.toFixed())).toEqual(['101']);
    });

    it('keeps series of another symbol, interval or adjusted flag apart', () => {
      db.candles.store(key, range(0, 10), [candle(1)]);
      for (const other of [
        { ...key, symbol: '000660' },
        { ...key, interval: '1d' },
        { ...key, adjusted: false },
      ]) {
        expect(db.candles.get(other, range(0, 10))).toEqual([]);
        expect(db.candles.missing(other, range(0, 10))).toEqual([range(0, 10)]);
      }
    });

    it.each([
      ['an empty range', range(5, 5), []],
      ['a reversed range', range(6, 5), []],
      ['a candle outside the range', range(0, 5), [candle(5)]],
    ])('throws invalid-argument for %s and stores nothing', (_, r, candles) => {
      expect(() => db.candles.store(key, r, candles)).toThrow(
        expect.objectContaining({ code: 'invalid-argument' }),
      );
      expect(db.candles.coverage(key)).toEqual([]);
    });
  });

  describe('.missing', () => {
    it('returns the sub-ranges still to download, so each range is fetched once', () => {
      db.candles.store(key, range(10, 20), []);
      db.candles.store(key, range(30, 40), []);
      expect(db.candles.missing(key, range(0, 50))).toEqual([range(0, 10), range(20, 30), range(40, 50)]);
      expect(db.candles.missing(key, range(12, 18))).toEqual([]);
      for (const gap of db.candles.missing(key, range(0, 50))) db.candles.store(key, gap, []);
      expect(db.candles.missing(key, range(0, 50))).toEqual([]);
      expect(db.candles.coverage(key)).toEqual([range(0, 50)]);
    });
  });

  describe('.first', () => {
    it('returns the oldest candle inside a range, none when it holds none', () => {
      db.candles.store(key, range(0, 20), [candle(12), candle(7, '72300'), candle(15)]);
      expect(db.candles.first(key, range(5, 20))).toEqual(candle(7, '72300'));
      expect(db.candles.first(key, range(8, 20))).toEqual(candle(12));
      expect(db.candles.first(key, range(16, 20))).toBeUndefined();
    });
  });
});
