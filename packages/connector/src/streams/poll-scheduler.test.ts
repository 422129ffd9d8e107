import { RateLimitGroup } from '@hoga/core';
import { type ObservableInput, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { PollScheduler } from './poll-scheduler.js';

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

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
