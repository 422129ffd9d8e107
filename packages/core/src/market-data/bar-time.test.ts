import { describe, expect, it } from 'vitest';
import { barCloseTime, barOpenTime, regularCloseOfDailyStamp, regularOpenOfDailyStamp } from './bar-time.js';

const kstMidnight = (date: string) => Date.parse(`${date}T00:00:00+09:00`);

describe('regularOpenOfDailyStamp and regularCloseOfDailyStamp', () => {
  it.each([
    ['KR', '2026-11-23', '09:00:00+09:00', '15:30:00+09:00'],
    ['KR', '2026-07-01', '09:00:00+09:00', '15:30:00+09:00'],
    ['US', '2026-11-23', '09:30:00-05:00', '16:00:00-05:00'],
    ['US', '2026-07-01', '09:30:00-04:00', '16:00:00-04:00'],
    ['US', '2026-03-09', '09:30:00-04:00', '16:00:00-04:00'],
    ['US', '2026-11-02', '09:30:00-05:00', '16:00:00-05:00'],
    // days of special hours: the KRX's first trading day opens late, its CSAT day opens and closes
    // late, a NYSE early close ends at 13:00
    ['KR', '2026-01-02', '10:00:00+09:00', '15:30:00+09:00'],
    ['KR', '2026-11-19', '10:00:00+09:00', '16:30:00+09:00'],
    ['US', '2026-11-27', '09:30:00-05:00', '13:00:00-05:00'],
    ['US', '2026-12-24', '09:30:00-05:00', '13:00:00-05:00'],
  ] as const)('%s trading date %s opens at %s and closes at %s', (market, date, open, close) => {
    expect(regularOpenOfDailyStamp(market, kstMidnight(date))).toBe(Date.parse(`${date}T${open}`));
    expect(regularCloseOfDailyStamp(market, kstMidnight(date))).toBe(Date.parse(`${date}T${close}`));
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

describe('barOpenTime', () => {
  it('is the minute’s start for a minute bar (a minute before its stamp)', () => {
    const ts = Date.parse('2026-11-23T09:01:00+09:00');
    expect(barOpenTime('KR', '1m', ts)).toBe(Date.parse('2026-11-23T09:00:00+09:00'));
    expect(barOpenTime('US', '1m', ts)).toBe(Date.parse('2026-11-23T09:00:00+09:00'));
  });

  it('is the regular open of the trading day for a daily bar', () => {
    expect(barOpenTime('KR', '1d', kstMidnight('2026-11-23'))).toBe(Date.parse('2026-11-23T09:00:00+09:00'));
    expect(barOpenTime('US', '1d', kstMidnight('2026-11-23'))).toBe(Date.parse('2026-11-23T09:30:00-05:00'));
  });
});
