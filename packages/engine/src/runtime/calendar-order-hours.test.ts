/**
 * `ctx.marketOrderAllowed` and `ctx.regularSession` in paper and live: answered from the broker's calendar as the risk
 * module's market view last read it (here a source the test sets), asked of a strategy's host with
 * a fake clock. The simulator run over HTTP is `live/market-order-calendar.int.test.ts`.
 */
import { type Market, SessionName } from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import type { CalendarSpan, CalendarSpans } from '../risk/market-calendars.js';
import { CalendarOrderHours } from './calendar-order-hours.js';
import { amountOrderAsker, marketOrderAsker, regularSessionAsker } from './market-order-hours.test-helper.js';

const at = (iso: string): number => Date.parse(iso);

/** A session of a calendar answer, its times given as ISO instants. */
function span(name: SessionName, start: string, end: string): CalendarSpan {
  return { name, startMs: at(start), endMs: at(end) };
}

/** A calendar answer's sessions as the market view keeps them. */
function spans(...sessions: CalendarSpan[]): CalendarSpans {
  return {
    fromMs: Math.min(...sessions.map((s) => s.startMs)),
    toMs: Math.max(...sessions.map((s) => s.endMs)),
    sessions,
  };
}

/** A KR business day of the usual hours (KST). */
function krDay(date: string): CalendarSpan[] {
  return [
    span(SessionName.PRE_MARKET, `${date}T08:00:00+09:00`, `${date}T09:00:00+09:00`),
    span(SessionName.REGULAR_MARKET, `${date}T09:00:00+09:00`, `${date}T15:30:00+09:00`),
    span(SessionName.AFTER_MARKET, `${date}T15:30:00+09:00`, `${date}T20:00:00+09:00`),
  ];
}

/**
 * The broker's KR calendar around Monday 2028-01-03, a late opening at 10:00 (a special session
 * the broker model's table, which ends with 2027, does not know).
 */
const LATE_OPENING_2028 = spans(
  ...krDay('2027-12-30'),
  span(SessionName.PRE_MARKET, '2028-01-03T09:00:00+09:00', '2028-01-03T10:00:00+09:00'),
  span(SessionName.REGULAR_MARKET, '2028-01-03T10:00:00+09:00', '2028-01-03T15:30:00+09:00'),
  span(SessionName.AFTER_MARKET, '2028-01-03T15:30:00+09:00', '2028-01-03T20:00:00+09:00'),
  ...krDay('2028-01-04'),
);

/**
 * The broker's US calendar around Thanksgiving 2028: Wednesday 11-22 of the usual hours, no
 * session on Thursday, and Friday 11-24 an early close at 13:00 (a day the broker model's table,
 * which ends with 2027, does not know).
 */
const US_EARLY_CLOSE_2028 = spans(
  span(SessionName.REGULAR_MARKET, '2028-11-22T09:30:00-05:00', '2028-11-22T16:00:00-05:00'),
  span(SessionName.REGULAR_MARKET, '2028-11-24T09:30:00-05:00', '2028-11-24T13:00:00-05:00'),
  span(SessionName.AFTER_MARKET, '2028-11-24T13:00:00-05:00', '2028-11-24T17:00:00-05:00'),
);

/** A host of `mode` whose clock the test sets, over the calendars in `calendars` (per market). */
function askAt(calendars: Partial<Record<Market, CalendarSpans>>, mode: TradingMode = 'paper') {
  const orderHours = new CalendarOrderHours({ orderSessions: (market) => calendars[market] });
  return marketOrderAsker({ mode, interval: '1m', orderHours });
}

describe('ctx.marketOrderAllowed by the broker calendar (paper, live)', () => {
  it('a weekday the broker closes answers false all day, the business days around it by their hours', () => {
    // Monday 2026-11-23 closed: previous business day Friday 11-20, next Tuesday 11-24
    const ask = askAt({ KR: spans(...krDay('2026-11-20'), ...krDay('2026-11-24')) });
    expect(ask('005930', '2026-11-20T10:00:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-23T09:00:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-23T12:00:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-24T08:59:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-24T09:00:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-24T15:30:00+09:00')).toBe(false);
  });

  it('a special session the broker model does not know: a regular session from 10:00 takes market orders from 10:00', () => {
    const ask = askAt({ KR: LATE_OPENING_2028 });
    expect(ask('005930', '2028-01-03T09:30:00+09:00')).toBe(false);
    expect(ask('005930', '2028-01-03T10:00:00+09:00')).toBe(true);
    expect(ask('005930', '2028-01-03T15:29:00+09:00')).toBe(true);
    expect(ask('005930', '2028-01-03T15:30:00+09:00')).toBe(false);
  });

  it('a closure announced during the day (the calendar read again) answers false at once, within the session', () => {
    const calendars: Partial<Record<Market, CalendarSpans>> = {
      KR: spans(...krDay('2026-11-20'), ...krDay('2026-11-23'), ...krDay('2026-11-24')),
    };
    const ask = askAt(calendars);
    expect(ask('005930', '2026-11-23T10:00:00+09:00')).toBe(true);
    calendars.KR = spans(...krDay('2026-11-20'), ...krDay('2026-11-24'));
    expect(ask('005930', '2026-11-23T10:01:00+09:00')).toBe(false);
  });

  it('answers false while the calendar does not tell the hours (not read, or not for that day), as the risk module denies then', () => {
    const calendars: Partial<Record<Market, CalendarSpans>> = {};
    const ask = askAt(calendars);
    expect(ask('005930', '2026-11-23T10:00:00+09:00')).toBe(false);
    calendars.KR = spans(...krDay('2026-11-20'), ...krDay('2026-11-23'), ...krDay('2026-11-24'));
    expect(ask('005930', '2026-11-23T10:00:00+09:00')).toBe(true);
    // past the calendar's next business day: its hours are unknown until it is read again
    expect(ask('005930', '2026-11-25T10:00:00+09:00')).toBe(false);
  });

  it('each market by its own calendar: US by the US one (an early close the broker gives), KR not by it', () => {
    const ask = askAt({ US: US_EARLY_CLOSE_2028 });
    expect(ask('AAPL', '2028-11-24T12:59:00-05:00')).toBe(true);
    expect(ask('AAPL', '2028-11-24T13:00:00-05:00')).toBe(false);
    // Thanksgiving 2028 (no session in the broker's calendar), and KR with no calendar read
    expect(ask('AAPL', '2028-11-23T11:00:00-05:00')).toBe(false);
    expect(ask('005930', '2028-11-24T10:00:00+09:00')).toBe(false);
  });
});

