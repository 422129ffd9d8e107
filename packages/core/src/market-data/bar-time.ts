/**
 * When a bar opens and closes: a minute candle covers the minute before its stamp; a daily candle
 * the regular session of its trading day (KR 09:00–15:30 KST, US 09:30–16:00 New York of the
 * trading date; on a day of special hours, those hours: a NYSE early close ends at 13:00, the
 * KRX's first trading day of the year opens at 10:00, its CSAT day trades 10:00–16:30).
 *
 * @module
 */
import { DateTime } from 'luxon';
import { Market } from '../instruments/market.js';
import { isUsEarlyClose, KRX_SPECIAL_HOURS } from '../sessions/special-hours.js';
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
/** KR days of special hours by daily stamp (KST midnight): their open and close after midnight, ms. */
const KR_SPECIAL_BY_STAMP: ReadonlyMap<number, { readonly open: number; readonly close: number }> = new Map(
  Object.entries(KRX_SPECIAL_HOURS).map(([date, hours]) => [
    Date.parse(`${date}T00:00:00+09:00`),
    { open: hours.open * MINUTE_MS, close: hours.close * MINUTE_MS },
  ]),
);
/** US closes per trading date, keyed by the daily stamp (KST midnight), computed once each. */
const usCloseCache = new Map<number, number>();
/** US opens per trading date, keyed as {@link usCloseCache}. */
const usOpenCache = new Map<number, number>();

/**
 * Epoch ms of a New York wall time (`HH:mm`, `hhmm` of the trading date) on the date of a daily
 * stamp, cached in `cache`.
 */
function usTimeOfDailyStamp(
  dailyStamp: number,
  hhmm: (date: string) => string,
  cache: Map<number, number>,
): number {
  const cached = cache.get(dailyStamp);
  if (cached !== undefined) return cached;
  const date = DateTime.fromMillis(dailyStamp, { zone: KST_ZONE }).toISODate() ?? '';
  const ms = DateTime.fromISO(`${date}T${hhmm(date)}:00`, { zone: NEW_YORK_ZONE }).toMillis();
  if (cache.size > 100_000) cache.clear();
  cache.set(dailyStamp, ms);
  return ms;
}

const usCloseHhmm = (date: string): string => (isUsEarlyClose(date) ? '13:00' : '16:00');
const usOpenHhmm = (): string => '09:30';

/**
 * The regular session's close of the trading day whose daily candle is stamped `dailyStamp`, on a
 * day of special hours its special close ({@link isUsEarlyClose}, {@link KRX_SPECIAL_HOURS}).
 * Before, every day closed at the usual time: a download between 15:30 and 16:30 KST of the CSAT
 * day stored the day's candle, still forming, as complete.
 *
 * @param market - `KR` or `US`
 * @param dailyStamp - the daily candle's stamp: KST midnight of the trading date, epoch ms
 * @returns epoch ms of 15:30 KST (KR) or 16:00 New York (US) on that date; 16:30 KST on the CSAT
 *   day, 13:00 New York on an early close
 */
export function regularCloseOfDailyStamp(market: Market, dailyStamp: number): number {
  if (market === Market.KR)
    return dailyStamp + (KR_SPECIAL_BY_STAMP.get(dailyStamp)?.close ?? KR_CLOSE_AFTER_MIDNIGHT_MS);
  return usTimeOfDailyStamp(dailyStamp, usCloseHhmm, usCloseCache);
}

/**
 * The regular session's open of the trading day whose daily candle is stamped `dailyStamp` (an
 * early close opens as usual; a KRX late opening at its late open, {@link KRX_SPECIAL_HOURS}).
 *
 * @param market - `KR` or `US`
 * @param dailyStamp - the daily candle's stamp: KST midnight of the trading date, epoch ms
 * @returns epoch ms of 09:00 KST (KR; 10:00 on a late opening) or 09:30 New York (US) on that date
 */
export function regularOpenOfDailyStamp(market: Market, dailyStamp: number): number {
  if (market === Market.KR)
    return dailyStamp + (KR_SPECIAL_BY_STAMP.get(dailyStamp)?.open ?? KR_OPEN_AFTER_MIDNIGHT_MS);
  return usTimeOfDailyStamp(dailyStamp, usOpenHhmm, usOpenCache);
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
