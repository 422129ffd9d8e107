/**
 * Raw order snapshots: the `OPEN` list and the newest `CLOSED` pages since a given instant, as the
 * broker shows them, with no interpretation. The engine's order manager owns what the snapshots
 * mean (which order is whose, which fill is new); this module only reads them within a page budget
 * so the polls share the `ORDER_HISTORY` group with the strategy's own reads.
 *
 * Closed orders are listed newest first by `orderedAt`, so every order placed since `closedSinceMs`
 * that has closed is on the pages read, as long as `complete` is true. An older order that closed
 * since is not (it sits deeper in the history): the caller reads the detail of the orders it knows
 * to be open and does not see in either list.
 *
 * @module
 */
import { defer, type Observable, repeat, type SchedulerLike, timer } from 'rxjs';
import type { BrokerClient } from '../client/broker-client.js';
import type { CallOptions } from '../client/request-executor.js';
import type { OrderRecord } from '../schemas/orders.js';

/** Options of {@link pollOrderSnapshots}. */
export interface OrderSnapshotQuery {
  /** Read closed pages until an order placed before this instant (epoch ms) shows up. */
  readonly closedSinceMs: number;
  /** Most closed pages per poll (default 3). */
  readonly maxClosedPages?: number;
  /** Closed page size, 1–100 (default 100). */
  readonly pageSize?: number;
}

/** One poll's raw result. */
export interface OrderSnapshotPoll {
  /** Every open order (the broker's `OPEN` list). */
  readonly open: readonly OrderRecord[];
  /** Closed orders from the newest down to `closedSinceMs` (or as far as the page budget went). */
  readonly closed: readonly OrderRecord[];
  /** Whether the closed pages reached `closedSinceMs` (or the end of the history). */
  readonly complete: boolean;
  /** Requests this poll made. */
  readonly requests: number;
}

/** The part of the client a poll uses. */
export type OrderListReader = Pick<BrokerClient, 'listOrders'>;

/**
 * Reads the open orders and the newest closed pages since `closedSinceMs`.
 *
 * @param client - the broker client
 * @param query - how far back and how many pages
 * @param options - signal, timeout
 */
export async function pollOrderSnapshots(
  client: OrderListReader,
  query: OrderSnapshotQuery,
  options?: CallOptions,
): Promise<OrderSnapshotPoll> {
  const open = await client.listOrders({ status: 'OPEN' }, options);
  const closed: OrderRecord[] = [];
  const maxPages = query.maxClosedPages ?? 3;
  let requests = 1;
  let cursor: string | undefined;
  let complete = false;
  for (let page = 0; page < maxPages; page++) {
    const list = await client.listOrders(
      { status: 'CLOSED', limit: query.pageSize ?? 100, ...(cursor === undefined ? {} : { cursor }) },
      options,
    );
    requests++;
    let reachedOlder = false;
    for (const order of list.orders) {
      if (order.orderedAt.toMillis() < query.closedSinceMs) {
        reachedOlder = true;
        break;
      }
      closed.push(order);
    }
    if (reachedOlder || list.nextCursor === null || !list.hasNext || list.orders.length === 0) {
      complete = true;
      break;
    }
    cursor = list.nextCursor;
  }
  return { open: open.orders, closed, complete, requests };
}

/**
 * Polls {@link pollOrderSnapshots} every `intervalMs`; `since()` gives each poll's lower bound
 * (usually the start of the previous poll). A failed poll errors the stream (retry it with `retry`).
 *
 * @param client - the broker client
 * @param intervalMs - pause between the end of one poll and the start of the next
 * @param since - the closed-pages bound of the next poll
 * @param scheduler - timer source (default async)
 */
export function orderSnapshots$(
  client: OrderListReader,
  intervalMs: number,
  since: () => number,
  scheduler?: SchedulerLike,
): Observable<OrderSnapshotPoll> {
  return defer(() => pollOrderSnapshots(client, { closedSinceMs: since() })).pipe(
    repeat({ delay: () => (scheduler === undefined ? timer(intervalMs) : timer(intervalMs, scheduler)) }),
  );
}