describe('ctx.amountOrderAllowed by the broker calendar (paper, live)', () => {
  /** A host asking `amountOrderAllowed` over the calendars in `calendars` (per market). */
  function amountAt(calendars: Partial<Record<Market, CalendarSpans>>, mode: TradingMode = 'paper') {
    const orderHours = new CalendarOrderHours({ orderSessions: (market) => calendars[market] });
    return amountOrderAsker({ mode, interval: '1m', orderHours });
  }

  it("the broker's early close the broker model does not know (2028): its window ends an hour before 13:00", () => {
    const ask = amountAt({
      US: US_EARLY_CLOSE_2028,
    });
    expect(ask('AAPL', '2028-11-22T14:59:00-05:00')).toBe(true);
    expect(ask('AAPL', '2028-11-22T15:00:00-05:00')).toBe(false);
    expect(ask('AAPL', '2028-11-24T09:29:00-05:00')).toBe(false);
    expect(ask('AAPL', '2028-11-24T09:30:00-05:00')).toBe(true);
    expect(ask('AAPL', '2028-11-24T11:59:59.999-05:00')).toBe(true);
    expect(ask('AAPL', '2028-11-24T12:00:00-05:00')).toBe(false);
    // Thanksgiving 2028: no session in the broker's calendar
    expect(ask('AAPL', '2028-11-23T11:00:00-05:00')).toBe(false);
  });

  it('answers false while the calendar does not tell the day, live as paper', () => {
    const calendars: Partial<Record<Market, CalendarSpans>> = {};
    const ask = amountAt(calendars, 'live');
    expect(ask('AAPL', '2028-11-22T11:00:00-05:00')).toBe(false);
    calendars.US = US_EARLY_CLOSE_2028;
    expect(ask('AAPL', '2028-11-22T11:00:00-05:00')).toBe(true);
  });
});

describe('ctx.regularSession by the broker calendar (paper, live)', () => {
  /** A host asking `regularSession` over the calendars in `calendars` (per market). */
  function sessionAt(calendars: Partial<Record<Market, CalendarSpans>>) {
    const orderHours = new CalendarOrderHours({ orderSessions: (market) => calendars[market] });
    return regularSessionAsker({ mode: 'live', interval: '1m', orderHours });
  }

  it("a late opening the broker model does not know (2028): the broker's 10:00, not the model's 09:00", () => {
    const ask = sessionAt({ KR: LATE_OPENING_2028 });
    expect(ask('005930', '2028-01-03T09:30:00+09:00')).toEqual({
      date: '2028-01-03',
      open: at('2028-01-03T10:00:00+09:00'),
      close: at('2028-01-03T15:30:00+09:00'),
    });
    expect(ask('005930', '2028-01-04T08:00:00+09:00')?.open).toBe(at('2028-01-04T09:00:00+09:00'));
  });

  it("a weekday the broker closes is null; undefined while the calendar does not tell the day; the broker's early close", () => {
    const calendars: Partial<Record<Market, CalendarSpans>> = {};
    const ask = sessionAt(calendars);
    expect(ask('005930', '2026-11-23T10:00:00+09:00')).toBeUndefined();
    calendars.KR = spans(...krDay('2026-11-20'), ...krDay('2026-11-24'));
    expect(ask('005930', '2026-11-23T10:00:00+09:00')).toBeNull();
    expect(ask('005930', '2026-11-25T10:00:00+09:00')).toBeUndefined();
    calendars.US = US_EARLY_CLOSE_2028;
    expect(ask('AAPL', '2028-11-24T10:00:00-05:00')?.close).toBe(at('2028-11-24T13:00:00-05:00'));
    expect(ask('AAPL', '2028-11-23T10:00:00-05:00')).toBeNull();
  });
});
