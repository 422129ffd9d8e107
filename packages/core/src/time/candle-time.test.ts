import { describe, expect, it } from 'vitest';
import { dailyCandleStamp, isPeakWindow, minuteCandleEnd, usTradingDate } from './candle-time.js';
import { formatKst, parseDateTime } from './zones.js';

const at = (iso: string) => parseDateTime(iso, 'ts');

describe('minuteCandleEnd', () => {
  it.each([
    ['2026-11-23T09:02:00.000+09:00', '2026-11-23T09:03:00.000+09:00'],
    ['2026-11-23T09:02:59.999+09:00', '2026-11-23T09:03:00.000+09:00'],
    ['2026-11-23T08:59:59.999+09:00', '2026-11-23T09:00:00.000+09:00'],
    ['2026-11-23T09:00:00.000+09:00', '2026-11-23T09:01:00.000+09:00'],
    ['2026-11-23T23:59:30.000+09:00', '2026-11-24T00:00:00.000+09:00'],
    ['2026-11-23T00:02:00.000Z', '2026-11-23T09:03:00.000+09:00'],
    ['2026-07-15T09:30:00.000-04:00', '2026-07-15T22:31:00.000+09:00'],
  ])('stamps a trade at %s with the candle end %s', (trade, end) => {
    expect(formatKst(minuteCandleEnd(at(trade)))).toBe(end);
  });
});

describe('dailyCandleStamp', () => {
  it.each([
    ['2026-11-23T15:30:00.000+09:00', '2026-11-23T00:00:00.000+09:00'],
    ['2026-11-23T00:00:00.000+09:00', '2026-11-23T00:00:00.000+09:00'],
    ['2026-11-23T23:59:59.999+09:00', '2026-11-23T00:00:00.000+09:00'],
    ['2026-11-22T15:00:00.000Z', '2026-11-23T00:00:00.000+09:00'],
    ['2026-11-22T14:59:59.999Z', '2026-11-22T00:00:00.000+09:00'],
  ])('stamps a KR trade at %s with KST midnight %s', (trade, stamp) => {
    expect(formatKst(dailyCandleStamp('KR', at(trade)))).toBe(stamp);
  });

  it.each([
    ['2026-11-23T19:59:59.999-05:00', '2026-11-23T00:00:00.000+09:00'],
    ['2026-11-23T20:00:00.000-05:00', '2026-11-24T00:00:00.000+09:00'],
    ['2026-11-24T05:59:59.000+09:00', '2026-11-23T00:00:00.000+09:00'],
    ['2026-07-15T20:00:00.000-04:00', '2026-07-16T00:00:00.000+09:00'],
  ])('stamps a US trade at %s with the KST midnight of its US trading day %s', (trade, stamp) => {
    expect(formatKst(dailyCandleStamp('US', at(trade)))).toBe(stamp);
  });
});

describe('usTradingDate', () => {
  it.each([
    ['winter (EST)', '2026-11-23T19:59:59.999-05:00', '2026-11-23'],
    ['winter (EST)', '2026-11-23T20:00:00.000-05:00', '2026-11-24'],
    ['winter, given in KST', '2026-11-24T09:59:59.999+09:00', '2026-11-23'],
    ['winter, given in KST', '2026-11-24T10:00:00.000+09:00', '2026-11-24'],
    ['summer (EDT)', '2026-07-15T19:59:59.999-04:00', '2026-07-15'],
    ['summer (EDT)', '2026-07-15T20:00:00.000-04:00', '2026-07-16'],
    ['summer, given in KST', '2026-07-16T08:59:59.999+09:00', '2026-07-15'],
    ['summer, given in KST', '2026-07-16T09:00:00.000+09:00', '2026-07-16'],
    ['day before DST starts (EST)', '2026-03-07T19:59:59.999-05:00', '2026-03-07'],
    ['day before DST starts (EST)', '2026-03-07T20:00:00.000-05:00', '2026-03-08'],
    ['DST start day (EDT)', '2026-03-08T19:59:59.999-04:00', '2026-03-08'],
    ['DST start day (EDT)', '2026-03-08T20:00:00.000-04:00', '2026-03-09'],
    ['DST start day, given in KST', '2026-03-09T08:59:59.999+09:00', '2026-03-08'],
    ['DST start day, given in KST', '2026-03-09T09:00:00.000+09:00', '2026-03-09'],
    ['day before DST ends (EDT)', '2026-10-31T19:59:59.999-04:00', '2026-10-31'],
    ['day before DST ends (EDT)', '2026-10-31T20:00:00.000-04:00', '2026-11-01'],
    ['DST end day (EST)', '2026-11-01T19:59:59.999-05:00', '2026-11-01'],
    ['DST end day (EST)', '2026-11-01T20:00:00.000-05:00', '2026-11-02'],
    ['DST end day, given in UTC', '2026-11-02T00:59:59.999Z', '2026-11-01'],
    ['DST end day, given in UTC', '2026-11-02T01:00:00.000Z', '2026-11-02'],
  ])('%s: %s belongs to %s', (_label, ts, date) => {
    expect(usTradingDate(at(ts))).toBe(date);
  });
});

describe('isPeakWindow', () => {
  it.each([
    ['2026-11-23T08:59:59.999+09:00', false],
    ['2026-11-23T09:00:00.000+09:00', true],
    ['2026-11-23T09:05:00.000+09:00', true],
    ['2026-11-23T09:09:59.999+09:00', true],
    ['2026-11-23T09:10:00.000+09:00', false],
    ['2026-11-23T00:05:00.000Z', true],
    ['2026-11-23T21:05:00.000+09:00', false],
  ])('at %s is %s', (ts, expected) => {
    expect(isPeakWindow(at(ts))).toBe(expected);
  });
});
