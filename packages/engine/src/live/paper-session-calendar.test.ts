/**
 * `calendarSessionAt`: the session a working paper order trades in, by the broker's calendar as
 * last read where it tells the instant, else by the broker model's session hours.
 */
import { Market, SessionName } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { CalendarSpans } from '../risk/market-calendars.js';
import { calendarSessionAt } from './paper-session-rules.js';

const at = (iso: string) => Date.parse(iso);

/** Monday 2026-11-23 as a broker declaring a KR regular session of 09:00–15:00 would tell it. */
const SPECIAL: CalendarSpans = {
  fromMs: at('2026-11-23T00:00:00+09:00'),
  toMs: at('2026-11-24T00:00:00+09:00'),
  sessions: [
    {
      name: SessionName.PRE_MARKET,
      startMs: at('2026-11-23T08:00:00+09:00'),
      endMs: at('2026-11-23T08:50:00+09:00'),
    },
    {
      name: SessionName.REGULAR_MARKET,
      startMs: at('2026-11-23T09:00:00+09:00'),
      endMs: at('2026-11-23T15:00:00+09:00'),
    },
    {
      name: SessionName.AFTER_MARKET,
      startMs: at('2026-11-23T15:30:00+09:00'),
      endMs: at('2026-11-23T20:00:00+09:00'),
    },
  ],
};

describe('calendarSessionAt', () => {
  const calendar = { orderSessions: (m: Market) => (m === Market.KR ? SPECIAL : undefined) };
  const sessionAt = (market: Market, ms: number) => calendarSessionAt(calendar, market, ms);

  it("answers the calendar's session where it tells the instant: the special close at 15:00", () => {
    expect(sessionAt(Market.KR, at('2026-11-23T14:59:59+09:00'))).toBe(SessionName.REGULAR_MARKET);
    expect(sessionAt(Market.KR, at('2026-11-23T15:00:00+09:00'))).toBeNull();
    expect(sessionAt(Market.KR, at('2026-11-23T15:10:00+09:00'))).toBeNull();
    expect(sessionAt(Market.KR, at('2026-11-23T16:00:00+09:00'))).toBe(SessionName.AFTER_MARKET);
  });

  it("answers the broker model's hours for a day the calendar does not hold, and a market it has none of", () => {
    // the next day: the table's regular session to 15:30
    expect(sessionAt(Market.KR, at('2026-11-24T15:10:00+09:00'))).toBe(SessionName.REGULAR_MARKET);
    expect(sessionAt(Market.US, at('2026-11-23T10:00:00-05:00'))).toBe(SessionName.REGULAR_MARKET);
    expect(calendarSessionAt(undefined, Market.KR, at('2026-11-23T15:10:00+09:00'))).toBe(
      SessionName.REGULAR_MARKET,
    );
  });
});
