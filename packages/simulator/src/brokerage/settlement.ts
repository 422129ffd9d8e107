import { KST_ZONE, type Market, NEW_YORK_ZONE, usTradingDate } from '@hoga/core';
import { DateTime } from 'luxon';

/** Settlement lag in business days: KR T+2, US T+1. */
const LAG_DAYS: Readonly<Record<Market, number>> = { KR: 2, US: 1 };

/** The trading date (YYYY-MM-DD) of an instant: the KST date for KR, the US trading date for US. */
export function tradingDate(market: Market, atMs: number): string {
  const at = DateTime.fromMillis(atMs, { zone: KST_ZONE });
  return market === 'KR' ? at.toISODate()! : usTradingDate(at);
}

/**
 * Settlement date of a trade: T+2 weekdays for KR, T+1 for US. Exchange
 * holidays are not skipped (a simplification, documented).
 */
export function settlementDate(market: Market, atMs: number): string {
  let day = DateTime.fromISO(tradingDate(market, atMs), { zone: 'UTC' });
  let left = LAG_DAYS[market];
  while (left > 0) {
    day = day.plus({ days: 1 });
    if (day.weekday <= 5) left -= 1;
  }
  return day.toISODate()!;
}

/**
 * When a DAY order still open is cancelled: KR at 20:00 KST of its order date
 * (after the last session of the day); US at 20:00 New York of its US trading
 * date (the end of the after-market).
 */
export function dayOrderExpiry(market: Market, orderedAtMs: number): number {
  const date = tradingDate(market, orderedAtMs);
  const zone = market === 'KR' ? KST_ZONE : NEW_YORK_ZONE;
  return DateTime.fromISO(`${date}T20:00:00`, { zone }).toMillis();
}
