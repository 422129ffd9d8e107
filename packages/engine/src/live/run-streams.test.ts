import { type BrokerClient, MarketHours } from '@hoga/connector';
import { type MarketCalendar, parseKrMarketCalendar, ScaledClock } from '@hoga/core';
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runStreams } from './run-streams.js';

/** KR calendar around Monday 2026-11-30: Friday 11-27, Monday 11-30, Tuesday 12-01 (usual hours). */
function krCalendar(): MarketCalendar {
  const day = (date: string) => ({
    date,
    integrated: {
      preMarket: { startTime: `${date}T08:00:00+09:00`, endTime: `${date}T09:00:00+09:00` },
      regularMarket: { startTime: `${date}T09:00:00+09:00`, endTime: `${date}T15:30:00+09:00` },
      afterMarket: { startTime: `${date}T15:30:00+09:00`, endTime: `${date}T20:00:00+09:00` },
    },
  });
  return parseKrMarketCalendar({
    previousBusinessDay: day('2026-11-27'),
    today: day('2026-11-30'),
    nextBusinessDay: day('2026-12-01'),
  });
}

/** The KR pre-market opens Monday 2026-11-30 08:00 KST. */
const OPEN = Date.parse('2026-11-30T08:00:00+09:00');

/**
 * A run's streams over a client whose clock starts at `start` (KST) at `speed`, on fake timers;
 * one minute-candle stream of 005930 subscribed. `looks` counts the streams' questions whether
 * the market is open, `polls` the candle reads (clock ms of each).
 */
function streamsFrom(start: string, speed: number) {
  vi.useFakeTimers({ now: Date.parse('2026-11-30T00:00:00Z') });
  const looks = vi.spyOn(MarketHours.prototype, 'isOpen');
  const clock = new ScaledClock({ start, speed, realNowMs: () => Date.now() });
  const polls: number[] = [];
  const calendar = krCalendar();
  const client = {
    clock,
    scheduler: asyncScheduler,
    limiter: { limitOf: () => 10, rateOf: () => 10 },
    config: { rateLimitUtilization: 1 },
    getKrMarketCalendar: () => Promise.resolve(calendar),
    getUsMarketCalendar: () => Promise.reject(new Error('not asked')),
    getCandles: () => {
      polls.push(clock.nowMs());
      return Promise.resolve({ symbol: '005930', candles: [] });
    },
  } as unknown as BrokerClient;
  const streams = runStreams({ client, onError: (e) => expect(e).toBeNull() });
  const subscription = streams.candles$('005930', '1m').subscribe();
  const stop = () => {
    subscription.unsubscribe();
    streams.dispose();
  };
  return { clock, looks, polls, stop };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the streams of a paper or live run', () => {
  it.each([
    { speed: 1, realMs: 590_000, mostLooks: 40 },
    { speed: 20, realMs: 29_500, mostLooks: 10 },
  ])(
    'look at a closed market a few times in the ten minutes before its open, and poll it at the open (x$speed)',
    async ({ speed, realMs, mostLooks }) => {
      const s = streamsFrom('2026-11-30T07:50:10+09:00', speed);
      // before: about every 100 ms in the last 10 clock minutes (5,900 looks at x1, 290 at x20)
      await vi.advanceTimersByTimeAsync(realMs - 1_000);
      expect(s.clock.nowMs()).toBeLessThan(OPEN);
      expect(s.polls).toEqual([]);
      expect(s.looks.mock.calls.length).toBeLessThanOrEqual(mostLooks);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(s.polls[0]).toBeGreaterThanOrEqual(OPEN);
      expect(s.polls[0]).toBeLessThan(OPEN + 2_000);
      s.stop();
    },
  );

  it('wake at the open when the clock, frozen while they looked, is started (x0, then x20)', async () => {
    const s = streamsFrom('2026-11-30T07:59:30+09:00', 0);
    await vi.advanceTimersByTimeAsync(5_000);
    // before: about every 100 ms while frozen
    expect(s.looks.mock.calls.length).toBeLessThanOrEqual(5);
    s.clock.setSpeed(20); // 30 clock seconds to the open: 1.5 real seconds
    await vi.advanceTimersByTimeAsync(3_000);
    expect(s.polls[0]).toBeGreaterThanOrEqual(OPEN);
    expect(s.polls[0]).toBeLessThan(OPEN + 2_000);
    s.stop();
  });
});
