/**
 * `orderUpdates$`: polls the OPEN order list, reads the detail of every order whose row changed and
 * of every tracked order that left the list (filled, cancelled, rejected or replaced between two
 * polls; a cancel's record only while its original has not ended cancelled, and not after the
 * broker answered it has no such order), and emits the differences as core order events, each fill exactly once. An order it
 * does not know, listed while a create, modify or cancel of this client is in flight, is held
 * back until those end (at most `holdMs`), so an order listed before its create answered still
 * carries the caller's `clientOrderId`; an order read `REPLACED` before this client's modify
 * answered is read again until the answer names its replacement (at most `holdMs` too); when that
 * answer was lost, until the replacement is found by the modify's terms in the OPEN list or the
 * newest CLOSED page (read only meanwhile). A replacement is read with its original while the
 * original has not shown a final state, and an order with its replacements never read, the oldest
 * first, so the chain's fills add up and a chain modified several times between two polls is told
 * in the order it happened (`OrderAccepted`, then each `OrderModified`). A detail
 * read that fails is retried with back-off (in polls); an order the broker answers 404 for once
 * it is no longer listed is dropped and reported once (`order-dropped`).
 *
 * @module
 */
import { type OrderEvent, RateLimitGroup } from '@hoga/core';
import { asyncScheduler, defer, mergeMap, Observable, type SchedulerLike } from 'rxjs';
import type { BrokerClient } from '../client/broker-client.js';
import type { OrderCommandNotice } from '../client/order-operations.js';
import { ConnectorError, NotFoundError } from '../errors.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import type { OrderRecord } from '../schemas/orders.js';
import { OrderTracker, type OrderTrackerOptions } from './order-tracker.js';
import type { PollScheduler } from './poll-scheduler.js';

/** An order the broker answered 404 `order-not-found` for after it was listed or answered. */
interface DroppedOrder {
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly error: NotFoundError;
}

/**
 * The error a poll reports for the orders it stopped tracking (code `order-dropped`).
 *
 * @param dropped - the orders dropped by one poll
 */
function droppedOrdersError(dropped: readonly DroppedOrder[]): ConnectorError {
  const names = dropped.map((d) => `${d.orderId} (client order id ${d.clientOrderId})`).join(', ');
  return new ConnectorError(
    'order-dropped',
    `the broker answered 404 order-not-found for order ${names}, which it had listed before; ` +
      'no further events will be emitted for it. Check the order in the brokerage app ' +
      '(a fill or cancel of it may be missing from this session).',
    {
      cause: dropped[0]?.error,
      details: { orders: dropped.map((d) => ({ orderId: d.orderId, clientOrderId: d.clientOrderId })) },
    },
  );
}

/** Options of {@link orderUpdates}. */
export interface OrderUpdatesOptions extends OrderTrackerOptions {
  /** Measures how long unknown orders are held; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Called with each subscription's tracker when it is made (tests read its sizes). */
  readonly onTracker?: (tracker: OrderTracker) => void;
}

/**
 * Builds the order event stream (cold: each subscription keeps its own tracker; share it).
 * Orders already open when it starts form a baseline: only their later changes are emitted.
 * Orders created, modified or cancelled through `client` are tracked from the broker's answer on,
 * so their events keep the caller's `clientOrderId`, even when the broker lists the order first.
 *
 * @param client - the broker client
 * @param polls - the poll scheduler (ORDER_HISTORY budget)
 * @param minIntervalMs - least time between two polls
 * @param options - the longest hold of an unknown order, how long ended orders are remembered, and
 *   the scheduler that times both
 */
