/**
 * Candle time rules: minute candles are stamped with their end, daily candles with the KST midnight
 * of their trading day, and the US trading day runs from 20:00 New York the day before to 20:00.
 *
 * @module
 */
import { DateTime } from 'luxon';
import { Market } from '../instruments/market.js';
import { KST_ZONE, NEW_YORK_ZONE, toKst } from './zones.js';

/** Hour (New York local time) at which a new US trading day begins. */
const US_DAY_ROLL_HOUR = 20;

/**
 * End stamp of the one-minute candle that contains `ts` (in KST).
 * A trade at 09:02:00.000 belongs to the candle ending 09:03; one at 08:59:59.999 to 09:00.
 *
 * @param ts - time of a trade
 */
export function minuteCandleEnd(ts: DateTime): DateTime {
  return toKst(ts).startOf('minute').plus({ minutes: 1 });
}

/**
 * The US trading date of an instant: 20:00 New York on day D-1 up to (not including) 20:00 on
 * day D belong to day D.
 *
 * @param ts - any instant
 * @returns `YYYY-MM-DD`
 */
export function usTradingDate(ts: DateTime): string {
  const ny = ts.setZone(NEW_YORK_ZONE);
  const day = ny.hour >= US_DAY_ROLL_HOUR ? ny.plus({ days: 1 }) : ny;
  return day.toISODate() ?? '';
}

/**
 * Stamp of the daily candle that contains `ts`: KST midnight of its trading day. The KR trading day
 * is the KST calendar date; the US one is {@link usTradingDate}.
 *
 * @param market - `KR` or `US`
 * @param ts - any instant
 */
export function dailyCandleStamp(market: Market, ts: DateTime): DateTime {
  if (market === Market.US) {
    return DateTime.fromISO(usTradingDate(ts), { zone: KST_ZONE });
  }
  return toKst(ts).startOf('day');
}

/** Whether `ts` falls in the KST peak window 09:00:00 ≤ t < 09:10:00 (lower order rate limits). */
export function isPeakWindow(ts: DateTime): boolean {
  const kst = toKst(ts);
  return kst.hour === 9 && kst.minute < 10;
}
