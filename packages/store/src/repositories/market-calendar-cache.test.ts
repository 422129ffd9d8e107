import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import {
  CALENDAR_FRESH_MS,
  type CalendarMarket,
  calendarUsable,
  isFinalCalendar,
  marketDate,
} from './market-calendar-cache.js';

const MINUTE = 60_000;
const at = (iso: string) => Date.parse(iso);

describe('marketDate', () => {
  it.each([
    ['KR', '2026-11-23T23:59:59.999+09:00', '2026-11-23'],
    ['KR', '2026-11-24T00:00:00+09:00', '2026-11-24'],
    ['US', '2026-11-24T13:59:59+09:00', '2026-11-23'], // 23:59:59 in New York (EST)
    ['US', '2026-11-24T14:00:00+09:00', '2026-11-24'],
    ['US', '2026-07-01T13:00:00+09:00', '2026-07-01'], // midnight in New York (EDT)
  ] as const)('%s at %s is %s', (market, iso, date) => {
    expect(marketDate(market, at(iso))).toBe(date);
  });
});

describe('isFinalCalendar', () => {
  const now = at('2026-11-25T10:00:00+09:00');
  it.each([
    ['an answer about last week', 'KR', '2026-11-16', '2026-11-17', true],
    ['an answer whose next business day was yesterday', 'KR', '2026-11-23', '2026-11-24', true],
    ['an answer whose next business day is today', 'KR', '2026-11-24', '2026-11-25', false],
    ['an answer about today', 'KR', '2026-11-25', '2026-11-26', false],
    ['an answer about a day ahead', 'KR', '2026-12-01', '2026-12-02', false],
    // 20:00 on the 24th in New York: the 24th is its today
    ['a US answer whose next business day is New York’s today', 'US', '2026-11-23', '2026-11-24', false],
    ['a US answer whose next business day was New York’s yesterday', 'US', '2026-11-20', '2026-11-23', true],
  ] as const)('%s: %s', (_, market, date, lastDate, final) => {
    expect(isFinalCalendar(market, date, lastDate, now)).toBe(final);
  });
});

describe('calendarUsable', () => {
  /** Whether an answer of `market` read at `fetchedIso` is used after the clock moved `advanceMs`. */
  function usedAfter(market: CalendarMarket, fetchedIso: string, advanceMs: number, final = false) {
    const clock = new VirtualClock(at(fetchedIso));
    const entry = { market, final, fetchedAt: clock.nowMs() };
    clock.advance(advanceMs);
    return calendarUsable(entry, clock.nowMs());
  }

  it('uses an answer about today up to the freshness after it was read, not from then on', () => {
    expect(usedAfter('KR', '2026-11-23T10:00:00+09:00', 0)).toBe(true);
    expect(usedAfter('KR', '2026-11-23T10:00:00+09:00', CALENDAR_FRESH_MS - 1)).toBe(true);
    expect(usedAfter('KR', '2026-11-23T10:00:00+09:00', CALENDAR_FRESH_MS)).toBe(false);
    expect(usedAfter('KR', '2026-11-23T10:00:00+09:00', 3 * 3_600_000)).toBe(false);
  });

  it('does not use an answer read on the market day before, however recent', () => {
    expect(usedAfter('KR', '2026-11-23T23:58:00+09:00', MINUTE)).toBe(true);
    expect(usedAfter('KR', '2026-11-23T23:58:00+09:00', 3 * MINUTE)).toBe(false);
    // New York's midnight: 14:00 KST in winter
    expect(usedAfter('US', '2026-11-24T13:58:00+09:00', 3 * MINUTE)).toBe(false);
    expect(usedAfter('KR', '2026-11-24T13:58:00+09:00', 3 * MINUTE)).toBe(true);
  });

  it('does not use an answer read "after" now (a clock set back)', () => {
    const fetchedAt = at('2026-11-23T10:00:00+09:00');
    expect(calendarUsable({ market: 'KR', final: false, fetchedAt }, fetchedAt - 1)).toBe(false);
  });

  it('uses a final answer always', () => {
    expect(usedAfter('KR', '2026-11-23T10:00:00+09:00', 400 * 86_400_000, true)).toBe(true);
    expect(usedAfter('US', '2026-11-23T10:00:00+09:00', CALENDAR_FRESH_MS, true)).toBe(true);
  });
});
