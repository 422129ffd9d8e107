import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, RateLimitGroup, rateLimitAt } from './rate-limits.js';

const kst = (iso: string) => DateTime.fromISO(iso, { setZone: true });

describe('rateLimitAt', () => {
  const cases: ReadonlyArray<readonly [RateLimitGroup, string, number]> = [
    [RateLimitGroup.ORDER, '2026-11-23T08:59:59.999+09:00', 6],
    [RateLimitGroup.ORDER, '2026-11-23T09:00:00.000+09:00', 3],
    [RateLimitGroup.ORDER, '2026-11-23T09:09:59.999+09:00', 3],
    [RateLimitGroup.ORDER, '2026-11-23T09:10:00.000+09:00', 6],
    [RateLimitGroup.ORDER_INFO, '2026-11-23T09:05:00.000+09:00', 3],
    [RateLimitGroup.ORDER_INFO, '2026-11-23T10:00:00.000+09:00', 6],
    [RateLimitGroup.MARKET_DATA, '2026-11-23T09:05:00.000+09:00', 10],
    [RateLimitGroup.ACCOUNT, '2026-11-23T09:05:00.000+09:00', 1],
    // 09:05 KST written in New York time is still inside the window.
    [RateLimitGroup.ORDER, '2026-11-22T19:05:00.000-05:00', 3],
  ];
  it.each(cases)('gives %s at %s a limit of %d per second', (group, at, expected) => {
    expect(rateLimitAt(group, kst(at))).toBe(expected);
  });

  it('reads the table the spec publishes', () => {
    expect(Object.keys(RATE_LIMITS).sort()).toEqual(Object.values(RateLimitGroup).sort());
    expect(RATE_LIMITS.MARKET_DATA_CHART).toEqual({ perSecond: 5, peakPerSecond: null });
  });
});
