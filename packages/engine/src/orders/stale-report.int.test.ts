/**
 * A report of an owned broker order older than what the store already counted (a poll's answer
 * asked before a later poll answered, a report read again after a restart) never takes the stored
 * execution row back: not to an earlier status, not open again once ended, never to a smaller
 * filled quantity. The reports are real: read from the simulator over HTTP while the order was
 * earlier in its life, and handed to the manager after a newer one was stored in the SQLite file.
 */
import type { OrderRecord } from '@hoga/connector';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fillEvents,
  type LiveFixture,
  priceLimits,
  submitLimit,
  total,
  US_OPEN,
  useLiveFixtures,
} from './live-fixture.test-helper.js';

const live = useLiveFixtures(afterEach);

/** The execution row of a broker order as the SQLite file holds it. */
function storedRow(f: LiveFixture, brokerOrderId: string) {
  const row = f.db.connection
    .prepare('SELECT status, closed, filled_quantity FROM broker_executions WHERE broker_order_id = ?')
    .get(brokerOrderId) as { status: string; closed: number; filled_quantity: string } | undefined;
  return row === undefined ? undefined : { ...row, filled_quantity: Number(row.filled_quantity) };
}

/** The broker order id of a logical order (after its create was answered). */
function brokerIdOf(f: LiveFixture, clientOrderId: string): string {
  const id = f.manager.currentExecution(clientOrderId)?.brokerOrderId;
  if (id === undefined) throw new Error(`no broker order for ${clientOrderId}`);
  return id;
}

/**
 * A limit buy of 5 × 005930 resting at the lower limit, its report read while it works (the
 * stale one), then filled by moving the price down to it and counted by a poll.
 */
async function filledAfterWorkingReport(f: LiveFixture): Promise<{ id: string; working: OrderRecord }> {
  const { lower } = await priceLimits(f.client, '005930');
  const order = submitLimit('005930', 'BUY', '5', lower);
  await f.manager.execute(order);
  await f.manager.pollOnce();
  const id = brokerIdOf(f, order.intent.clientOrderId);
  const working = await f.client.getOrder(id);
  expect(working.status).toBe('PENDING');
  f.sim.setPrice('005930', lower);
  f.sim.advanceClock(60_000);
  await f.manager.pollOnce();
  expect(storedRow(f, id)).toEqual({ status: 'FILLED', closed: 1, filled_quantity: 5 });
  return { id, working };
}

describe('OrderManager with a report older than its stored row (real HTTP, SQLite file)', () => {
  it('keeps a FILLED row FILLED and closed when a poll delivers a working report of it late', async () => {
    const f = await live();
    const { id, working } = await filledAfterWorkingReport(f);
    const eventsBefore = f.events.length;
    f.manager.applyRecords([working]);
    expect(storedRow(f, id)).toEqual({ status: 'FILLED', closed: 1, filled_quantity: 5 });
    // the next poll reads the order as it is: nothing new to tell
    await f.manager.pollOnce();
    expect(f.events.slice(eventsBefore).map((e) => e.type)).toEqual([]);
    expect(storedRow(f, id)).toEqual({ status: 'FILLED', closed: 1, filled_quantity: 5 });
  });

  it('keeps a FILLED row when the working report is read again after a restart', async () => {
    const f = await live();
    const { id, working } = await filledAfterWorkingReport(f);
    const eventsBefore = f.events.length;
    const restarted = f.restart();
    await restarted.reconcile();
    restarted.applyRecord(working);
    expect(storedRow(f, id)).toEqual({ status: 'FILLED', closed: 1, filled_quantity: 5 });
    await restarted.pollOnce();
    expect(f.events.slice(eventsBefore).map((e) => e.type)).toEqual([]);
  });

  it('keeps a partly filled row at its status and quantity when earlier reports come late, before and after a restart', async () => {
    const f = await live(US_OPEN);
    // ZOM's book is thin: a buy of 100,000 resting under the market fills in parts once it is reached
    const book = await f.client.getOrderbook('ZOM');
    const price = book.bids[2]?.price.toString();
    if (price === undefined) throw new Error('no third bid');
    const order = submitLimit('ZOM', 'BUY', '100000', price);
    await f.manager.execute(order);
    const id = brokerIdOf(f, order.intent.clientOrderId);
    const working = await f.client.getOrder(id);
    expect(working.status).toBe('PENDING');
    f.sim.setPrice('ZOM', price);
    f.sim.advanceClock(60_000);
    await f.manager.pollOnce();
    const firstPart = await f.client.getOrder(id);
    f.sim.advanceClock(60_000);
    await f.manager.pollOnce();
    const newer = storedRow(f, id);
    expect(newer?.status).toBe('PARTIAL_FILLED');
    expect(newer?.filled_quantity).toBeGreaterThan(firstPart.execution.filledQuantity.toNumber());
    expect(firstPart.execution.filledQuantity.toNumber()).toBeGreaterThan(0);

    for (const late of [working, firstPart]) {
      f.manager.applyRecords([late]);
      expect(storedRow(f, id)).toEqual(newer);
    }
    const restarted = f.restart();
    for (const late of [working, firstPart]) {
      restarted.applyRecord(late);
      expect(storedRow(f, id)).toEqual(newer);
    }

    // the order goes on filling: each share is counted once, the end told once
    for (let i = 0; i < 10 && storedRow(f, id)?.closed !== 1; i++) {
      f.sim.advanceClock(60_000);
      await restarted.pollOnce();
    }
    const broker = await f.client.getOrder(id);
    expect(storedRow(f, id)).toEqual({
      status: broker.status,
      closed: 1,
      filled_quantity: broker.execution.filledQuantity.toNumber(),
    });
    const fills = fillEvents(f.events).filter((e) => e.clientOrderId === order.intent.clientOrderId);
    expect(total(fills.map((e) => e.quantity)).toString()).toBe(broker.execution.filledQuantity.toString());
    expect(fills.filter((e) => e.type === 'OrderFilled')).toHaveLength(1);
  });
});
