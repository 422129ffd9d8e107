/**
 * Exchange holidays (weekdays without trading) of the KRX and the NYSE for 2026 and 2027, plus
 * the few neighbouring dates needed to answer the previous/next business day at the edges of the
 * supported range; the NYSE's early closes and the KRX's special hours of those years are core's
 * (`sessions/special-hours.ts`), re-exported here. Outside these years only weekends are closed
 * and every trading day has the usual hours. Pure data: the simulator's
 * calendar endpoints, settlement dates and backtests read the same list.
 *
 * @module
 */
import type { Market } from '@hoga/core';

// the special hours live in core, whose bar times follow them; re-exported here with the calendar
export {
  isUsEarlyClose,
  KRX_SPECIAL_HOURS,
  type KrxSpecialHours,
  krxSpecialHours,
  NYSE_EARLY_CLOSES,
} from '@hoga/core';

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

/** First and last date the holiday lists cover (inclusive): the simulator's calendar endpoints answer for this range. */
export const CALENDAR_RANGE = { from: '2026-01-01', to: '2027-12-31' } as const;

const KRX_SET: ReadonlySet<string> = new Set(KRX_HOLIDAYS);
const NYSE_SET: ReadonlySet<string> = new Set(NYSE_HOLIDAYS);

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
