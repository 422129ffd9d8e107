/**
 * `orderUpdates$`: polls the OPEN order list, reads the detail of every order whose row changed and
 * of every tracked order that left the list (filled, cancelled, rejected or replaced between two
 * polls), and emits the differences as core order events, each fill exactly once.
 *
 * @module
 */
import type { OrderEvent } from '@hoga/core';
import { defer, mergeMap, Observable } from 'rxjs';
import type { BrokerClient } from '../client/broker-client.js';
import type { OrderCommandNotice } from '../client/order-operations.js';
import { RateLimitGroup, RequestPriority } from '../rate-limit/rate-limit-groups.js';
import { OrderTracker } from './order-tracker.js';
import type { PollScheduler } from './poll-scheduler.js';

/**
 * Builds the order event stream (cold: each subscription keeps its own tracker; share it).
 * Orders already open when it starts form a baseline: only their later changes are emitted.
 * Orders created, modified or cancelled through `client` are tracked from the broker's answer on,
 * so their events keep the caller's `clientOrderId`.
 *
 * @param client - the broker client
 * @param polls - the poll scheduler (ORDER_HISTORY budget)
 * @param minIntervalMs - least time between two polls
 */
export function orderUpdates(
  client: BrokerClient,
  polls: PollScheduler,
  minIntervalMs: number,
): Observable<OrderEvent> {
  return defer(() => {
    const tracker = new OrderTracker(client.clock);
    let baselined = false;
    const onNotice = (notice: OrderCommandNotice): void => {
      if (notice.type === 'created') tracker.expectCreated(notice.orderId, notice.clientOrderId);
      else
        tracker.expectLinked(
          notice.orderId,
          notice.originalOrderId,
          notice.type === 'modified' ? 'replacement' : 'cancel',
        );
    };
    const notices = client.orderCommands$.subscribe(onNotice);
    const pollOnce = async (signal: AbortSignal): Promise<OrderEvent[]> => {
      const options = { signal, priority: RequestPriority.POLL };
      const open = await client.listOrders({ status: 'OPEN' }, options);
      const events: OrderEvent[] = [];
      const listed = new Set<string>();
      for (const row of open.orders) {
        listed.add(row.orderId);
        if (!baselined && !tracker.has(row.orderId)) tracker.baseline(row);
        else if (tracker.changed(row))
          events.push(...tracker.observe(await client.getOrder(row.orderId, options)));
      }
      baselined = true;
      for (const orderId of tracker.liveOrderIds()) {
        if (listed.has(orderId)) continue;
        const detail = await client.getOrder(orderId, options);
        events.push(...tracker.observe(detail));
      }
      tracker.prune();
      return events;
    };
    const stream = polls.poll$({
      group: RateLimitGroup.ORDER_HISTORY,
      key: 'orderUpdates',
      fetch: pollOnce,
      minIntervalMs,
    });
    return new Observable<OrderEvent>((subscriber) => {
      const inner = stream.pipe(mergeMap((events) => events)).subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        notices.unsubscribe();
      };
    });
  });
}
