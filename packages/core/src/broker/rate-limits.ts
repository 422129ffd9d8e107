/**
 * The broker's rate-limit groups and its published table of limits: requests per second per
 * client per group, with the lower peak-time limits of ORDER and ORDER_INFO between 09:00 and
 * 09:10 KST. Shared by the simulator (which enforces them) and the connector (which paces itself
 * by them); the live values can differ and arrive in `X-RateLimit-Limit`.
 *
 * @module
 */
import type { DateTime } from 'luxon';
import { isPeakWindow } from '../time/candle-time.js';

/** Rate-limit groups of the spec. */
export const RateLimitGroup = {
  AUTH: 'AUTH',
  ACCOUNT: 'ACCOUNT',
  ASSET: 'ASSET',
  STOCK: 'STOCK',
  MARKET_INFO: 'MARKET_INFO',
  MARKET_DATA: 'MARKET_DATA',
  MARKET_DATA_CHART: 'MARKET_DATA_CHART',
  ORDER: 'ORDER',
  ORDER_HISTORY: 'ORDER_HISTORY',
  ORDER_INFO: 'ORDER_INFO',
} as const;
/** One of {@link RateLimitGroup}. */
export type RateLimitGroup = (typeof RateLimitGroup)[keyof typeof RateLimitGroup];

/** A group's limit in requests per second, and its lower limit in the 09:00–09:10 KST peak window. */
export interface GroupLimit {
  readonly perSecond: number;
  /** Limit inside the peak window, or null when the group has none. */
  readonly peakPerSecond: number | null;
}

/** The spec's table of limits per client per group. */
export const RATE_LIMITS: Readonly<Record<RateLimitGroup, GroupLimit>> = {
  AUTH: { perSecond: 5, peakPerSecond: null },
  ACCOUNT: { perSecond: 1, peakPerSecond: null },
  ASSET: { perSecond: 5, peakPerSecond: null },
  STOCK: { perSecond: 5, peakPerSecond: null },
  MARKET_INFO: { perSecond: 3, peakPerSecond: null },
  MARKET_DATA: { perSecond: 10, peakPerSecond: null },
  MARKET_DATA_CHART: { perSecond: 5, peakPerSecond: null },
  ORDER: { perSecond: 6, peakPerSecond: 3 },
  ORDER_HISTORY: { perSecond: 5, peakPerSecond: null },
  ORDER_INFO: { perSecond: 6, peakPerSecond: 3 },
};

/**
 * The per-second limit of `group` in force at `at`: the peak limit between 09:00 and 09:10 KST
 * where the group has one, else its normal limit.
 */
export function rateLimitAt(
  group: RateLimitGroup,
  at: DateTime,
  limits: Readonly<Record<RateLimitGroup, GroupLimit>> = RATE_LIMITS,
): number {
  const limit = limits[group];
  return limit.peakPerSecond !== null && isPeakWindow(at) ? limit.peakPerSecond : limit.perSecond;
}
