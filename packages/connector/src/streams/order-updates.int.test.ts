import { Decimal, type OrderEvent, RateLimitGroup, VirtualClock } from '@hoga/core';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BrokerClient } from '../client/broker-client.js';
import type { OrderRecord } from '../schemas/orders.js';
import { orderRecord } from './order-record.test-helper.js';
import { orderUpdates } from './order-updates.js';
import { PollScheduler } from './poll-scheduler.js';

/** A KR buy order of 5 at 100, `filled` shares filled at 100 (status from the filled quantity). */
function report(orderId: string, filled: string, status?: string): OrderRecord {
  return orderRecord(orderId, {
    filled,
    status: status ?? (new Decimal(filled).isZero() ? 'PENDING' : 'PARTIAL_FILLED'),
  });
}

/**
 * A broker client stand-in answering scripted polls: poll n lists `polls[n]` (the last one
 * repeats), and a detail read answers `details[orderId]` if given, else that poll's row, unless
 * `fails(poll, orderId)`.
 */
function scriptedClient(
  polls: readonly (readonly OrderRecord[])[],
  fails: (poll: number, orderId: string) => boolean,
  details: Readonly<Record<string, OrderRecord>> = {},
) {
  let poll = -1;
  const rows = (): readonly OrderRecord[] => polls[Math.min(poll, polls.length - 1)]!;
  const client = {
    clock: new VirtualClock('2026-11-23T10:00:00+09:00'),
    orderCommands$: new Subject(),
    orderCommandsInFlight: () => [],
    listOrders: async () => {
      poll++;
      return { orders: rows(), nextCursor: null, hasNext: false };
    },
    getOrder: async (orderId: string) => {
      if (fails(poll, orderId)) throw new Error(`detail of ${orderId} lost`);
      return rows().find((r) => r.orderId === orderId) ?? details[orderId]!;
    },
  };
  return { client: client as unknown as BrokerClient, polls: () => poll };
}

/** Fills as `<order> <quantity>` and other events by type. */
function summary(events: readonly OrderEvent[]): string[] {
  return events.map((e) =>
    e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled'
      ? `${e.type} ${e.fill.brokerOrderId} ${e.fill.quantity.toFixed()}`
      : e.type,
  );
}

/** A poll scheduler at 100 requests a second, recording each failure's message in `errors` when given. */
function pollsAt100(errors?: string[]): PollScheduler {
  return new PollScheduler({
    rateOf: () => 100,
    ...(errors === undefined ? {} : { onError: (error: unknown) => errors.push((error as Error).message) }),
  });
}

/** The events `orderUpdates` emits over `polls` until the client has been polled `count` times. */
async function eventsUntilPoll(
  client: BrokerClient,
  polls: PollScheduler,
  pollCount: () => number,
  count: number,
): Promise<OrderEvent[]> {
  const events: OrderEvent[] = [];
  const sub = orderUpdates(client, polls, 0).subscribe((e) => events.push(e));
  while (pollCount() < count) await new Promise((r) => setTimeout(r, 10));
  sub.unsubscribe();
  return events;
}

describe('orderUpdates', () => {
  it('reads the other orders of a poll when one detail keeps failing, and reports that failure', async () => {
    const { client, polls: pollCount } = scriptedClient(
      [
        [report('B', '0'), report('A', '0')],
        [report('B', '1'), report('A', '2')],
      ],
      (_poll, orderId) => orderId === 'B',
    );
    const errors: string[] = [];
    const polls = pollsAt100(errors);
    const events = await eventsUntilPoll(client, polls, pollCount, 4);
    expect(summary(events)).toEqual(['OrderPartiallyFilled A 2']);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(new Set(errors)).toEqual(new Set(['detail of B lost']));
  });

  it('reads an order that left the OPEN list between two polls and emits its last fill once', async () => {
    const { client, polls: pollCount } = scriptedClient(
      [[report('A', '0')], [report('A', '2')], []],
      () => false,
      { A: report('A', '5', 'FILLED') },
    );
    const events = await eventsUntilPoll(client, pollsAt100(), pollCount, 5);
    expect(summary(events)).toEqual(['OrderPartiallyFilled A 2', 'OrderFilled A 3']);
  });

  it('keeps the fills already read in a poll whose later detail read fails, each fill once', async () => {
    const { client, polls: pollCount } = scriptedClient(
      [
        [report('A', '0'), report('B', '0')],
        [report('A', '2'), report('B', '3')],
      ],
      (poll, orderId) => poll === 1 && orderId === 'B',
    );
    const errors: string[] = [];
    const polls = pollsAt100(errors);
    const events = await eventsUntilPoll(client, polls, pollCount, 4);
    const fills = events.map((e) =>
      e.type === 'OrderPartiallyFilled' ? `${e.fill.brokerOrderId} ${e.fill.quantity.toFixed()}` : e.type,
    );
    expect(errors).toEqual(['detail of B lost']);
    expect(fills).toEqual(['A 2', 'B 3']);
    expect(polls.activity()).toEqual({ jobs: 0, timers: 0, inFlight: 0 });
    expect(RateLimitGroup.ORDER_HISTORY in polls.dispatchedCounts()).toBe(true);
  });
});
