/**
 * Holidays and special sessions declared to the simulator (start option `calendar`, control API
 * `POST /_sim/calendar`), on top of the calendar it knows (`@hoga/broker-model`'s holidays,
 * early closes and late openings): a declared holiday closes a weekday, a declared special
 * session gives a trading day other regular-session hours (a late opening, an early close).
 * Its calendar endpoints answer them and its order rules obey them (see {@link SimCalendar}).
 *
 * Times are the market's own wall time, `HH:MM`: KST for KR, New York time for US.
 *
 * @module
 */
import {
  CALENDAR_RANGE,
  isSessionDay,
  isUsEarlyClose,
  knownHolidays,
  krRegularHours,
} from '@hoga/broker-model';
import { firstSchemaIssue, type Market, schemaIssueText } from '@hoga/core';
import { z } from 'zod';
import { SimApiError } from '../api-error.js';
import { dayNumber, isoDate } from './trading-calendar.js';

/** A weekday the market is closed. */
export interface HolidayDeclaration {
  readonly market: Market;
  /** `YYYY-MM-DD`, the market's local date (for US, the trading date). */
  readonly date: string;
}

/**
 * A trading day with other regular-session hours: `open` and/or `close` (`HH:MM`, the market's
 * wall time); the one left out keeps the day's usual time. KR: 09:00 ≤ open, close ≤ 19:50 (the
 * pre-market is the hour before the open, the after-market runs from the close to 20:00). US:
 * 09:30 ≤ open, close ≤ 16:00 (the pre-market runs 04:00 to the open; after an early close the
 * after-market ends at 17:00).
 */
export interface SpecialSessionDeclaration {
  readonly market: Market;
  readonly date: string;
  readonly open?: string;
  readonly close?: string;
}

/** What can be declared at once. */
export interface CalendarDeclaration {
  readonly holidays?: readonly HolidayDeclaration[];
  readonly specialSessions?: readonly SpecialSessionDeclaration[];
}

/** Regular-session hours of a day, minutes after local midnight. */
export interface RegularHours {
  readonly open: number;
  readonly close: number;
}

const market = z.enum(['KR', 'US']);
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((d) => isoDate(dayNumber(d)) === d, 'expected a calendar date')
  .refine(
    (d) => d >= CALENDAR_RANGE.from && d <= CALENDAR_RANGE.to,
    `expected a date from ${CALENDAR_RANGE.from} to ${CALENDAR_RANGE.to}`,
  );
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected HH:MM (24 h)');

/** The schema of a {@link CalendarDeclaration} (strict: an unknown key is refused). */
export const calendarDeclarationSchema = z.strictObject({
  holidays: z.array(z.strictObject({ market, date })).optional(),
  specialSessions: z
    .array(
      z
        .strictObject({ market, date, open: hhmm.optional(), close: hhmm.optional() })
        .refine(
          (s) => s.open !== undefined || s.close !== undefined,
          'expected an open or a close (or both)',
        ),
    )
    .optional(),
});

function invalid(field: string, message: string): SimApiError {
  return new SimApiError(400, 'invalid-request', `${field}: ${message}`, { field });
}

