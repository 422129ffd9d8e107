/**
 * `--from` / `--to` as ranges of candle stamps. A date means a trading date: KST midnight for KR
 * (and for every daily stamp, which the broker writes as KST midnight of the trading date); for US
 * minute candles, the New York trading day, which runs from 20:00 New York the evening before to
 * 20:00 on the date. Minute history is clamped to its start (KR 2022-11-23, US 2021-12-01).
 *
 * @module
 */
import {
  type BarInterval,
  barCloseTime,
  KST_ZONE,
  type Market,
  MINUTE_CANDLE_HISTORY_START,
  NEW_YORK_ZONE,
  parseDateTime,
  ValidationError,
} from '@hoga/core';
import { DateTime } from 'luxon';

/** Candle stamps `start <= ts < end`, epoch ms. */
export interface StampRange {
  readonly start: number;
  readonly end: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The first instant whose candle stamps belong to trading date `date` (exclusive bound − 1 ms). */
function dateStart(market: Market, interval: BarInterval, date: string): number {
  if (market === 'US' && interval === '1m') {
    // The candle stamped 20:00 belongs to the day before; the first of `date` is stamped 20:01.
    const eve = DateTime.fromISO(`${date}T20:00:00`, { zone: NEW_YORK_ZONE }).minus({ days: 1 });
    return eve.toMillis() + 1;
  }
  return DateTime.fromISO(date, { zone: KST_ZONE }).toMillis();
}

/**
 * The stamp of the first daily candle that closes at or after `at`: a date-time bounds daily bars
 * by their close, as it bounds minute bars (stamped at their end). `--to 2026-10-14T12:00+09:00`
 * leaves out that day's bar (it closes at 15:30), `--from 2026-10-14T10:00+09:00` keeps it.
 */
function dailyStampClosingFrom(market: Market, at: number): number {
  const zone = market === 'US' ? NEW_YORK_ZONE : KST_ZONE;
  const date = DateTime.fromMillis(at, { zone }).toISODate() ?? '';
  const stamp = dateStart(market, '1d', date);
  return barCloseTime(market, '1d', stamp) >= at ? stamp : dateStart(market, '1d', nextDate(date));
}

function nextDate(date: string): string {
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ days: 1 }).toISODate() ?? '';
}

function checkDate(value: string, field: string): void {
  if (!DATE.test(value) || !DateTime.fromISO(value, { zone: 'utc' }).isValid) {
    throw new ValidationError(
      field,
      `${field}: expected a date like "2026-11-23" or a date-time with offset, found ${JSON.stringify(value)}`,
    );
  }
}

/**
 * The first candle stamp of `from`: a date's first (see {@link tradingDateRange}), a date-time's
 * own (daily: the first daily candle closing at or after it).
 *
 * @param from - `YYYY-MM-DD` or a date-time with offset
 * @throws {@link ValidationError} naming `from` when it is neither
 */
export function firstStamp(market: Market, interval: BarInterval, from: string): number {
  if (from.includes('T')) {
    const at = parseDateTime(from, 'from').toMillis();
    return interval === '1d' ? dailyStampClosingFrom(market, at) : at;
  }
  checkDate(from, 'from');
  return dateStart(market, interval, from);
}

/**
 * The candle stamps of `--from` to `--to` (both inclusive) for one symbol's market and interval.
 * A date-time (with offset) is taken as the exact instant instead of a trading date.
 *
 * @param market - the symbol's market
 * @param interval - `1m` or `1d`
 * @param from - `YYYY-MM-DD` or an ISO date-time with offset
 * @param to - `YYYY-MM-DD` or an ISO date-time with offset (inclusive)
 * @returns the range, or null when it is empty (e.g. entirely before the minute history)
 * @throws ValidationError for a malformed date
 */
export function tradingDateRange(
  market: Market,
  interval: BarInterval,
  from: string,
  to: string,
): StampRange | null {
  let start = firstStamp(market, interval, from);
  let end: number;
  if (to.includes('T')) {
    const at = parseDateTime(to, 'to').toMillis();
    end = interval === '1d' ? dailyStampClosingFrom(market, at + 1) : at + 1;
  } else {
    checkDate(to, 'to');
    end = dateStart(market, interval, nextDate(to));
  }
  if (interval === '1m')
    start = Math.max(start, dateStart(market, interval, MINUTE_CANDLE_HISTORY_START[market]));
  return end > start ? { start, end } : null;
}
