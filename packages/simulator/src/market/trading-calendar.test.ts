import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { KRX_HOLIDAYS, NYSE_HOLIDAYS } from './holidays.js';
import {
  dayNumber,
  isoDate,
  isTradingDay,
  nextTradingDay,
  orderSessionAt,
  previousTradingDay,
  usRegularSessionAt,
  usTradingDay,
} from './trading-calendar.js';

const ms = (iso: string): number => DateTime.fromISO(iso, { setZone: true }).toMillis();

describe('trading-calendar', () => {
  describe('.isTradingDay', () => {
    it.each(KRX_HOLIDAYS.filter((d) => d >= '2026-01-01'))('closes KR on the holiday %s', (date) => {
      expect(isTradingDay('KR', dayNumber(date))).toBe(false);
    });
    it.each(NYSE_HOLIDAYS.filter((d) => d >= '2026-01-01'))('closes US on the holiday %s', (date) => {
      expect(isTradingDay('US', dayNumber(date))).toBe(false);
    });
    it.each([
      ['KR', '2026-11-21', false], // Saturday
      ['KR', '2026-11-22', false], // Sunday
      ['KR', '2026-11-23', true],
      ['KR', '2026-11-26', true], // US Thanksgiving, KRX open
      ['US', '2026-11-26', false],
      ['US', '2026-06-03', true], // KR election day, NYSE open
      ['KR', '2026-06-03', false],
      ['US', '2027-12-31', true], // NYSE does not close for New Year's Day on a Saturday
    ] as const)('on %s %s answers %s', (country, date, open) => {
      expect(isTradingDay(country, dayNumber(date))).toBe(open);
    });
  });

  describe('.previousTradingDay', () => {
    it.each([
      ['KR', '2026-11-23', '2026-11-20'],
      ['KR', '2026-02-19', '2026-02-13'], // Seollal Feb 16–18
      ['KR', '2026-01-02', '2025-12-30'], // Dec 31 year-end closing
      ['US', '2026-11-27', '2026-11-25'],
      ['US', '2026-07-06', '2026-07-02'],
    ] as const)('in %s before %s is %s', (country, date, expected) => {
      expect(isoDate(previousTradingDay(country, dayNumber(date)))).toBe(expected);
    });
  });

  describe('.nextTradingDay', () => {
    it.each([
      ['KR', '2026-09-23', '2026-09-28'], // Chuseok Sep 24–26 then Sunday
      ['KR', '2026-10-02', '2026-10-06'], // Oct 5 substitute holiday
      ['US', '2026-04-02', '2026-04-06'], // Good Friday
    ] as const)('in %s after %s is %s', (country, date, expected) => {
      expect(isoDate(nextTradingDay(country, dayNumber(date)))).toBe(expected);
    });
  });

  describe('.usTradingDay', () => {
    it.each([
      ['2026-11-23T19:59:59.999-05:00', '2026-11-23'],
      ['2026-11-23T20:00:00.000-05:00', '2026-11-24'],
      ['2026-11-23T10:00:00+09:00', '2026-11-23'], // Sunday 20:00 New York
      ['2026-07-01T21:00:00-04:00', '2026-07-02'],
    ])('puts %s on %s', (at, expected) => {
      expect(isoDate(usTradingDay(ms(at)))).toBe(expected);
    });
  });

  describe('.orderSessionAt', () => {
    it.each([
      ['KR', '2026-11-23T07:59:59+09:00', null],
      ['KR', '2026-11-23T08:00:00+09:00', 'preMarket'],
      ['KR', '2026-11-23T08:55:00+09:00', 'preMarket'],
      ['KR', '2026-11-23T09:00:00+09:00', 'regularMarket'],
      ['KR', '2026-11-23T15:29:59+09:00', 'regularMarket'],
      ['KR', '2026-11-23T15:30:00+09:00', 'afterMarket'],
      ['KR', '2026-11-23T19:59:59+09:00', 'afterMarket'],
      ['KR', '2026-11-23T20:00:00+09:00', null],
      ['KR', '2026-11-21T10:00:00+09:00', null], // Saturday
      ['KR', '2026-12-31T10:00:00+09:00', null], // year-end closing
      ['US', '2026-11-23T10:00:00+09:00', 'dayMarket'], // Sunday 20:00 New York
      ['US', '2026-11-23T17:49:59+09:00', 'dayMarket'], // 03:49:59 New York
      ['US', '2026-11-23T17:55:00+09:00', null], // 03:55 gap
      ['US', '2026-11-23T18:00:00+09:00', 'preMarket'],
      ['US', '2026-11-23T23:30:00+09:00', 'regularMarket'],
      ['US', '2026-11-24T05:59:59+09:00', 'regularMarket'],
      ['US', '2026-11-24T06:00:00+09:00', 'afterMarket'],
      ['US', '2026-11-24T08:00:00+09:00', null], // 18:00 New York
      ['US', '2026-11-26T23:30:00+09:00', null], // Thanksgiving
      ['US', '2026-07-01T22:30:00+09:00', 'regularMarket'], // EDT: 09:30 New York is 22:30 KST
    ] as const)('in %s at %s is %s', (country, at, expected) => {
      expect(orderSessionAt(country, ms(at))).toBe(expected);
    });
  });

  describe('.usRegularSessionAt', () => {
    it('gives the bounds of the regular session containing the instant', () => {
      const span = usRegularSessionAt(ms('2026-11-24T01:00:00+09:00'));
      expect(span).not.toBeNull();
      expect(span?.start).toBe(ms('2026-11-23T09:30:00-05:00'));
      expect(span?.end).toBe(ms('2026-11-23T16:00:00-05:00'));
    });
    it('gives null outside the regular session', () => {
      expect(usRegularSessionAt(ms('2026-11-23T09:29:59-05:00'))).toBeNull();
      expect(usRegularSessionAt(ms('2026-11-26T10:00:00-05:00'))).toBeNull();
    });
  });
});
