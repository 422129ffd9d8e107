/**
 * Trading days and session hours of the two markets, as epoch milliseconds: the hours are the
 * broker model's (`@hoga/broker-model`'s session hours, which backtests judge orders by too).
 *
 * Dates are handled as day numbers (days since 1970-01-01 of a local calendar date) so that the
 * price process and the candle pager can walk days cheaply.
 *
 * KR sessions (KST, integrated KRX + NXT hours): pre-market 08:00–09:00 (single-price auction
 * from 08:50), regular 09:00–15:30 (closing single-price auction from 15:20), after-market
 * 15:30–20:00 (single-price part until 15:40).
 * US sessions (New York time, trading day D): day market 20:00 (D-1)–03:50, pre-market
 * 04:00–09:30, regular 09:30–16:00, after-market 16:00–18:00.
 *
 * @module
 */
import { isSessionDay } from '@hoga/broker-model';

export {
  dayNumber,
  isoDate,
  type KrSessions,
  krSessions,
  kstDay,
  kstMs,
  localDay,
  nyMs,
  orderSessionAt,
  type SessionSpan,
  type UsSessions,
  usRegularSessionAt,
  usSessions,
  usTradingDay,
} from '@hoga/broker-model';

/** `KR` or `US`. */
export type Country = 'KR' | 'US';

/** Whether day `dn` trades in `country`: a weekday that is not one of its known holidays. */
export function isTradingDay(country: Country, dn: number): boolean {
  return isSessionDay(country, dn);
}

export function previousTradingDay(country: Country, dn: number): number {
  let d = dn - 1;
  while (!isTradingDay(country, d)) d--;
  return d;
}

export function nextTradingDay(country: Country, dn: number): number {
  let d = dn + 1;
  while (!isTradingDay(country, d)) d++;
  return d;
}

export function tradingDayOnOrAfter(country: Country, dn: number): number {
  return isTradingDay(country, dn) ? dn : nextTradingDay(country, dn);
}

export function tradingDayOnOrBefore(country: Country, dn: number): number {
  return isTradingDay(country, dn) ? dn : previousTradingDay(country, dn);
}
