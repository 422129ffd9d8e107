/**
 * When a bar closes: the minute candle's stamp, or the regular session's close of a daily
 * candle's trading day (KR 15:30 KST, US 16:00 New York of the trading date).
 *
 * @module
 */
import { DateTime } from 'luxon';
import { Market } from '../instruments/market.js';
import { KST_ZONE, NEW_YORK_ZONE } from '../time/zones.js';
import { BarInterval } from './bar.js';

const HOUR_MS = 3_600_000;

/** First trading date with `1m` candles (spec, candle rule 11); daily history has no such limit. */
export const MINUTE_CANDLE_HISTORY_START: Readonly<Record<Market, string>> = {
  KR: '2022-11-23',
  US: '2021-12-01',
};
/** KST has no daylight saving time: 15:30 KST is always KST midnight + 15.5 h. */
const KR_CLOSE_AFTER_MIDNIGHT_MS = 15.5 * HOUR_MS;
/** US closes per trading date, keyed by the daily stamp (KST midnight), computed once each. */
const usCloseCache = new Map<number, number>();

/**
 * The regular session's close of the trading day whose daily candle is stamped `dailyStamp`.
 * Half days (early closes) are not known here; a calendar-aware caller may override.
 *
 * @param market - `KR` or `US`
 * @param dailyStamp - the daily candle's stamp: KST midnight of the trading date, epoch ms
 * @returns epoch ms of 15:30 KST (KR) or 16:00 New York (US) on that date
 */
export function regularCloseOfDailyStamp(market: Market, dailyStamp: number): number {
  if (market === Market.KR) return dailyStamp + KR_CLOSE_AFTER_MIDNIGHT_MS;
  const cached = usCloseCache.get(dailyStamp);
  if (cached !== undefined) return cached;
  const date = DateTime.fromMillis(dailyStamp, { zone: KST_ZONE }).toISODate() ?? '';
  const close = DateTime.fromISO(`${date}T16:00:00`, { zone: NEW_YORK_ZONE }).toMillis();
  if (usCloseCache.size > 100_000) usCloseCache.clear();
  usCloseCache.set(dailyStamp, close);
  return close;
}

/**
 * When a bar stamped `ts` is complete: `ts` itself for `1m` (the stamp is the minute's end), the
 * regular close of the trading day for `1d` (see {@link regularCloseOfDailyStamp}).
 *
 * @param market - `KR` or `US`
 * @param interval - `1m` or `1d`
 * @param ts - the candle's stamp, epoch ms
 */
export function barCloseTime(market: Market, interval: BarInterval, ts: number): number {
  return interval === BarInterval.DAY ? regularCloseOfDailyStamp(market, ts) : ts;
}
