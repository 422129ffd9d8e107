/**
 * Exchange holidays (weekdays without trading) of the KRX and the NYSE for 2026 and 2027, plus
 * the few neighbouring dates needed to answer the previous/next business day at the edges of the
 * supported range, the NYSE's early closes and the KRX's late openings of those years. Outside
 * these years only weekends are closed and every trading day has the usual hours. Pure data: the simulator's
 * calendar endpoints, settlement dates and backtests read the same list.
 *
 * @module
 */
import type { Market } from '@hoga/core';

/** KRX full-day closures (weekdays only; weekends are closed anyway). */
export const KRX_HOLIDAYS: readonly string[] = [
  // 2025 edge (previous business day of early January 2026)
  '2025-12-25',
  '2025-12-31',
  // 2026
  '2026-01-01', // New Year's Day
  '2026-02-16', // Seollal
  '2026-02-17', // Seollal
  '2026-02-18', // Seollal
  '2026-03-02', // substitute for Independence Movement Day (Sun Mar 1)
  '2026-05-01', // Labor Day
  '2026-05-05', // Children's Day
  '2026-05-25', // substitute for Buddha's Birthday (Sun May 24)
  '2026-06-03', // local elections
  '2026-08-17', // substitute for Liberation Day (Sat Aug 15)
  '2026-09-24', // Chuseok
  '2026-09-25', // Chuseok
  '2026-09-26', // Chuseok (Saturday)
  '2026-10-05', // substitute for National Foundation Day (Sat Oct 3)
  '2026-10-09', // Hangul Day
  '2026-12-25', // Christmas
  '2026-12-31', // year-end closing
  // 2027
  '2027-01-01', // New Year's Day
  '2027-02-08', // Seollal (Feb 6–8)
  '2027-02-09', // substitute for Seollal (Sun Feb 7)
  '2027-03-01', // Independence Movement Day
  '2027-05-05', // Children's Day
  '2027-05-13', // Buddha's Birthday
  '2027-08-16', // substitute for Liberation Day (Sun Aug 15)
  '2027-09-14', // Chuseok
  '2027-09-15', // Chuseok
  '2027-09-16', // Chuseok
  '2027-10-04', // substitute for National Foundation Day (Sun Oct 3)
  '2027-10-11', // substitute for Hangul Day (Sat Oct 9)
  '2027-12-27', // substitute for Christmas (Sat Dec 25)
  '2027-12-31', // year-end closing
];

/** NYSE full-day closures (its early closes are {@link NYSE_EARLY_CLOSES}). */
export const NYSE_HOLIDAYS: readonly string[] = [
  // 2025 edge
  '2025-12-25',
  // 2026
  '2026-01-01', // New Year's Day
  '2026-01-19', // Martin Luther King Jr. Day
  '2026-02-16', // Washington's Birthday
  '2026-04-03', // Good Friday
  '2026-05-25', // Memorial Day
  '2026-06-19', // Juneteenth
  '2026-07-03', // Independence Day (observed)
  '2026-09-07', // Labor Day
  '2026-11-26', // Thanksgiving
  '2026-12-25', // Christmas
  // 2027
  '2027-01-01', // New Year's Day
  '2027-01-18', // Martin Luther King Jr. Day
  '2027-02-15', // Washington's Birthday
  '2027-03-26', // Good Friday
  '2027-05-31', // Memorial Day
  '2027-06-18', // Juneteenth (observed)
  '2027-07-05', // Independence Day (observed)
  '2027-09-06', // Labor Day
  '2027-11-25', // Thanksgiving
  '2027-12-24', // Christmas (observed)
];

/**
 * NYSE early closes: the regular session ends at 13:00 New York time (and the broker's after-market,
 * 16:00–18:00 on other days, runs 13:00–17:00, as the exchanges' late sessions do).
 */
export const NYSE_EARLY_CLOSES: readonly string[] = [
  '2026-11-27', // the day after Thanksgiving
  '2026-12-24', // Christmas Eve
  '2027-11-26', // the day after Thanksgiving (Christmas Eve 2027 is the observed Christmas holiday)
];

/** A KRX trading day's special regular hours, in minutes after KST midnight. */
export interface KrxSpecialHours {
  /** Regular session's start (usually 09:00 = 540). */
  readonly open: number;
  /** Regular session's end (usually 15:30 = 930). */
  readonly close: number;
  /** Why. */
  readonly reason: string;
}

/**
 * KRX trading days with special hours: the first trading day of the year opens an hour late
 * (10:00 KST, after the opening ceremony), and the college entrance exam (CSAT) day opens and
 * closes an hour late (10:00–16:30 KST). The CSAT day of 2027 is the usual third Thursday of
 * November, not yet announced (see `docs/api-assumptions.md`).
 */
export const KRX_SPECIAL_HOURS: Readonly<Record<string, KrxSpecialHours>> = {
  '2026-01-02': { open: 600, close: 930, reason: 'first trading day of the year' },
  '2026-11-19': { open: 600, close: 990, reason: 'college entrance exam (CSAT)' },
  '2027-01-04': { open: 600, close: 930, reason: 'first trading day of the year' },
  '2027-11-18': { open: 600, close: 990, reason: 'college entrance exam (CSAT), assumed' },
};

/**
 * The special regular hours of a KRX trading day (`YYYY-MM-DD`, KST), or undefined on a day of
 * usual hours (09:00–15:30).
 *
 * @example
 * ```ts
 * krxSpecialHours('2026-11-19'); // { open: 600, close: 990, reason: 'college entrance exam (CSAT)' }
 * ```
 */
export function krxSpecialHours(date: string): KrxSpecialHours | undefined {
  return Object.hasOwn(KRX_SPECIAL_HOURS, date) ? KRX_SPECIAL_HOURS[date] : undefined;
}

/** First and last date the holiday lists cover (inclusive): the simulator's calendar endpoints answer for this range. */
export const CALENDAR_RANGE = { from: '2026-01-01', to: '2027-12-31' } as const;

const KRX_SET: ReadonlySet<string> = new Set(KRX_HOLIDAYS);
const NYSE_SET: ReadonlySet<string> = new Set(NYSE_HOLIDAYS);
const NYSE_EARLY_SET: ReadonlySet<string> = new Set(NYSE_EARLY_CLOSES);

/** Whether a date (`YYYY-MM-DD`) is a weekday closure of a market; tells nothing about weekends. */
export type HolidayPredicate = (date: string) => boolean;

/** No holidays at all: only weekends are closed. */
export const NO_HOLIDAYS: HolidayPredicate = () => false;

/**
 * The exchange holidays this package knows for a market (KR: KRX, US: NYSE), as a predicate.
 *
 * @example
 * ```ts
 * knownHolidays('US')('2026-11-26'); // true (Thanksgiving)
 * ```
 */
export function knownHolidays(market: Market): HolidayPredicate {
  const set = market === 'KR' ? KRX_SET : NYSE_SET;
  return (date) => set.has(date);
}

/**
 * Whether a US trading date (`YYYY-MM-DD`) is one of the NYSE early closes this package knows.
 *
 * @example
 * ```ts
 * isUsEarlyClose('2026-11-27'); // true (the day after Thanksgiving: the regular session ends at 13:00)
 * ```
 */
export function isUsEarlyClose(date: string): boolean {
  return NYSE_EARLY_SET.has(date);
}
