/**
 * `orderUpdates$` over the simulator, one poll at a time: each poll of the stream starts when the
 * test lets it, and a modify's answer reaches the client when the test lets it, so the order of
 * the broker's reports and the client's answers is the test's, not the timers'.
 */
import type { OrderEvent } from '@hoga/core';
import type { SchedulerLike } from 'rxjs';
import { asyncScheduler } from 'rxjs';
import { vi } from 'vitest';
import type { CallSpec } from '../src/client/request-executor.js';
import { type OrderTracker, orderUpdates, PollScheduler } from '../src/index.js';
import type { SimFixture } from './simulator-fixture.js';

/** A promise with its resolver. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A stream whose polls run when the test says; see {@link drivenStream}. */
export type DrivenStream = ReturnType<typeof drivenStream>;

/**
 * Subscribes to `orderUpdates` whose polls wait for `poll()` (each poll starts with its read of the
 * OPEN list). The stream's scheduler stands still, so an order is held only for as long as a
 * command is in flight.
 *
 * @param fx - the simulator and client
 */
export function drivenStream(fx: SimFixture) {
  const events: OrderEvent[] = [];
  const errors: unknown[] = [];
  let tracker: OrderTracker | undefined;
  let started = gate();
  let ended = gate();
  const list = fx.client.listOrders.bind(fx.client);
  vi.spyOn(fx.client, 'listOrders').mockImplementation(async (query, options) => {
    if (query.status === 'OPEN') {
      await started.promise;
      started = gate();
    }
    return list(query, options);
  });
  const still: SchedulerLike = { now: () => 0, schedule: asyncScheduler.schedule.bind(asyncScheduler) };
  const polls = new PollScheduler({ rateOf: () => 100, onError: (e) => errors.push(e) });
  const sub = orderUpdates(fx.client, polls, 0, {
    scheduler: still,
    onTracker: (t) => {
      tracker = t;
      const prune = t.prune.bind(t);
      // a poll ends with its prune (a failed read is reported just after it)
      vi.spyOn(t, 'prune').mockImplementation((nowMs) => {
        prune(nowMs);
        ended.open();
      });
    },
  }).subscribe((e) => events.push(e));
  return {
    events,
    errors,
    tracker: () => tracker!,
    /** Runs one poll of the stream to its end. */
    async poll(): Promise<void> {
      ended = gate();
      started.open();
      await ended.promise;
      // the poll's failure, if any, is reported once its generator returned
      await new Promise((r) => setTimeout(r, 0));
    },
    stop: () => sub.unsubscribe(),
  };
}

/**
 * Holds back the answer of the next modify until `release`; `applied` settles once the broker
 * answered it.
 *
 * @param fx - the simulator and client
 */
export function holdModifyAnswer(fx: SimFixture): { applied: Promise<void>; release: () => void } {
  const applied = gate();
  const release = gate();
  const executor = fx.client.executor;
  const execute = executor.execute.bind(executor);
  vi.spyOn(executor, 'execute').mockImplementation(async (spec, options) => {
    const answer = await execute(spec as CallSpec<unknown>, options);
    if (spec.endpoint === 'modifyOrder') {
      applied.open();
      await release.promise;
    }
    return answer as never;
  });
  return { applied: applied.promise, release: release.open };
}

/** Type, client id and, for a modify, `replacement<-original price quantity`. */
export function summary(events: readonly OrderEvent[]): string[] {
  return events.map((e) =>
    e.type === 'OrderModified'
      ? `${e.type} ${e.clientOrderId} ${e.brokerOrderId}<-${e.previousBrokerOrderId} ${e.price?.toFixed()} ${e.quantity?.toFixed()}`
      : `${e.type} ${e.clientOrderId}`,
  );
}
