import { type MarketCalendar, parseKrMarketCalendar, RateLimitGroup, ScaledClock } from '@hoga/core';
import { type ObservableInput, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { BrokerClient } from '../client/broker-client.js';
import { MarketHours } from './market-hours.js';
import { PollScheduler } from './poll-scheduler.js';

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** Monday 2026-11-30 on the KR calendar: pre-market 08:00, regular 09:00, after-market to 20:00. */
function krMonday(): MarketCalendar {
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

/** A client whose calendar reads never answer: the calendar set on the market hours stays. */
const noCalendarReads = {
  getKrMarketCalendar: () => new Promise(() => undefined),
} as unknown as BrokerClient;

describe('PollScheduler', () => {
  describe('.poll$', () => {
    it('polls one job at the group rate and stops at unsubscribe', () => {
      const ts = testScheduler();
      ts.run(({ cold, expectObservable, expectSubscriptions }) => {
        const polls = new PollScheduler({ rateOf: () => 10, scheduler: ts });
        const fetch = cold('(a|)');
        const stream = polls.poll$({ group: RateLimitGroup.MARKET_DATA, key: 'k', fetch: () => fetch });
        expectObservable(stream, '^ 350ms !').toBe('a 99ms a 99ms a 99ms a');
        expectSubscriptions(fetch.subscriptions).toBe(['(^!)', '100ms (^!)', '200ms (^!)', '300ms (^!)']);
      });
    });

    it("keeps minClockIntervalMs of the clock's time between two polls: a thirtieth of it in real time at ×30", () => {
      // the broker's rate refreshed every minute of its clock: a demo at ×30 polls it every 2 real s
      // (before, the exchange rate was polled every 60 real s, 30 minutes of the broker's clock, and
      // went stale between two polls)
      const ts = testScheduler();
      ts.run(({ cold, expectObservable }) => {
        const clock = new ScaledClock({ start: 0, speed: 30, realNowMs: () => ts.now() });
        const polls = new PollScheduler({ rateOf: () => 10, scheduler: ts, clock });
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_INFO,
          key: 'k',
          minClockIntervalMs: 60_000,
          fetch: () => cold('(a|)'),
        });
        expectObservable(stream, '^ 5000ms !').toBe('a 1999ms a 1999ms a');
      });
    });

    it('keeps minClockIntervalMs in real time on a clock at real speed, frozen, or without a clock', () => {
      for (const speed of [1, 0, undefined]) {
        const ts = testScheduler();
        ts.run(({ cold, expectObservable }) => {
          const clock =
            speed === undefined ? undefined : new ScaledClock({ start: 0, speed, realNowMs: () => ts.now() });
          const polls = new PollScheduler({
            rateOf: () => 10,
            scheduler: ts,
            ...(clock === undefined ? {} : { clock }),
          });
          const stream = polls.poll$({
            group: RateLimitGroup.MARKET_INFO,
            key: 'k',
            minClockIntervalMs: 1000,
            fetch: () => cold('(a|)'),
          });
          expectObservable(stream, '^ 2500ms !').toBe('a 999ms a 999ms a');
        });
      }
    });

    it('keeps minIntervalMs between two polls of a job', () => {
      const ts = testScheduler();
      ts.run(({ cold, expectObservable }) => {
        const polls = new PollScheduler({ rateOf: () => 10, scheduler: ts });
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          minIntervalMs: 1000,
          fetch: () => cold('(a|)'),
        });
        expectObservable(stream, '^ 2500ms !').toBe('a 999ms a 999ms a');
      });
    });

    it('shares a 10/s budget fairly: 40 jobs are each polled every 4 s', () => {
      const ts = testScheduler();
      const counts = new Map<number, number>();
      ts.run(({ cold, expectObservable }) => {
        const polls = new PollScheduler({ rateOf: () => 10, scheduler: ts });
        for (let i = 0; i < 40; i++) {
          const stream = polls.poll$({
            group: RateLimitGroup.MARKET_DATA,
            key: `book${i}`,
            fetch: (): ObservableInput<number> => {
              counts.set(i, (counts.get(i) ?? 0) + 1);
              return cold('(a|)', { a: i });
            },
          });
          expectObservable(stream, '^ 11999ms !');
        }
      });
      expect([...counts.values()]).toEqual(Array(40).fill(3));
    });

    it('waits for a slow poll before polling the same job again', () => {
      const ts = testScheduler();
      ts.run(({ cold, expectObservable, expectSubscriptions }) => {
        const polls = new PollScheduler({ rateOf: () => 10, scheduler: ts });
        const fetch = cold('250ms (a|)');
        const stream = polls.poll$({ group: RateLimitGroup.MARKET_DATA, key: 'k', fetch: () => fetch });
        expectObservable(stream, '^ 600ms !').toBe('250ms a 249ms a');
        expectSubscriptions(fetch.subscriptions).toBe(['^ 249ms !', '250ms ^ 249ms !', '500ms ^ 100ms !']);
      });
    });

    it('skips jobs of a closed market and resumes when it opens', () => {
      const ts = testScheduler();
      let open = false;
      ts.run(({ cold, expectObservable }) => {
        const polls = new PollScheduler({
          rateOf: () => 10,
          scheduler: ts,
          isMarketOpen: () => open,
          closedRecheckMs: 1000,
        });
        ts.schedule(() => {
          open = true;
        }, 1500);
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          market: 'KR',
          minIntervalMs: 400,
          fetch: () => cold('(a|)'),
        });
        expectObservable(stream, '^ 2500ms !').toBe('2000ms a 399ms a');
      });
    });

    it('looks at a closed market again at its next open, in real time at the clock speed (x20)', () => {
      const ts = testScheduler();
      let closedLooks = 0;
      ts.run(({ cold, expectObservable }) => {
        const clock = new ScaledClock({ start: 0, speed: 20, realNowMs: () => ts.now() });
        // 60.05 real seconds away: looks after a 30 s wait, again after 30 s, then at the open
        const openAt = 20 * 60_000 + 1_000;
        const polls = new PollScheduler({
          rateOf: () => 10,
          scheduler: ts,
          clock,
          isMarketOpen: () => {
            if (clock.nowMs() >= openAt) return true;
            closedLooks++;
            return false;
          },
          nextOpenMs: () => openAt,
        });
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          market: 'KR',
          minIntervalMs: 400,
          fetch: () => cold('(a|)'),
        });
        // before: at the next look every 30 s, at 90 s
        expectObservable(stream, '^ 60500ms !').toBe('60050ms a 399ms a');
      });
      expect(closedLooks).toBe(3);
    });

    it('looks again when the clock is started or jumps (frozen, then x20 five seconds later)', () => {
      const ts = testScheduler();
      let closedLooks = 0;
      ts.run(({ cold, expectObservable }) => {
        const clock = new ScaledClock({ start: 0, speed: 0, realNowMs: () => ts.now() });
        const openAt = 30_000; // 1.5 real seconds at x20
        const polls = new PollScheduler({
          rateOf: () => 10,
          scheduler: ts,
          clock,
          isMarketOpen: () => {
            if (clock.nowMs() >= openAt) return true;
            closedLooks++;
            return false;
          },
          nextOpenMs: () => openAt,
        });
        ts.schedule(() => clock.setSpeed(20), 5_000);
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          market: 'KR',
          minIntervalMs: 400,
          fetch: () => cold('(a|)'),
        });
        // before the clock was followed: the next look 30 real s after the first
        expectObservable(stream, '^ 7000ms !').toBe('6500ms a 399ms a');
      });
      expect(closedLooks).toBe(2);
    });

    it('polls at the open when a look just before it stalled until the clock passed the open', () => {
      const ts = testScheduler();
      // real ms the clock moved on while the scheduler's first look at the market stalled
      let stalledMs = 0;
      ts.run(({ cold, expectObservable }) => {
        // 07:59:58 KST at x20: the pre-market opens 100 real ms later
        const clock = new ScaledClock({
          start: '2026-11-30T07:59:58+09:00',
          speed: 20,
          realNowMs: () => ts.now() + stalledMs,
        });
        const hours = new MarketHours(noCalendarReads, clock);
        hours.set('KR', krMonday());
        const polls = new PollScheduler({
          rateOf: () => 10,
          scheduler: ts,
          clock,
          isMarketOpen: (market, graceMs, atMs) => {
            const open = hours.isOpen(market, graceMs, atMs);
            // a loaded machine: 200 real ms (4 clock s) pass after the first look read the clock
            if (stalledMs === 0) stalledMs = 200;
            return open;
          },
          nextOpenMs: (market, afterMs) => hours.nextOpenMs(market, afterMs),
        });
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA_CHART,
          key: 'candles:005930:1m',
          market: 'KR',
          minIntervalMs: 400,
          fetch: () => cold('(a|)'),
        });
        // before: the next open was asked for at 08:00:02, found the regular session's 09:00, and
        // the closed market was looked at again 30 real s (10 clock minutes) later
        expectObservable(stream, '^ 500ms !').toBe('1ms a 399ms a');
      });
    });

    it('waits closedRecheckMs at most, and that while the next open is not known', () => {
      const ts = testScheduler();
      let open = false;
      ts.run(({ cold, expectObservable }) => {
        const clock = new ScaledClock({ start: 0, speed: 1, realNowMs: () => ts.now() });
        let nextOpen: number | null = 10_000;
        const polls = new PollScheduler({
          rateOf: () => 10,
          scheduler: ts,
          clock,
          isMarketOpen: () => open,
          nextOpenMs: () => nextOpen,
          closedRecheckMs: 1000,
        });
        ts.schedule(() => {
          open = true;
          nextOpen = null;
        }, 1500);
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          market: 'KR',
          minIntervalMs: 400,
          fetch: () => cold('(a|)'),
        });
        expectObservable(stream, '^ 2500ms !').toBe('2000ms a 399ms a');
      });
    });

    it('leaves no listener on the clock after the last unsubscribe', () => {
      const ts = testScheduler();
      let listeners = 0;
      const clock = {
        nowMs: () => 0,
        onChange: () => {
          listeners++;
          return () => listeners--;
        },
      };
      const polls = new PollScheduler({
        rateOf: () => 10,
        scheduler: ts,
        clock,
        isMarketOpen: () => false,
        nextOpenMs: () => 60_000,
      });
      ts.run(({ expectObservable }) => {
        for (const key of ['a', 'b']) {
          expectObservable(
            polls.poll$({ group: RateLimitGroup.MARKET_DATA, key, market: 'KR', fetch: () => of(1) }),
            '^ 100ms !',
          );
        }
        ts.schedule(() => expect(listeners).toBe(1), 50);
      });
      expect(listeners).toBe(0);
      expect(polls.activity()).toEqual({ jobs: 0, timers: 0, inFlight: 0 });
    });

    it('reports a failed poll and keeps polling', () => {
      const ts = testScheduler();
      const errors: string[] = [];
      let n = 0;
      ts.run(({ cold, expectObservable }) => {
        const polls = new PollScheduler({
          rateOf: () => 10,
          scheduler: ts,
          onError: (error, key) => errors.push(`${key}:${(error as Error).message}`),
        });
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          fetch: (): ObservableInput<string> =>
            n++ === 1 ? throwError(() => new Error('boom')) : cold<string>('(a|)'),
        });
        expectObservable(stream, '^ 250ms !').toBe('a 199ms a');
      });
      expect(errors).toEqual(['k:boom']);
    });

    it('aborts the request in flight and leaves no timer after the last unsubscribe', () => {
      const ts = testScheduler();
      const signals: AbortSignal[] = [];
      const polls = new PollScheduler({ rateOf: () => 10, scheduler: ts });
      ts.run(({ cold, expectObservable, expectSubscriptions }) => {
        const fetch = cold('300ms (a|)');
        const stream = polls.poll$({
          group: RateLimitGroup.MARKET_DATA,
          key: 'k',
          fetch: (signal) => {
            signals.push(signal);
            return fetch;
          },
        });
        expectObservable(stream, '^ 100ms !').toBe('');
        expectSubscriptions(fetch.subscriptions).toBe('^ 100ms !');
      });
      expect(signals.map((s) => s.aborted)).toEqual([true]);
      expect(polls.activity()).toEqual({ jobs: 0, timers: 0, inFlight: 0 });
    });
  });

  describe('.dispatchedCounts', () => {
    it('counts polls per group', () => {
      const ts = testScheduler();
      const polls = new PollScheduler({
        rateOf: (g) => (g === RateLimitGroup.ORDER_HISTORY ? 5 : 10),
        scheduler: ts,
      });
      ts.run(({ expectObservable }) => {
        expectObservable(
          polls.poll$({ group: RateLimitGroup.ORDER_HISTORY, key: 'o', fetch: () => of(1) }),
          '^ 999ms !',
        );
        expectObservable(
          polls.poll$({ group: RateLimitGroup.MARKET_DATA, key: 'm', fetch: () => of(1) }),
          '^ 999ms !',
        );
      });
      expect(polls.dispatchedCounts()).toEqual({ ORDER_HISTORY: 5, MARKET_DATA: 10 });
    });
  });
});
