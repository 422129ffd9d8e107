/**
 * Trading days of special regular hours the calendar data knows (2026 and 2027): the NYSE's early
 * closes and the KRX's late openings and closes. Outside those years every trading day has the
 * usual hours. Pure data: bar times (when a daily bar opens and closes), the broker model's session
 * hours, the simulator and backtests read the same lists.
 *
 * @module
 */

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

const NYSE_EARLY_SET: ReadonlySet<string> = new Set(NYSE_EARLY_CLOSES);

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
