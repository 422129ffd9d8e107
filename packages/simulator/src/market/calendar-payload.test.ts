import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from './sim-market.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON-ready payloads
type Json = any;

const q = (params: Record<string, string>): URLSearchParams => new URLSearchParams(params);
const market = (at = '2026-11-23T10:00:00+09:00'): SimMarket =>
  new SimMarket({ seed: 7, clock: new VirtualClock(at) });

describe('market calendars', () => {
  describe('.krCalendar', () => {
    it('gives the integrated KR sessions of the previous, current and next business day', () => {
      const result: Json = market().krCalendar(q({}));
      expect(result.today.date).toBe('2026-11-23');
      expect(result.previousBusinessDay.date).toBe('2026-11-20');
      expect(result.nextBusinessDay.date).toBe('2026-11-24');
      expect(result.today.integrated).toEqual({
        preMarket: {
          startTime: '2026-11-23T08:00:00.000+09:00',
          singlePriceAuctionStartTime: '2026-11-23T08:50:00.000+09:00',
          endTime: '2026-11-23T09:00:00.000+09:00',
        },
        regularMarket: {
          startTime: '2026-11-23T09:00:00.000+09:00',
          singlePriceAuctionStartTime: '2026-11-23T15:20:00.000+09:00',
          endTime: '2026-11-23T15:30:00.000+09:00',
        },
        afterMarket: {
          startTime: '2026-11-23T15:30:00.000+09:00',
          singlePriceAuctionEndTime: '2026-11-23T15:40:00.000+09:00',
          endTime: '2026-11-23T20:00:00.000+09:00',
        },
      });
    });

    it.each([
      ['2026-05-05', '2026-05-04', '2026-05-06'],
      ['2026-09-26', '2026-09-23', '2026-09-28'],
      ['2026-11-22', '2026-11-20', '2026-11-23'],
    ])('marks %s as a non-trading day between %s and %s', (date, previous, next) => {
      const result: Json = market().krCalendar(q({ date }));
      expect(result.today).toEqual({ date, integrated: null });
      expect(result.previousBusinessDay.date).toBe(previous);
      expect(result.nextBusinessDay.date).toBe(next);
      expect(result.previousBusinessDay.integrated).not.toBeNull();
    });
  });

  describe('.usCalendar', () => {
    it('gives US sessions in KST, the regular session ending on the next KST day', () => {
      const result: Json = market().usCalendar(q({ date: '2026-11-24' }));
      expect(result.today).toEqual({
        date: '2026-11-24',
        dayMarket: { startTime: '2026-11-24T10:00:00.000+09:00', endTime: '2026-11-24T17:50:00.000+09:00' },
        preMarket: { startTime: '2026-11-24T18:00:00.000+09:00', endTime: '2026-11-24T23:30:00.000+09:00' },
        regularMarket: {
          startTime: '2026-11-24T23:30:00.000+09:00',
          endTime: '2026-11-25T06:00:00.000+09:00',
        },
        afterMarket: { startTime: '2026-11-25T06:00:00.000+09:00', endTime: '2026-11-25T08:00:00.000+09:00' },
      });
      expect(result.nextBusinessDay.date).toBe('2026-11-25');
    });

    it('follows daylight saving time', () => {
      const result: Json = market().usCalendar(q({ date: '2026-07-01' }));
      expect(result.today.regularMarket).toEqual({
        startTime: '2026-07-01T22:30:00.000+09:00',
        endTime: '2026-07-02T05:00:00.000+09:00',
      });
    });

    it('closes every session on Thanksgiving', () => {
      const result: Json = market().usCalendar(q({ date: '2026-11-26' }));
      expect(result.today).toEqual({
        date: '2026-11-26',
        dayMarket: null,
        preMarket: null,
        regularMarket: null,
        afterMarket: null,
      });
      expect(result.previousBusinessDay.date).toBe('2026-11-25');
      expect(result.nextBusinessDay.date).toBe('2026-11-27');
    });

    it('ends the regular session at 13:00 New York on an early close (the day after Thanksgiving)', () => {
      const result: Json = market().usCalendar(q({ date: '2026-11-27' }));
      expect(result.today.regularMarket).toEqual({
        startTime: '2026-11-27T23:30:00.000+09:00',
        endTime: '2026-11-28T03:00:00.000+09:00',
      });
      expect(result.today.afterMarket).toEqual({
        startTime: '2026-11-28T03:00:00.000+09:00',
        endTime: '2026-11-28T07:00:00.000+09:00',
      });
      expect(result.previousBusinessDay.date).toBe('2026-11-25');
      expect(result.nextBusinessDay.regularMarket.endTime).toBe('2026-12-01T06:00:00.000+09:00');
    });

    it('defaults to the current US trading date', () => {
      // 2026-11-24 11:00 KST is 21:00 New York on the 23rd: the trading day of the 24th has begun
      expect((market('2026-11-24T11:00:00+09:00').usCalendar(q({})) as Json).today.date).toBe('2026-11-24');
      expect((market('2026-11-24T09:00:00+09:00').usCalendar(q({})) as Json).today.date).toBe('2026-11-23');
    });
  });

  describe('date validation', () => {
    it.each([
      ['KR', '2025-12-31', 'unsupported-date'],
      ['US', '2028-01-03', 'unsupported-date'],
      ['KR', '2026-13-01', 'invalid-request'],
      ['US', '20261123', 'invalid-request'],
    ] as const)('answers 400 for %s date=%s (%s)', (country, date, code) => {
      const m = market();
      let error: unknown;
      try {
        if (country === 'KR') m.krCalendar(q({ date }));
        else m.usCalendar(q({ date }));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SimApiError);
      expect((error as SimApiError).status).toBe(400);
      expect((error as SimApiError).code).toBe(code);
      expect((error as SimApiError).data).toEqual({ field: 'date' });
    });

    it.each(['2026-01-01', '2027-12-31'])('supports the edge date %s', (date) => {
      expect((market().krCalendar(q({ date })) as Json).today.date).toBe(date);
      expect((market().usCalendar(q({ date })) as Json).today.date).toBe(date);
    });
  });
});
