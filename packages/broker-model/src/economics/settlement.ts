/**
 * Trading dates, settlement dates and the end of a DAY order's life.
 *
 * @module
 */
import { KST_ZONE, type Market, NEW_YORK_ZONE, usTradingDate } from '@hoga/core';
import { DateTime } from 'luxon';
import { type HolidayPredicate, knownHolidays } from '../calendar/exchange-holidays.js';

/** Settlement lag in business days: KR T+2, US T+1. */
export const SETTLEMENT_LAG_DAYS: Readonly<Record<Market, number>> = { KR: 2, US: 1 };

/** The trading date (`YYYY-MM-DD`) of an instant: the KST date for KR, the US trading date for US. */
export function tradingDate(market: Market, atMs: number): string {
  const at = DateTime.fromMillis(atMs, { zone: KST_ZONE });
  return market === 'KR' ? at.toISODate()! : usTradingDate(at);
}

/**
 * Whether a date (`YYYY-MM-DD`) is a business day: a weekday that is not a holiday.
 *
 * @param holidays - weekday closures
 */
export function isBusinessDay(date: string, holidays: HolidayPredicate): boolean {
  return DateTime.fromISO(date, { zone: 'UTC' }).weekday <= 5 && !holidays(date);
}

/**
 * The `lag`-th business day after `date` (`YYYY-MM-DD`), skipping weekends and `holidays`.
 */
export function addBusinessDays(date: string, lag: number, holidays: HolidayPredicate): string {
  let day = DateTime.fromISO(date, { zone: 'UTC' });
  let left = lag;
  while (left > 0) {
    day = day.plus({ days: 1 });
    if (isBusinessDay(day.toISODate()!, holidays)) left -= 1;
  }
  return day.toISODate()!;
}

/**
 * Settlement date of a trade executed at `atMs`: T+2 business days for KR, T+1 for US, counted
 * from its trading date and skipping weekends and the market's holidays.
 *
 * @param holidays - the market's weekday closures; defaults to the holidays this package knows
 *   ({@link knownHolidays}); pass a predicate built from a live calendar to use another list
 * @example
 * ```ts
 * settlementDate('US', Date.parse('2026-11-25T15:00:00Z')); // '2026-11-27' (Thanksgiving skipped)
 * ```
 */
export function settlementDate(
  market: Market,
  atMs: number,
  holidays: HolidayPredicate = knownHolidays(market),
): string {
  return addBusinessDays(tradingDate(market, atMs), SETTLEMENT_LAG_DAYS[market], holidays);
}

const DAY_MS = 86_400_000;
const KST_OFFSET_MS = 9 * 3_600_000;
/** 20:00 KST as a time of the UTC day. */
const KR_EXPIRY_UTC_MS = 11 * 3_600_000;

/**
 * When a DAY order still open is cancelled: KR at 20:00 KST of its order date (after the last
 * session of the day); US at 20:00 New York of its US trading date (the end of the after-market).
 */
export function dayOrderExpiry(market: Market, orderedAtMs: number): number {
  // KST has no daylight saving (a fixed UTC+9 since 1988): 20:00 KST of the KST date is 11:00 UTC,
  // reckoned without a time-zone lookup (a backtest asks this of thousands of orders)
  if (market === 'KR') return Math.floor((orderedAtMs + KST_OFFSET_MS) / DAY_MS) * DAY_MS + KR_EXPIRY_UTC_MS;
  return DateTime.fromISO(`${tradingDate(market, orderedAtMs)}T20:00:00`, { zone: NEW_YORK_ZONE }).toMillis();
}
