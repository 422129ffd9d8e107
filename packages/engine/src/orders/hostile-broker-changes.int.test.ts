/**
 * Changes of a partly filled order whose answer a hostile broker loses after committing them: a
 * proxy on 127.0.0.1 in front of the simulator passes the cancel or modify on, then answers 500
 * (as a gateway does once the broker took it). The connector reads the order, finds the change
 * applied, and the order manager looks for the order the change made (the cancel's record, the
 * modify's replacement of the unfilled rest) in the history. Asserted: the rows the SQLite file
 * holds afterwards (the lineage, the commands settled with the broker's ids, each fill once) and
 * what the strategy heard. And a modify the broker refused 429 on every try, followed by a second
 * modify that went through: the first is not sent after the second (before, the next poll sent it
 * to the replacement, and the broker worked the order at the first modify's price).
 */
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { fillPrice } from './execution-delta.js';
import { internalError, type ProxiedAnswer } from './hostile-broker.test-helper.js';
import { eventsOf, type Hostile, hostile, storedRows } from './hostile-fixture.test-helper.js';
import {
  cancelOf,
  KR_OPEN,
  modifyTo,
  priceLimits,
  submitLimit,
  US_OPEN,
} from './live-fixture.test-helper.js';

/** A buy of 100,000 ZOM resting under the market, reached and partly filled (ZOM's book is thin). */
async function partlyFilled(h: Hostile) {
  const book = await h.client.getOrderbook('ZOM');
  const price = book.bids[2]?.price.toString() ?? '';
  const lower = book.bids[4]?.price.toString() ?? '';
  const order = submitLimit('ZOM', 'BUY', '100000', price);
  const id = order.intent.clientOrderId;
  await h.manager.execute(order);
  const original = h.manager.currentExecution(id)?.brokerOrderId ?? '';
  h.sim.setPrice('ZOM', price);
  h.sim.advanceClock(60_000);
  await h.manager.pollOnce();
  const { execution } = await h.client.getOrder(original);
  const filled = execution.filledQuantity.toString();
  // the fill's price as the broker's totals give it
  const paid = fillPrice(execution.filledAmount ?? new Decimal(0), execution.filledQuantity).toString();
  expect(storedRows(h.db, id).order).toMatchObject({ state: 'PARTIALLY_FILLED', filled_quantity: filled });
  // the price moves away: nothing more fills while the change is on its way
  h.sim.setPrice('ZOM', book.asks[4]?.price.toString() ?? '');
  return { order, id, original, price, lower, filled, paid };
}

/** Answers 500 to the next POST of `kind` once the broker took it; answers how many it answered so. */
function loseAfterCommit(h: Hostile, kind: 'cancel' | 'modify'): () => number {
  let lost = 0;
  h.proxy.use((req, forward) =>
    req.method === 'POST' && req.path.endsWith(`/${kind}`) && lost === 0
      ? forward().then((a): ProxiedAnswer => {
          expect(a.status).toBe(200);
          lost++;
          return internalError();
        })
      : undefined,
  );
  return () => lost;
}

