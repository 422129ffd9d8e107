/**
 * The broker's rate-limit groups and their published limits.
 *
 * @module
 */

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

/** A group's limit in requests per second, and the lower limit between 09:00 and 09:10 KST if any. */
export interface GroupLimit {
  readonly perSecond: number;
  readonly peakPerSecond: number | null;
}

/** The spec's table of limits per client per group. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitGroup, GroupLimit>> = {
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

/** Queue priorities inside a group: lower runs first. */
export const RequestPriority = {
  /** Cancelling an order. */
  CANCEL: 0,
  /** Creating or modifying an order. */
  ORDER: 1,
  /** A call made by a user or strategy. */
  NORMAL: 2,
  /** Background polling by the streams. */
  POLL: 3,
} as const;
/** One of {@link RequestPriority}. */
export type RequestPriority = (typeof RequestPriority)[keyof typeof RequestPriority];
