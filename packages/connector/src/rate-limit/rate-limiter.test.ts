import { RateLimitGroup, VirtualClock } from '@hoga/core';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { RateShare } from './process-rate-share.js';
import { RequestPriority } from './rate-limit-groups.js';
import { RateLimiter } from './rate-limiter.js';

/** A limiter on virtual time, and a way to move that time while letting promises settle. */
function setup(at = '2026-11-23T10:00:00+09:00', share?: RateShare) {
  const scheduler = new VirtualTimeScheduler(undefined, 0);
  const clock = new VirtualClock(at);
  const limiter = new RateLimiter({ clock, scheduler, ...(share === undefined ? {} : { share }) });
  const advanceTo = async (ms: number) => {
    for (let t = scheduler.frame; t <= ms; t += 5) {
      scheduler.maxFrames = t;
      scheduler.flush();
      for (let i = 0; i < 5; i++) await Promise.resolve();
    }
  };
  const grants: { label: string; at: number }[] = [];
  const take = (group: RateLimitGroup, label: string, priority: RequestPriority = RequestPriority.NORMAL) =>
    limiter.acquire(group, priority).then(() => grants.push({ label, at: scheduler.now() }));
  return { scheduler, clock, limiter, advanceTo, grants, take };
}

describe('RateLimiter', () => {
  describe('.acquire', () => {
    it('grants a burst of the limit, then one token per 1/limit s', async () => {
      const { advanceTo, grants, take } = setup();
      for (let i = 0; i < 15; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      await advanceTo(600);
      expect(grants.slice(0, 9).every((g) => g.at === 0)).toBe(true);
      // The tenth waits for the safety margin (50 ms of refill) on top of the last whole token.
      expect(grants[9]!.at).toBeGreaterThanOrEqual(50);
      expect(grants[9]!.at).toBeLessThanOrEqual(54);
      // Paced at the limit, a few ms behind the ideal slots (the safety margin against jitter).
      grants.slice(10).forEach((g, i) => {
        expect(g.at - (i + 1) * 100 - 50).toBeGreaterThanOrEqual(0);
        expect(g.at - (i + 1) * 100 - 50).toBeLessThanOrEqual(4);
      });
    });

    it("uses its process's share of the limit: half the rate with two processes, the whole again once alone", async () => {
      let fraction = 0.5;
      const { advanceTo, grants, take } = setup(undefined, {
        join: () => {},
        fraction: () => fraction,
        close: () => {},
      });
      for (let i = 0; i < 10; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      await advanceTo(2_200);
      // another process was there from the start: no burst into what it may have left, one token
      // (and the safety margin, 50 ms of refill) at 5 a second first, then one every 200 ms
      const at = grants.map((g) => g.at);
      expect(at[0]).toBeGreaterThanOrEqual(250);
      expect(at[0]).toBeLessThanOrEqual(255);
      at.slice(1).forEach((t, i) => {
        expect(t - at[i]!).toBeGreaterThanOrEqual(199);
        expect(t - at[i]!).toBeLessThanOrEqual(205);
      });
      // the other process ended: the whole rate again (no emptying when the share grows)
      fraction = 1;
      const from = grants.length;
      for (let i = 0; i < 5; i++) void take(RateLimitGroup.MARKET_DATA, `s${i}`);
      await advanceTo(3_000);
      const later = grants.slice(from).map((g) => g.at);
      expect(later).toHaveLength(5);
      expect(later[4]! - later[0]!).toBeLessThanOrEqual(420);
    });

    it("counts its process among the client's from its first request on, not when asked its rate", async () => {
      let joined = 0;
      const { limiter, advanceTo, grants, take } = setup(undefined, {
        join: () => joined++,
        fraction: () => 1,
        close: () => {},
      });
      // the poll scheduler and the start-up estimates ask the rate before any request
      expect(limiter.rateOf(RateLimitGroup.MARKET_DATA)).toBeGreaterThan(0);
      expect(joined).toBe(0);
      void take(RateLimitGroup.MARKET_DATA, 'r0');
      await advanceTo(10);
      expect(grants).toHaveLength(1);
      expect(joined).toBeGreaterThan(0);
    });

    it('joins at each request it is asked for: not at a refill, a header or a wait aborted before it began', async () => {
      let joined = 0;
      const { limiter, advanceTo, grants, take } = setup(undefined, {
        join: () => joined++,
        fraction: () => 1,
        close: () => {},
      });
      // a header read and a 429's stop drain the group's queue: no request of this process is in it
      limiter.observe(RateLimitGroup.MARKET_DATA, {
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '9',
      });
      limiter.penalize(RateLimitGroup.MARKET_DATA, 100);
      const aborted = new AbortController();
      aborted.abort();
      await expect(
        limiter.acquire(RateLimitGroup.MARKET_DATA, RequestPriority.NORMAL, aborted.signal),
      ).rejects.toThrow(/aborted/);
      expect(joined).toBe(0);
      // three requests, granted over the refill timers after the stop: one join each, none per timer
      for (let i = 0; i < 3; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      await advanceTo(1_000);
      expect(grants).toHaveLength(3);
      expect(joined).toBe(3);
    });

    it('empties its buckets when another process of the client starts, and bursts one request at least', async () => {
      let fraction = 1;
      const { scheduler, advanceTo, grants, take } = setup(undefined, {
        join: () => {},
        fraction: () => fraction,
        close: () => {},
      });
      for (let i = 0; i < 5; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      scheduler.schedule(() => {}, 1_000);
      await advanceTo(10);
      // alone: a burst of five at once
      expect(grants.map((g) => g.at)).toEqual([0, 0, 0, 0, 0]);
      await advanceTo(1_000);
      // another process starts: what the bucket refilled meanwhile (5 tokens) is not spent at once
      fraction = 0.5;
      for (let i = 0; i < 3; i++) void take(RateLimitGroup.MARKET_DATA, `s${i}`);
      await advanceTo(2_000);
      const later = grants.slice(5).map((g) => g.at);
      expect(later[0]).toBeGreaterThanOrEqual(1_250);
      expect(later[2]).toBeGreaterThanOrEqual(1_650);
      // a group of 1 a second shared by two: one request at a time, one every 2 s (a burst of one
      // keeps no safety margin, as the whole limit of 1 does not)
      const account = setup(undefined, { join: () => {}, fraction: () => 0.5, close: () => {} });
      for (let i = 0; i < 3; i++) void account.take(RateLimitGroup.ACCOUNT, `a${i}`);
      await account.advanceTo(6_200);
      expect(account.grants.map((g) => Math.round(g.at / 100) * 100)).toEqual([2_000, 4_000, 6_000]);
    });

    it.each([
      { group: RateLimitGroup.ORDER, at: '2026-11-23T09:05:00+09:00', expected: 3 },
      { group: RateLimitGroup.ORDER, at: '2026-11-23T09:10:00+09:00', expected: 6 },
      { group: RateLimitGroup.ORDER_INFO, at: '2026-11-23T09:00:00+09:00', expected: 3 },
      { group: RateLimitGroup.MARKET_DATA, at: '2026-11-23T09:05:00+09:00', expected: 10 },
      { group: RateLimitGroup.ACCOUNT, at: '2026-11-23T12:00:00+09:00', expected: 1 },
    ])('limits $group to $expected/s at $at', async ({ group, at, expected }) => {
      const { limiter, advanceTo, grants, take } = setup(at);
      expect(limiter.limitOf(group)).toBe(expected);
      for (let i = 0; i < expected + 2; i++) void take(group, `r${i}`);
      await advanceTo(1000);
      // A burst of the limit: all but the last at once, the last after the 50 ms safety margin.
      expect(grants.filter((g) => g.at === 0)).toHaveLength(Math.max(1, expected - 1));
      expect(grants.filter((g) => g.at <= 60)).toHaveLength(expected);
    });

    it('serves cancels, then orders, then normal calls, then polls when queued', async () => {
      const { advanceTo, grants, take } = setup();
      for (let i = 0; i < 6; i++) void take(RateLimitGroup.ORDER, `fill${i}`);
      void take(RateLimitGroup.ORDER, 'poll', RequestPriority.POLL);
      void take(RateLimitGroup.ORDER, 'normal', RequestPriority.NORMAL);
      void take(RateLimitGroup.ORDER, 'create', RequestPriority.ORDER);
      void take(RateLimitGroup.ORDER, 'cancel', RequestPriority.CANCEL);
      await advanceTo(1000);
      expect(grants.slice(5).map((g) => g.label)).toEqual(['cancel', 'create', 'fill5', 'normal', 'poll']);
    });

    it('rejects a waiter whose signal aborts and serves the next one', async () => {
      const { limiter, advanceTo, grants, take } = setup();
      for (let i = 0; i < 10; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      const controller = new AbortController();
      const aborted = limiter.acquire(RateLimitGroup.MARKET_DATA, RequestPriority.NORMAL, controller.signal);
      void take(RateLimitGroup.MARKET_DATA, 'next');
      controller.abort();
      await expect(aborted).rejects.toMatchObject({ failure: 'aborted' });
      await advanceTo(150);
      expect(grants.at(-1)?.label).toBe('next');
      expect(grants.at(-1)!.at).toBeGreaterThanOrEqual(150);
      expect(grants.at(-1)!.at).toBeLessThanOrEqual(154);
    });
  });

  describe('.reserve', () => {
    it('spaces requests by the time their answers come: a burst that leaves late delays the next one as much', async () => {
      const { limiter, scheduler, advanceTo, grants, take } = setup();
      const late = Array.from({ length: 9 }, () =>
        limiter.reserve(RateLimitGroup.MARKET_DATA, RequestPriority.NORMAL),
      );
      for (let i = 0; i < 3; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      const held = await Promise.all(late);
      // The nine leave 150 ms late (waiting for the access token) and are answered 30 ms later:
      // the server counted them somewhere in between, at 180 ms at the latest.
      scheduler.schedule(() => {
        for (const permit of held) permit.depart();
      }, 150);
      scheduler.schedule(() => {
        for (const permit of held) permit.answered();
      }, 180);
      await advanceTo(170);
      // Nothing more while they may still be on their way.
      expect(grants).toEqual([]);
      await advanceTo(700);
      // The tenth after 50 ms of refill from the answers, the next ones a token (100 ms) apart.
      const sinceAnswer = grants.map((g) => g.at - 180);
      expect(sinceAnswer).toHaveLength(3);
      sinceAnswer.forEach((d, i) => {
        expect(d - 50 - 100 * i).toBeGreaterThanOrEqual(0);
        expect(d - 50 - 100 * i).toBeLessThanOrEqual(4);
      });
    });

    it('takes a request unanswered for a second to have arrived, so hung requests do not block the group', async () => {
      const { limiter, advanceTo, grants, take } = setup();
      const held = await Promise.all(
        Array.from({ length: 9 }, () => limiter.reserve(RateLimitGroup.MARKET_DATA, RequestPriority.NORMAL)),
      );
      for (const permit of held) permit.depart();
      void take(RateLimitGroup.MARKET_DATA, 'next');
      await advanceTo(900);
      expect(grants).toEqual([]);
      await advanceTo(1_200);
      // The nine spent at 1,000 ms (never answered): one token left, plus 50 ms for the margin.
      expect(grants.map((g) => g.label)).toEqual(['next']);
      expect(grants[0]!.at).toBeGreaterThanOrEqual(1_050);
      expect(grants[0]!.at).toBeLessThanOrEqual(1_054);
    });

    it('gives the slot back when the request is released without leaving', async () => {
      const { limiter, advanceTo, grants, take } = setup();
      const first = await limiter.reserve(RateLimitGroup.ACCOUNT, RequestPriority.NORMAL);
      void take(RateLimitGroup.ACCOUNT, 'next');
      await advanceTo(100);
      expect(grants).toEqual([]);
      first.release();
      first.depart(); // settled already: spends nothing
      await advanceTo(110);
      expect(grants.map((g) => g.label)).toEqual(['next']);
      expect(grants[0]!.at).toBeLessThanOrEqual(100);
      expect(limiter.grantedCounts().ACCOUNT).toBe(2);
    });
  });

  describe('RatePermit.refused', () => {
    it('doubles the safety margin after a 429 and lets it decay back over minutes', async () => {
      const { limiter, scheduler, advanceTo, grants, take } = setup();
      expect(limiter.safetyMarginMs(RateLimitGroup.STOCK)).toBe(50);
      (await limiter.reserve(RateLimitGroup.STOCK, RequestPriority.NORMAL)).refused(1000);
      expect(limiter.safetyMarginMs(RateLimitGroup.STOCK)).toBe(100);
      void take(RateLimitGroup.STOCK, 'after');
      await advanceTo(1500);
      // One token at 5/s (200 ms) after the block, plus the doubled margin.
      expect(grants[0]!.at).toBeGreaterThanOrEqual(1300);
      expect(grants[0]!.at).toBeLessThanOrEqual(1304);
      const seen: { at: number; margin: number }[] = [];
      scheduler.schedule(() => {
        seen.push({ at: scheduler.now(), margin: limiter.safetyMarginMs(RateLimitGroup.STOCK) });
      }, 60_000);
      await advanceTo(62_000);
      // The extra 50 ms halves every minute since the 429 (at 0).
      expect(seen[0]!.at).toBeGreaterThanOrEqual(60_000);
      expect(seen[0]!.margin).toBeCloseTo(50 + 50 * 2 ** (-seen[0]!.at / 60_000), 6);
      expect(seen[0]!.margin).toBeLessThan(75);
    });
  });

  describe('.observe', () => {
    it('adopts X-RateLimit-Limit and caps tokens by X-RateLimit-Remaining', async () => {
      const { limiter, advanceTo, grants, take } = setup();
      limiter.observe(RateLimitGroup.MARKET_DATA, { 'x-ratelimit-limit': '4', 'x-ratelimit-remaining': '1' });
      expect(limiter.limitOf(RateLimitGroup.MARKET_DATA)).toBe(4);
      for (let i = 0; i < 4; i++) void take(RateLimitGroup.MARKET_DATA, `r${i}`);
      await advanceTo(1000);
      expect(grants.map((g) => g.at)).toEqual([0, 0, 250, 500]);
    });
  });

  describe('.penalize', () => {
    it('holds the group for Retry-After after a 429', async () => {
      const { limiter, advanceTo, grants, take } = setup();
      limiter.penalize(RateLimitGroup.STOCK, 1000);
      void take(RateLimitGroup.STOCK, 'after');
      await advanceTo(1500);
      expect(grants.map((g) => g.label)).toEqual(['after']);
      // One token at 5/s (200 ms) after the block, plus the 50 ms safety margin.
      expect(grants[0]!.at).toBeGreaterThanOrEqual(1250);
      expect(grants[0]!.at).toBeLessThanOrEqual(1254);
    });
  });

  describe('.dispose', () => {
    it('rejects waiters and leaves no timer', async () => {
      const { limiter, scheduler } = setup();
      for (let i = 0; i < 10; i++)
        void limiter.acquire(RateLimitGroup.ACCOUNT, RequestPriority.NORMAL).catch(() => {});
      const last = limiter.acquire(RateLimitGroup.ACCOUNT, RequestPriority.NORMAL);
      limiter.dispose();
      await expect(last).rejects.toMatchObject({ failure: 'aborted' });
      expect(scheduler.actions).toHaveLength(0);
    });
  });
});
