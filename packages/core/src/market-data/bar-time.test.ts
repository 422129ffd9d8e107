import { describe, expect, it } from 'vitest';
import { barCloseTime, regularCloseOfDailyStamp } from './bar-time.js';

const kstMidnight = (date: string) => Date.parse(`${date}T00:00:00+09:00`);

describe('regularCloseOfDailyStamp', () => {
  it.each([
    ['KR', '2026-11-23', '2026-11-23T15:30:00+09:00'],
    ['KR', '2026-07-01', '2026-07-01T15:30:00+09:00'],
    ['US', '2026-11-23', '2026-11-23T16:00:00-05:00'],
    ['US', '2026-07-01', '2026-07-01T16:00:00-04:00'],
    ['US', '2026-03-09', '2026-03-09T16:00:00-04:00'],
    ['US', '2026-11-02', '2026-11-02T16:00:00-05:00'],
  ] as const)('%s trading date %s closes at %s', (market, date, close) => {
    expect(regularCloseOfDailyStamp(market, kstMidnight(date))).toBe(Date.parse(close));
  });
});

describe('barCloseTime', () => {
  it('is the stamp itself for a minute bar (the minute’s end)', () => {
    const ts = Date.parse('2026-11-23T09:01:00+09:00');
    expect(barCloseTime('KR', '1m', ts)).toBe(ts);
    expect(barCloseTime('US', '1m', ts)).toBe(ts);
  });

  it('is the regular close of the trading day for a daily bar', () => {
    expect(barCloseTime('US', '1d', kstMidnight('2026-11-23'))).toBe(Date.parse('2026-11-23T16:00:00-05:00'));
  });
});