export function orderUpdates(
  client: BrokerClient,
  polls: PollScheduler,
  minIntervalMs: number,
  options: OrderUpdatesOptions = {},
): Observable<OrderEvent> {
  const scheduler = options.scheduler ?? asyncScheduler;
  return defer(() => {
    const tracker = new OrderTracker(client.clock, {
      ...(options.holdMs === undefined ? {} : { holdMs: options.holdMs }),
      ...(options.retainEndedMs === undefined ? {} : { retainEndedMs: options.retainEndedMs }),
    });
    options.onTracker?.(tracker);
    let baselined = false;
    const onNotice = (notice: OrderCommandNotice): void => {
      if (notice.type === 'created') tracker.expectCreated(notice.orderId, notice.clientOrderId);
      else if (notice.type === 'modify-unanswered') tracker.expectUnanswered(notice, scheduler.now());
      else
        tracker.expectLinked(
          notice.orderId,
          notice.originalOrderId,
          notice.type === 'modified' ? 'replacement' : 'cancel',
        );
    };
    const notices = client.orderCommands$.subscribe(onNotice);
    const inFlight = (): number[] => client.orderCommandsInFlight().map((c) => c.seq);
    // A generator, not a promise: the events of each order are emitted as soon as the tracker has
    // taken its report in, so a later read of the same poll that fails cannot lose them. A failed
    // read does not stop the poll either (an order whose detail keeps failing must not starve the
    // orders after it); the first failure is reported once the poll has read every other order.
    // An order whose reads keep failing is read less and less often (tracker.readDue); one the
    // broker says it does not know, and no longer lists, is dropped and reported once.
    async function* pollOnce(signal: AbortSignal): AsyncGenerator<OrderEvent[]> {
      const call = { signal, priority: RequestPriority.POLL };
      let failure: { error: unknown } | null = null;
      const dropped: DroppedOrder[] = [];
      const open = await client.listOrders({ status: 'OPEN' }, call);
      const listed = new Set(open.orders.map((row) => row.orderId));
      const done = new Set<string>();
      const readRecord = async (orderId: string): Promise<OrderRecord | null> => {
        done.add(orderId); // (read or not, once a poll: readDue counts the polls it skips)
        if (!tracker.readDue(orderId)) return null;
        try {
          return await client.getOrder(orderId, call);
        } catch (error) {
          if (signal.aborted) throw error;
          if (!listed.has(orderId) && error instanceof NotFoundError && error.code === 'order-not-found') {
            const gone = tracker.notFound(orderId);
            // a cancel's answer may name no order the broker keeps: its original tells the outcome
            if (gone.kind === 'cancel') return null;
            if (gone.kind === 'dropped') {
              dropped.push({ orderId, clientOrderId: gone.clientOrderId, error });
              return null;
            }
          }
          tracker.readFailed(orderId);
          failure ??= { error };
          return null;
        }
      };
      // REPLACED before this client's modify answered (or found): read again until it is linked
      const held = (record: OrderRecord): boolean =>
        tracker.holdReplaced(record, inFlight(), scheduler.now());
      const read = async (orderId: string): Promise<OrderEvent[]> => {
        if (done.has(orderId)) return [];
        // the oldest first: an original's last fills come before its replacement's, which count on
        // top, and a chain modified several times between two polls is told link by link
        // (one already read on this poll was taken in then: it is not read or told again)
        const records: (OrderRecord | null)[] = [];
        for (const id of tracker.chainOf(orderId)) records.push(done.has(id) ? null : await readRecord(id));
        const events: OrderEvent[] = [];
        records.forEach((record, i) => {
          if (record === null || held(record)) return;
          events.push(...tracker.observe(record, records[i + 1] ?? null));
        });
        return events;
      };
      if (tracker.awaitsUnanswered()) {
        // a modify's answer was lost: its replacement is known by its terms (it may have ended at
        // once); none is taken on a poll that could not read both lists (a twin may hide there)
        try {
          const closed = await client.listOrders({ status: 'CLOSED' }, call);
          tracker.linkUnanswered([...open.orders, ...closed.orders]);
        } catch (error) {
          if (signal.aborted) throw error;
          failure ??= { error };
        }
      }
      for (const row of open.orders) {
        if (!tracker.has(row.orderId) && tracker.holdUnknown(row, inFlight(), scheduler.now(), !baselined))
          continue;
        if (tracker.changed(row)) yield await read(row.orderId);
      }
      baselined = true;
      // Held orders that left the list are decided too; once released they are read below.
      for (const orderId of tracker.heldOrderIds()) {
        if (!listed.has(orderId)) tracker.holdUnknown(orderId, inFlight(), scheduler.now());
      }
      for (const orderId of tracker.liveOrderIds()) {
        if (listed.has(orderId)) continue;
        yield await read(orderId);
      }
      tracker.prune(scheduler.now());
      // a dropped order is told once: it goes before a failure that the next reads will tell again
      if (dropped.length > 0) throw droppedOrdersError(dropped);
      if (failure !== null) throw (failure as { error: unknown }).error;
    }
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