describe('OrderManager when the broker answers 500 to a change it committed (real HTTP, SQLite file)', () => {
  it('links the cancel record of a partly filled order and ends it CANCELED with its fills', async () => {
    const h = await hostile(US_OPEN);
    const { order, id, original, price, filled, paid } = await partlyFilled(h);
    const lost = loseAfterCommit(h, 'cancel');
    await h.manager.execute(cancelOf(order));
    expect(lost()).toBe(1);
    await h.manager.pollOnce();

    const rows = storedRows(h.db, id);
    const record = (rows.links[1] as { id: string } | undefined)?.id ?? '';
    expect(record).not.toBe('');
    expect(rows).toEqual({
      order: { state: 'CANCELED', filled_quantity: filled, price, quantity: '100000' },
      links: [
        { id: original, kind: 'create' },
        { id: record, kind: 'cancel' },
      ],
      commands: [
        { kind: 'create', status: 'done', target: null, result: original, error: null },
        { kind: 'cancel', status: 'done', target: original, result: record, error: expect.any(String) },
      ],
      executions: [
        { id: original, status: 'CANCELED', closed: 1, filled },
        { id: record, status: 'CANCELED', closed: 1, filled: '0' },
      ],
      fills: [{ id: original, quantity: filled, price: paid, cumulative: filled }],
    });
    expect(eventsOf(h.events, id)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderPartiallyFilled',
      'OrderCancelRequested',
      'OrderCanceled',
    ]);
    expect(h.sim.counters().ordersCanceled).toBe(1);
  });

  it('links the replacement of the unfilled rest of a partly filled order, its fills counted from zero', async () => {
    const h = await hostile(US_OPEN);
    const { order, id, original, lower, filled, paid } = await partlyFilled(h);
    const lost = loseAfterCommit(h, 'modify');
    await h.manager.execute(modifyTo(order, lower));
    expect(lost()).toBe(1);
    await h.manager.pollOnce();

    const rows = storedRows(h.db, id);
    const replacement = (rows.links[1] as { id: string } | undefined)?.id ?? '';
    expect(replacement).not.toBe('');
    const rest = (await h.client.getOrder(replacement)).quantity?.toString();
    expect(rows).toEqual({
      order: { state: 'PARTIALLY_FILLED', filled_quantity: filled, price: lower, quantity: '100000' },
      links: [
        { id: original, kind: 'create' },
        { id: replacement, kind: 'modify' },
      ],
      commands: [
        { kind: 'create', status: 'done', target: null, result: original, error: null },
        { kind: 'modify', status: 'done', target: original, result: replacement, error: expect.any(String) },
      ],
      executions: [
        { id: original, status: 'REPLACED', closed: 1, filled },
        { id: replacement, status: 'PENDING', closed: 0, filled: '0' },
      ],
      fills: [{ id: original, quantity: filled, price: paid, cumulative: filled }],
    });
    expect(Number(rest) + Number(filled)).toBe(100_000);
    expect(eventsOf(h.events, id)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderPartiallyFilled',
      'OrderModifyRequested',
      'OrderModified',
    ]);
    expect(h.sim.counters().ordersModified).toBe(1);
  });
});

describe('OrderManager when the broker refused a modify 429 and a later one went through (real HTTP, SQLite file)', () => {
  it('does not apply the refused modify after the later one', async () => {
    const h = await hostile(KR_OPEN);
    const { lower } = await priceLimits(h.client, '005930');
    const first = new Decimal(lower).plus(100).toString();
    const second = new Decimal(lower).plus(200).toString();
    const order = submitLimit('005930', 'BUY', '2', lower);
    const id = order.intent.clientOrderId;
    await h.manager.execute(order);
    const original = h.manager.currentExecution(id)?.brokerOrderId ?? '';
    // the first modify's send is refused 429 (Retry-After 1), the connector's two retries too; the
    // broker takes requests again after that
    let refused = 0;
    h.proxy.use((req) => {
      if (req.method !== 'POST' || !req.path.endsWith('/modify') || refused === 3) return undefined;
      refused++;
      return Promise.resolve(tooManyRequests());
    });
    await h.manager.execute(modifyTo(order, first, '2'));
    expect(refused).toBe(3);
    // the strategy changes its mind: the second modify goes through
    await h.manager.execute(modifyTo(order, second, '2'));
    for (let i = 0; i < 6; i++) await h.manager.pollOnce();

    const rows = storedRows(h.db, id);
    const replacement = (rows.links[1] as { id: string } | undefined)?.id ?? '';
    const working = await h.client.listOrders({ status: 'OPEN' });
    expect(working.orders.map((o) => [o.orderId, o.price?.toString()])).toEqual([[replacement, second]]);
    expect(h.sim.counters().ordersModified).toBe(1);
    expect(rows).toEqual({
      order: { state: 'ACCEPTED', filled_quantity: '0', price: second, quantity: '2' },
      links: [
        { id: original, kind: 'create' },
        { id: replacement, kind: 'modify' },
      ],
      commands: [
        { kind: 'create', status: 'done', target: null, result: original, error: null },
        {
          kind: 'modify',
          status: 'rejected',
          target: original,
          result: null,
          error: expect.stringMatching(/^already-modified: the order was modified by command /),
        },
        { kind: 'modify', status: 'done', target: original, result: replacement, error: null },
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
      'OrderModifyRequested',
      'OrderModified',
      'OrderModifyRejected already-modified',
    ]);
  });
});

/** A 429 `rate-limit-exceeded` with `Retry-After: 1`, as the broker refuses a request before handling it. */
function tooManyRequests(): ProxiedAnswer {
  return {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': '1' },
    body: JSON.stringify({
      error: { requestId: 'proxy', code: 'rate-limit-exceeded', message: 'rate limit exceeded' },
    }),
  };
}
