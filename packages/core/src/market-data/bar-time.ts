/**
 * When a bar opens and closes: a minute candle covers the minute before its stamp; a daily candle
 * the regular session of its trading day (KR 09:00–15:30 KST, US 09:30–16:00 New York of the
 * trading date).
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
const MINUTE_MS = 60_000;
/** KST has no daylight saving time: 15:30 KST is always KST midnight + 15.5 h. */
const KR_CLOSE_AFTER_MIDNIGHT_MS = 15.5 * HOUR_MS;
/** 09:00 KST is always KST midnight + 9 h. */
const KR_OPEN_AFTER_MIDNIGHT_MS = 9 * HOUR_MS;
/** US closes per trading date, keyed by the daily stamp (KST midnight), computed once each. */
const usCloseCache = new Map<number, number>();
/** US opens per trading date, keyed as {@link usCloseCache}. */
const usOpenCache = new Map<number, number>();

/** Epoch ms of New York wall time `hhmm` (`HH:mm`) on the date of a daily stamp, cached in `cache`. */
function usTimeOfDailyStamp(dailyStamp: number, hhmm: string, cache: Map<number, number>): number {
  const cached = cache.get(dailyStamp);
  if (cached !== undefined) return cached;
  const date = DateTime.fromMillis(dailyStamp, { zone: KST_ZONE }).toISODate() ?? '';
  const ms = DateTime.fromISO(`${date}T${hhmm}:00`, { zone: NEW_YORK_ZONE }).toMillis();
  if (cache.size > 100_000) cache.clear();
  cache.set(dailyStamp, ms);
  return ms;
}

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
  return usTimeOfDailyStamp(dailyStamp, '16:00', usCloseCache);
}

/**
 * The regular session's open of the trading day whose daily candle is stamped `dailyStamp` (an
 * early close opens as usual; a KR late opening is not known here).
 *
 * @param market - `KR` or `US`
 * @param dailyStamp - the daily candle's stamp: KST midnight of the trading date, epoch ms
 * @returns epoch ms of 09:00 KST (KR) or 09:30 New York (US) on that date
 */
export function regularOpenOfDailyStamp(market: Market, dailyStamp: number): number {
  if (market === Market.KR) return dailyStamp + KR_OPEN_AFTER_MIDNIGHT_MS;
  return usTimeOfDailyStamp(dailyStamp, '09:30', usOpenCache);
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

/**
 * When the period of a bar stamped `ts` begins: the minute's start (`ts` − 1 minute) for `1m`, the
 * regular open of the trading day for `1d` (see {@link regularOpenOfDailyStamp}). An order accepted
 * after it was not there for the bar's open.
 *
 * @param market - `KR` or `US`
 * @param interval - `1m` or `1d`
 * @param ts - the candle's stamp, epoch ms
 */
export function barOpenTime(market: Market, interval: BarInterval, ts: number): number {
  return interval === BarInterval.DAY ? regularOpenOfDailyStamp(market, ts) : ts - MINUTE_MS;
}