function minutes(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function wallTime(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
}

/** The usual regular hours of `market`'s day `dn` by the built-in calendar. */
function usualHours(market: Market, dn: number): RegularHours {
  if (market === 'KR') return krRegularHours(dn);
  return { open: 9 * 60 + 30, close: isUsEarlyClose(isoDate(dn)) ? 13 * 60 : 16 * 60 };
}

/** Earliest open and latest close a declaration may give. */
const BOUNDS: Record<Market, RegularHours> = {
  KR: { open: 9 * 60, close: 19 * 60 + 50 },
  US: { open: 9 * 60 + 30, close: 16 * 60 },
};

/** The declared holidays and special sessions (see the module docs). */
export class DeclaredCalendar {
  private readonly holidays = new Map<Market, Set<string>>([
    ['KR', new Set()],
    ['US', new Set()],
  ]);
  private readonly sessions = new Map<Market, Map<string, RegularHours>>([
    ['KR', new Map()],
    ['US', new Map()],
  ]);

  /**
   * Adds every declaration of `input` (validated first, nothing added when one is wrong). A holiday
   * replaces a special session of its date; a special session on a weekend or a holiday is refused.
   *
   * @throws {@link SimApiError} 400 `invalid-request` naming the field
   */
  declare(input: unknown): void {
    const parsed = calendarDeclarationSchema.safeParse(input);
    if (!parsed.success) {
      // the first failed field, its value and what was expected (before, zod's own words:
      // `holidays: Invalid input: expected array, received string`, the value unsaid)
      const issue = firstSchemaIssue(parsed.error, input, 'calendar');
      throw invalid(issue.field, schemaIssueText(issue));
    }
    const { holidays = [], specialSessions = [] } = parsed.data;
    const closed = new Set(holidays.map((h) => `${h.market}:${h.date}`));
    const hours = specialSessions.map((s, i) => {
      const field = `specialSessions.${i}`;
      const dn = dayNumber(s.date);
      if (closed.has(`${s.market}:${s.date}`) || !this.isOpenDay(s.market, dn)) {
        throw invalid(`${field}.date`, `${s.market} ${s.date} is not a trading day`);
      }
      const usual = usualHours(s.market, dn);
      const open = s.open === undefined ? usual.open : minutes(s.open);
      const close = s.close === undefined ? usual.close : minutes(s.close);
      const bounds = BOUNDS[s.market];
      if (open < bounds.open) {
        throw invalid(`${field}.open`, `${s.market} opens at ${wallTime(bounds.open)} or later`);
      }
      if (close > bounds.close) {
        throw invalid(`${field}.close`, `${s.market} closes at ${wallTime(bounds.close)} or earlier`);
      }
      if (close - open < 20) {
        throw invalid(
          `${field}.close`,
          `expected a close at least 20 minutes after the open ${wallTime(open)}`,
        );
      }
      return { market: s.market, date: s.date, hours: { open, close } };
    });
    for (const h of holidays) {
      this.holidays.get(h.market)?.add(h.date);
      this.sessions.get(h.market)?.delete(h.date);
    }
    for (const s of hours) this.sessions.get(s.market)?.set(s.date, s.hours);
  }

  /** Forgets every declaration. */
  clear(): void {
    for (const set of this.holidays.values()) set.clear();
    for (const map of this.sessions.values()) map.clear();
  }

  /** Whether `date` of `market` is a declared holiday. */
  isHoliday(market: Market, date: string): boolean {
    return this.holidays.get(market)?.has(date) ?? false;
  }

  /** The declared regular hours of `market`'s day `dn`, or undefined (the usual ones apply). */
  hours(market: Market, dn: number): RegularHours | undefined {
    const map = this.sessions.get(market);
    return map === undefined || map.size === 0 ? undefined : map.get(isoDate(dn));
  }

  /** Every declaration, in the shape `declare` takes (dates in order; hours as `HH:MM`). */
  list(): { holidays: HolidayDeclaration[]; specialSessions: Required<SpecialSessionDeclaration>[] } {
    const holidays: HolidayDeclaration[] = [];
    const specialSessions: Required<SpecialSessionDeclaration>[] = [];
    for (const [m, set] of this.holidays)
      for (const d of [...set].sort()) holidays.push({ market: m, date: d });
    for (const [m, map] of this.sessions) {
      for (const [d, h] of [...map].sort(([a], [b]) => a.localeCompare(b))) {
        specialSessions.push({ market: m, date: d, open: wallTime(h.open), close: wallTime(h.close) });
      }
    }
    return { holidays, specialSessions };
  }

  /** A weekday neither the built-in calendar nor a declaration closes. */
  private isOpenDay(market: Market, dn: number): boolean {
    return isSessionDay(market, dn, (d) => knownHolidays(market)(d) || this.isHoliday(market, d));
  }
}
