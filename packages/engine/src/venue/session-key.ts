/**
 * The trading-session key of a symbol at an instant: the number a simulated venue compares to end
 * DAY orders when their session is over. KR: the KST calendar day. US: the trading date, whose
 * day runs from 20:00 New York the evening before (00:00 or 01:00 UTC) to 18:00 New York (22:00 or
 * 23:00 UTC): shifted by 30 minutes, the key changes in the gap between two trading days, summer
 * and winter; not at KST midnight, which falls inside the US regular session.
 *
 * @module
 */
import { Market, marketOfSymbol } from '@hoga/core';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The shift that makes `floor((t + shift) / day)` the session key of `symbol`'s market. */
export function sessionShiftOf(symbol: string): number {
  return marketOfSymbol(symbol) === Market.US ? HOUR_MS / 2 : 9 * HOUR_MS;
}

/** The session key of `symbol` at `ms` (see the module description). */
export function sessionKeyOf(symbol: string, ms: number): number {
  return Math.floor((ms + sessionShiftOf(symbol)) / DAY_MS);
}
