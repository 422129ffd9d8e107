/**
 * A modify whose first send times out while it is still on its way to the broker: the connector
 * reads the order (still working, no trace of the modify) and sends the modify again; the first
 * send reaches the broker first and replaces the order, so the second is answered 409
 * `already-modified`. The broker made one replacement, with the modify's terms, that no answer
 * names. Over real HTTP: a proxy on 127.0.0.1 in front of the simulator holds the first send until
 * the second arrives; a SQLite file. The replacement must be the strategy's order, not an order
 * from another channel. The same for a cancel (409 `already-canceled`): its record is the
 * strategy's cancel's.
 */
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { ProxiedAnswer } from './hostile-broker.test-helper.js';
import {
  eventsOf,
  type Hostile,
  hostile,
  outsideOrderCount,
  storedRows,
} from './hostile-fixture.test-helper.js';
import { cancelOf, KR_OPEN, modifyTo, priceLimits, submitLimit } from './live-fixture.test-helper.js';

describe('OrderManager when a timed-out modify reaches the broker before its re-send (real HTTP, SQLite file)', () => {
  it("links the replacement the first send made to the strategy's order", async () => {
    const { h, order, id, original, lower } = await restingOrder();
    const price = new Decimal(lower).plus(100).toString();
    const sends = holdFirstSend(h, '/modify');
    await h.manager.execute(modifyTo(order, price, '2'));
    expect(sends()).toBe(2);
    for (let i = 0; i < 3; i++) await h.manager.pollOnce();

    const rows = storedRows(h.db, id);
    const working = (await h.client.listOrders({ status: 'OPEN' })).orders;
    expect(working.map((o) => o.price?.toString())).toEqual([price]);
    const replacement = working[0]?.orderId ?? '';
    expect(h.sim.counters().ordersModified).toBe(1);
    expect(rows).toEqual({
      order: { state: 'ACCEPTED', filled_quantity: '0', price, quantity: '2' },
      links: [
        { id: original, kind: 'create' },
        { id: replacement, kind: 'modify' },
      ],
      commands: [
        { kind: 'create', status: 'done', target: null, result: original, error: null },
        { kind: 'modify', status: 'done', target: original, result: replacement, error: SETTLED },
      ],
      executions: [
        { id: original, status: 'REPLACED', closed: 1, filled: '0' },
        { id: replacement, status: 'PENDING', closed: 0, filled: '0' },
      ],
      fills: [],
    });
    expect(eventsOf(h.events, id)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderModifyRequested',
      'OrderModified',
    ]);
    expect(outsideOrderCount(h.db)).toBe(0);
  });

  it('ends the order CANCELED, the cancel record linked, when a timed-out cancel reaches the broker before its re-send', async () => {
    const { h, order, id, original, lower } = await restingOrder();
    const sends = holdFirstSend(h, '/cancel');
    await h.manager.execute(cancelOf(order));
    expect(sends()).toBe(2);
    for (let i = 0; i < 3; i++) await h.manager.pollOnce();

    const rows = storedRows(h.db, id);
    expect((await h.client.listOrders({ status: 'OPEN' })).orders).toEqual([]);
    expect(h.sim.counters().ordersCanceled).toBe(1);
    const record = (rows.links[1] as { id: string } | undefined)?.id ?? '';
    expect(rows).toEqual({
      order: { state: 'CANCELED', filled_quantity: '0', price: lower, quantity: '2' },
      links: [
        { id: original, kind: 'create' },
        { id: record, kind: 'cancel' },
      ],
      commands: [
        { kind: 'create', status: 'done', target: null, result: original, error: null },
        { kind: 'cancel', status: 'done', target: original, result: record, error: SETTLED },
      ],
      executions: [
        { id: original, status: 'CANCELED', closed: 1, filled: '0' },
        { id: record, status: 'CANCELED', closed: 1, filled: '0' },
      ],
      fills: [],
    });
    expect(eventsOf(h.events, id)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderCancelRequested',
      'OrderCanceled',
    ]);
    expect(outsideOrderCount(h.db)).toBe(0);
  });
});

/** What a change settled from the history, not from its answer, keeps as its error. */
const SETTLED = 'answer lost; order shows the change';

/** A KR limit buy of 2 at the day's lower limit, accepted by the broker (the connector times out at 1 s). */
async function restingOrder() {
  const h = await hostile(KR_OPEN, { requestTimeoutMs: 1_000 }, { newestOrderWaitMs: 200 });
  const { lower } = await priceLimits(h.client, '005930');
  const order = submitLimit('005930', 'BUY', '2', lower);
  const id = order.intent.clientOrderId;
  await h.manager.execute(order);
  return { h, order, id, lower, original: h.manager.currentExecution(id)?.brokerOrderId ?? '' };
}

/**
 * Holds the first send of the change whose path ends with `suffix` (the connector times out); when
 * the re-send arrives, the first goes on to the broker, then the re-send. Answers the sends counted.
 */
function holdFirstSend(h: Hostile, suffix: string): () => number {
  let held: (() => Promise<ProxiedAnswer>) | null = null;
  let sends = 0;
  h.proxy.use((req, forward) => {
    if (req.method !== 'POST' || !req.path.endsWith(suffix)) return undefined;
    sends++;
    if (held === null) {
      held = forward;
      return new Promise<ProxiedAnswer>(() => undefined); // never answered
    }
    return held().then(forward);
  });
  return () => sends;
}
