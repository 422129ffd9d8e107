/**
 * Questions about a market calendar: which session is on at an instant, when the market next
 * opens and closes. Sessions are half-open intervals `[startTime, endTime)`; US sessions may end on
 * the next KST day, which needs no special case because every time is a full instant.
 *
 * @module
 */
import type { DateTime } from 'luxon';
import {
  CALENDAR_DAY_KEYS,
  type KrCalendarDay,
  type MarketCalendar,
  type MarketSession,
  SessionName,
  type UsCalendarDay,
} from './calendar-types.js';

/** A session of one calendar day, with its name and date. */
export interface CalendarSession {
  /** Which session. */
  readonly name: SessionName;
  /** The calendar day it belongs to (`YYYY-MM-DD`; US local date for the US calendar). */
  readonly date: string;
  /** Its times. */
  readonly session: MarketSession;
}

/** A session boundary: where and when a session opens or closes. */
export interface SessionBoundary {
  /** The session that opens or closes. */
  readonly name: SessionName;
  /** Its calendar day. */
  readonly date: string;
  /** The instant of the boundary. */
  readonly at: DateTime;
}

/** Restricts a query to some sessions, e.g. `[SessionName.REGULAR_MARKET]`. Default: all. */
export type SessionFilter = readonly SessionName[] | undefined;

const KR_ORDER = [SessionName.PRE_MARKET, SessionName.REGULAR_MARKET, SessionName.AFTER_MARKET] as const;
const US_ORDER = [
  SessionName.DAY_MARKET,
  SessionName.PRE_MARKET,
  SessionName.REGULAR_MARKET,
  SessionName.AFTER_MARKET,
] as const;

function isKrDay(day: KrCalendarDay | UsCalendarDay): day is KrCalendarDay {
  return 'integrated' in day;
}

function daySessions(day: KrCalendarDay | UsCalendarDay): CalendarSession[] {
  const out: CalendarSession[] = [];
  if (isKrDay(day)) {
    const hours = day.integrated;
    if (hours === null) return out;
    for (const name of KR_ORDER) {
      const session = hours[name];
      if (session !== null) out.push({ name, date: day.date, session });
    }
    return out;
  }
  for (const name of US_ORDER) {
    const session = day[name];
    if (session !== null) out.push({ name, date: day.date, session });
  }
  return out;
}

/**
 * Every open session in the calendar, sorted by start time.
 *
 * @param calendar - a KR or US calendar
 * @param only - optional session filter
 */
export function calendarSessions(calendar: MarketCalendar, only?: SessionFilter): CalendarSession[] {
  const all = CALENDAR_DAY_KEYS.flatMap((key) => daySessions(calendar[key]));
  const filtered = only === undefined ? all : all.filter((s) => only.includes(s.name));
  return filtered.sort((a, b) => a.session.startTime.toMillis() - b.session.startTime.toMillis());
}

/**
 * Whether a calendar day trades at all (KR: `integrated` not null; US: any session not null).
 *
 * @param day - a calendar day
 */
export function isTradingDay(day: KrCalendarDay | UsCalendarDay): boolean {
  return daySessions(day).length > 0;
}

/**
 * The session in progress at an instant, or `null` when the market is closed.
 *
 * @param calendar - a KR or US calendar
 * @param at - the instant
 * @param only - optional session filter
 */
export function sessionAt(
  calendar: MarketCalendar,
  at: DateTime,
  only?: SessionFilter,
): CalendarSession | null {
  const ms = at.toMillis();
  for (const s of calendarSessions(calendar, only)) {
    if (s.session.startTime.toMillis() <= ms && ms < s.session.endTime.toMillis()) return s;
  }
  return null;
}

/**
 * Whether any (filtered) session is in progress at an instant.
 *
 * @param calendar - a KR or US calendar
 * @param at - the instant
 * @param only - optional session filter
 */
export function isMarketOpen(calendar: MarketCalendar, at: DateTime, only?: SessionFilter): boolean {
  return sessionAt(calendar, at, only) !== null;
}

/**
 * The next session start strictly after `at`, or `null` when the calendar shows none.
 *
 * @param calendar - a KR or US calendar
 * @param at - the instant
 * @param only - optional session filter
 */
export function nextOpen(
  calendar: MarketCalendar,
  at: DateTime,
  only?: SessionFilter,
): SessionBoundary | null {
  const ms = at.toMillis();
  for (const s of calendarSessions(calendar, only)) {
    if (s.session.startTime.toMillis() > ms) return { name: s.name, date: s.date, at: s.session.startTime };
  }
  return null;
}

/**
 * The end of the session in progress at `at`; when closed, the end of the next session. `null`
 * when the calendar shows none. Back-to-back sessions are separate: this is the end of one session.
 *
 * @param calendar - a KR or US calendar
 * @param at - the instant
 * @param only - optional session filter
 */
export function nextClose(
  calendar: MarketCalendar,
  at: DateTime,
  only?: SessionFilter,
): SessionBoundary | null {
  const ms = at.toMillis();
  for (const s of calendarSessions(calendar, only)) {
    if (s.session.endTime.toMillis() > ms) return { name: s.name, date: s.date, at: s.session.endTime };
  }
  return null;
}
