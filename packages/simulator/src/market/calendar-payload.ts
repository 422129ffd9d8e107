/**
 * Payloads of `GET /api/v1/market-calendar/KR` and `/US`: the previous, current and next
 * business day around a date, with session hours in KST, by the simulator's calendar (its
 * declared holidays and special sessions included).
 *
 * @module
 */
import { SimApiError } from '../api-error.js';
import { kstIso } from './candles.js';
import { CALENDAR_RANGE } from './holidays.js';
import type { SimCalendar } from './sim-calendar.js';
import { type Country, dayNumber, isoDate, type SessionSpan } from './trading-calendar.js';

/** A KR calendar day. */
export interface KrDayJson {
  readonly date: string;
  readonly integrated: {
    readonly preMarket: { startTime: string; singlePriceAuctionStartTime: string; endTime: string };
    readonly regularMarket: { startTime: string; singlePriceAuctionStartTime: string; endTime: string };
    readonly afterMarket: { startTime: string; singlePriceAuctionEndTime: string; endTime: string };
  } | null;
}

/** A US session. */
export interface UsSessionJson {
  readonly startTime: string;
  readonly endTime: string;
}

/** A US calendar day. */
export interface UsDayJson {
  readonly date: string;
  readonly dayMarket: UsSessionJson | null;
  readonly preMarket: UsSessionJson | null;
  readonly regularMarket: UsSessionJson | null;
  readonly afterMarket: UsSessionJson | null;
}

/** The three days of a calendar answer. */
export interface CalendarJson<D> {
  readonly previousBusinessDay: D;
  readonly today: D;
  readonly nextBusinessDay: D;
}

/** Checks `date` against the supported range (400 `unsupported-date`). */
export function checkSupportedDate(date: string): number {
  if (date < CALENDAR_RANGE.from || date > CALENDAR_RANGE.to) {
    throw new SimApiError(
      400,
      'unsupported-date',
      `date must be from ${CALENDAR_RANGE.from} to ${CALENDAR_RANGE.to}, found ${date}`,
      { field: 'date' },
    );
  }
  return dayNumber(date);
}

function krDay(cal: SimCalendar, dn: number): KrDayJson {
  const date = isoDate(dn);
  if (!cal.isTradingDay('KR', dn)) return { date, integrated: null };
  const s = cal.krSessions(dn);
  return {
    date,
    integrated: {
      preMarket: {
        startTime: kstIso(s.preMarket.start),
        singlePriceAuctionStartTime: kstIso(s.preMarket.auctionStart ?? s.preMarket.end),
        endTime: kstIso(s.preMarket.end),
      },
      regularMarket: {
        startTime: kstIso(s.regularMarket.start),
        singlePriceAuctionStartTime: kstIso(s.regularMarket.auctionStart ?? s.regularMarket.end),
        endTime: kstIso(s.regularMarket.end),
      },
      afterMarket: {
        startTime: kstIso(s.afterMarket.start),
        singlePriceAuctionEndTime: kstIso(s.afterMarket.auctionEnd ?? s.afterMarket.start),
        endTime: kstIso(s.afterMarket.end),
      },
    },
  };
}

function usSession(span: SessionSpan): UsSessionJson {
  return { startTime: kstIso(span.start), endTime: kstIso(span.end) };
}

function usDay(cal: SimCalendar, dn: number): UsDayJson {
  const date = isoDate(dn);
  if (!cal.isTradingDay('US', dn)) {
    return { date, dayMarket: null, preMarket: null, regularMarket: null, afterMarket: null };
  }
  const s = cal.usSessions(dn);
  return {
    date,
    dayMarket: usSession(s.dayMarket),
    preMarket: usSession(s.preMarket),
    regularMarket: usSession(s.regularMarket),
    afterMarket: usSession(s.afterMarket),
  };
}

/** The KR calendar of `cal` around local date `dn`. */
export function krCalendar(cal: SimCalendar, dn: number): CalendarJson<KrDayJson> {
  return calendar(cal, 'KR', dn, krDay);
}

/** The US calendar of `cal` around US local date `dn`. */
export function usCalendar(cal: SimCalendar, dn: number): CalendarJson<UsDayJson> {
  return calendar(cal, 'US', dn, usDay);
}

function calendar<D>(
  cal: SimCalendar,
  country: Country,
  dn: number,
  day: (cal: SimCalendar, dn: number) => D,
): CalendarJson<D> {
  return {
    previousBusinessDay: day(cal, cal.previousTradingDay(country, dn)),
    today: day(cal, dn),
    nextBusinessDay: day(cal, cal.nextTradingDay(country, dn)),
  };
}
