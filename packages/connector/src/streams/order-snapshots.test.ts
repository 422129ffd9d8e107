import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { OrderListQuery } from '../client/broker-client.js';
import type { OrderList } from '../schemas/orders.js';
import { orderRecord } from './order-record.test-helper.js';
import { pollOrderSnapshots } from './order-snapshots.js';

const T0 = DateTime.fromISO('2026-11-23T10:00:00+09:00', { setZone: true });

/** Closed orders newest first, one per minute back from 10:00, served in pages of `pageSize`. */
function lister(closedCount: number, pageSize: number) {
  const closed = Array.from({ length: closedCount }, (_, i) => ({
    ...orderRecord(`c${i}`, { status: 'FILLED', filled: '5' }),
    orderedAt: T0.minus({ minutes: i }),
  }));
  const calls: OrderListQuery[] = [];
  return {
    calls,
    client: {
      listOrders: async (query: OrderListQuery): Promise<OrderList> => {
        calls.push(query);
        if (query.status === 'OPEN')
          return { orders: [orderRecord('o1', { status: 'PENDING' })], nextCursor: null, hasNext: false };
        const start = query.cursor === undefined ? 0 : Number(query.cursor);
        const page = closed.slice(start, start + pageSize);
        const next = start + pageSize < closed.length ? String(start + pageSize) : null;
        return { orders: page, nextCursor: next, hasNext: next !== null };
      },
    },
  };
}

describe('pollOrderSnapshots', () => {
  it('reads the open list and closed pages down to the first order placed before the bound', async () => {
    const { client, calls } = lister(50, 10);
    const poll = await pollOrderSnapshots(client, {
      closedSinceMs: T0.minus({ minutes: 14 }).toMillis(),
      pageSize: 10,
      maxClosedPages: 5,
    });
    expect(poll.open.map((o) => o.orderId)).toEqual(['o1']);
    expect(poll.closed.map((o) => o.orderId)).toEqual(Array.from({ length: 15 }, (_, i) => `c${i}`));
    expect(poll.complete).toBe(true);
    expect(poll.requests).toBe(3);
    expect(calls.map((c) => c.status)).toEqual(['OPEN', 'CLOSED', 'CLOSED']);
  });

  it('stops at the page budget and says the closed pages are incomplete', async () => {
    const { client } = lister(50, 10);
    const poll = await pollOrderSnapshots(client, {
      closedSinceMs: T0.minus({ minutes: 40 }).toMillis(),
      pageSize: 10,
      maxClosedPages: 2,
    });
    expect(poll.closed).toHaveLength(20);
    expect(poll.complete).toBe(false);
  });

  it('is complete at the end of the history', async () => {
    const { client } = lister(3, 10);
    const poll = await pollOrderSnapshots(client, { closedSinceMs: 0 });
    expect(poll.closed).toHaveLength(3);
    expect(poll.complete).toBe(true);
  });
});
