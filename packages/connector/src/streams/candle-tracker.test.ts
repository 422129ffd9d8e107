import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../schemas/market-data.js';
import { CandleTracker, isCandleInProgress } from './candle-tracker.js';

const at = (iso: string) => DateTime.fromISO(iso, { setZone: true });

function candle(end: string, close = 100): Candle {
  const p = new Decimal(close);
  return {
    timestamp: at(end),
    openPrice: p,
    highPrice: p,
    lowPrice: p,
    closePrice: p,
    volume: new Decimal(10),
    currency: 'KRW',
    raw: {},
  };
}

/** 1m candles ending at 10:0k, newest first. */
const minutes = (...ends: number[]) => ends.map((m) => candle(`2026-11-23T10:0${m}:00.000+09:00`, 100 + m));

describe('isCandleInProgress', () => {
  it.each([
    { interval: '1m', stamp: '2026-11-23T10:03:00+09:00', now: '2026-11-23T10:02:30+09:00', expected: true },
    { interval: '1m', stamp: '2026-11-23T10:03:00+09:00', now: '2026-11-23T10:03:00+09:00', expected: false },
    { interval: '1d', stamp: '2026-11-23T00:00:00+09:00', now: '2026-11-23T14:00:00+09:00', expected: true },
    { interval: '1d', stamp: '2026-11-20T00:00:00+09:00', now: '2026-11-23T14:00:00+09:00', expected: false },
  ] as const)('$interval stamped $stamp at $now → $expected', ({ interval, stamp, now, expected }) => {
    expect(isCandleInProgress(candle(stamp), interval, 'KR', at(now))).toBe(expected);
  });
});

describe('CandleTracker', () => {
  describe('.update', () => {
    it('emits the newest completed candle, then each later one once, and the live one when it changes', () => {
      const tracker = new CandleTracker('005930', '1m', 'KR');
      const first = tracker.update(minutes(3, 2, 1), at('2026-11-23T10:02:30+09:00'));
      expect(first.map((u) => [u.candle.timestamp.minute, u.complete])).toEqual([
        [2, true],
        [3, false],
      ]);
      expect(tracker.update(minutes(3, 2, 1), at('2026-11-23T10:02:40+09:00'))).toEqual([]);
      const later = tracker.update(minutes(6, 5, 4, 3), at('2026-11-23T10:05:10+09:00'));
      expect(later.map((u) => [u.candle.timestamp.minute, u.complete])).toEqual([
        [3, true],
        [4, true],
        [5, true],
        [6, false],
      ]);
    });

    it('given the newest candle the caller has, emits every completed one after it from the first poll on', () => {
      // a warm-up read the candles before 10:02 (its last ending at 10:01); by the first poll,
      // 10:02 to 10:05 completed: before, 10:05 alone was emitted and 10:02 to 10:04 never
      const tracker = new CandleTracker('005930', '1m', 'KR', at('2026-11-23T10:01:00+09:00').toMillis());
      expect(tracker.newestCompletedMs).toBe(at('2026-11-23T10:01:00+09:00').toMillis());
      const first = tracker.update(minutes(6, 5, 4, 3, 2, 1), at('2026-11-23T10:05:10+09:00'));
      expect(first.map((u) => [u.candle.timestamp.minute, u.complete])).toEqual([
        [2, true],
        [3, true],
        [4, true],
        [5, true],
        [6, false],
      ]);
      expect(tracker.update(minutes(6, 5), at('2026-11-23T10:05:20+09:00'))).toEqual([]);
    });
  });
});
