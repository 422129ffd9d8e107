import { RATE_LIMITS, type RateLimitGroup } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

function fakeTime(): { now: () => number; advance: (ms: number) => void } {
  let ms = 1_000;
  return { now: () => ms, advance: (step) => (ms += step) };
}

const table: readonly [RateLimitGroup, number, number][] = [
  ['AUTH', 5, 5],
  ['ACCOUNT', 1, 1],
  ['ASSET', 5, 5],
  ['STOCK', 5, 5],
  ['MARKET_INFO', 3, 3],
  ['MARKET_DATA', 10, 10],
  ['MARKET_DATA_CHART', 5, 5],
  ['ORDER', 6, 3],
  ['ORDER_HISTORY', 5, 5],
  ['ORDER_INFO', 6, 3],
];

describe('RateLimiter', () => {
  describe('.limitOf', () => {
    it.each(table)('gives %s %i per second and %i in the peak window', (group, normal, peak) => {
      const limiter = new RateLimiter();
      expect(limiter.limitOf(group, false)).toBe(normal);
      expect(limiter.limitOf(group, true)).toBe(peak);
      expect(RATE_LIMITS[group].perSecond).toBe(normal);
    });
  });

  describe('.take', () => {
    it.each(table)('allows a burst of the %s limit and then refuses', (group, normal) => {
      const time = fakeTime();
      const limiter = new RateLimiter({ nowMs: time.now });
      const remaining = Array.from({ length: normal }, () => limiter.take('c', group, false));
      expect(remaining.map((d) => d.allowed)).toEqual(Array(normal).fill(true));
      expect(remaining.map((d) => d.remaining)).toEqual(
        Array.from({ length: normal }, (_, i) => normal - 1 - i),
      );
      const refused = limiter.take('c', group, false);
      expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: normal });
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    it('refills one token per 1/limit seconds of wall time', () => {
      const time = fakeTime();
      const limiter = new RateLimiter({ nowMs: time.now });
      for (let i = 0; i < 10; i++) limiter.take('c', 'MARKET_DATA', false);
      expect(limiter.take('c', 'MARKET_DATA', false).allowed).toBe(false);
      time.advance(99);
      expect(limiter.take('c', 'MARKET_DATA', false).allowed).toBe(false);
      time.advance(2);
      expect(limiter.take('c', 'MARKET_DATA', false)).toMatchObject({ allowed: true, remaining: 0 });
      time.advance(10_000);
      expect(limiter.take('c', 'MARKET_DATA', false)).toMatchObject({ allowed: true, remaining: 9 });
    });

    it('keeps separate buckets per client and per group', () => {
      const limiter = new RateLimiter({ nowMs: fakeTime().now });
      expect(limiter.take('a', 'ACCOUNT', false).allowed).toBe(true);
      expect(limiter.take('a', 'ACCOUNT', false).allowed).toBe(false);
      expect(limiter.take('b', 'ACCOUNT', false).allowed).toBe(true);
      expect(limiter.take('a', 'ASSET', false).allowed).toBe(true);
    });

    it('caps the bucket at the peak limit inside the peak window', () => {
      const limiter = new RateLimiter({ nowMs: fakeTime().now });
      const allowed = Array.from({ length: 6 }, () => limiter.take('c', 'ORDER', true).allowed);
      expect(allowed).toEqual([true, true, true, false, false, false]);
    });

    it('reports the seconds until one token is back, and 0 when the bucket is full', () => {
      const time = fakeTime();
      const limiter = new RateLimiter({ nowMs: time.now });
      const first = limiter.take('c', 'ACCOUNT', false);
      expect(first).toMatchObject({ limit: 1, remaining: 0, resetSeconds: 1, retryAfterSeconds: null });
      time.advance(5_000);
      const decision = limiter.take('c', 'MARKET_DATA', false);
      expect(decision.resetSeconds).toBe(1);
    });

    it('allows everything when disabled', () => {
      const limiter = new RateLimiter({ enabled: false, nowMs: fakeTime().now });
      const decisions = Array.from({ length: 50 }, () => limiter.take('c', 'ACCOUNT', false));
      expect(decisions.every((d) => d.allowed && d.remaining === 1)).toBe(true);
    });
  });

  describe('.refuse', () => {
    it('reports an empty bucket without consuming', () => {
      const limiter = new RateLimiter({ nowMs: fakeTime().now });
      expect(limiter.refuse('ORDER', false)).toEqual({
        allowed: false,
        limit: 6,
        remaining: 0,
        resetSeconds: 1,
        retryAfterSeconds: 1,
      });
      expect(limiter.take('c', 'ORDER', false).remaining).toBe(5);
    });
  });
});
