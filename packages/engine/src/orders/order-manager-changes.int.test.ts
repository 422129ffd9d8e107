/**
 * Modifies and cancels against the logical order's stored state, over real HTTP against the
 * simulator and a real SQLite file: the stored price and quantity follow each confirmed modify; a
 * cancel sent by another process (`hoga order`, a second engine) while a modify is on its way
 * follows the logical order to its newest broker id; a logical order whose broker orders are all
 * closed ends, whatever an engine kept in memory of it; a refused cancel says whether it was sent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  allBrokerOrders,
  cancelOf,
  type LiveFixture,
  modifyTo,
  priceLimits,
  submitLimit,
  useLiveFixtures,
} from './live-fixture.test-helper.js';
import { OrderManager, type OrderManagerOptions } from './order-manager.js';

const live = useLiveFixtures(afterEach);
const opened: HogaDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** Another process's order manager on the same store file (its own connection and memory). */
function other(f: LiveFixture, options: OrderManagerOptions = {}): { m: OrderManager; events: OrderEvent[] } {
  const db = HogaDatabase.open(f.dbFile, { clock: f.clock });
  opened.push(db);
  const m = new OrderManager(f.client, db, f.clock, options);
  const events: OrderEvent[] = [];
  m.events$.subscribe((e) => events.push(e));
  return { m, events };
}

/** A resting limit buy of 005930 at the lower limit, and a second price just above it. */
async function resting(f: LiveFixture, quantity = '4') {
  const { lower } = await priceLimits(f.client, '005930');
  const order = submitLimit('005930', 'BUY', quantity, lower);
  return { order, id: order.intent.clientOrderId, lower, higher: new Decimal(lower).plus(100).toString() };
}

/**
 * An order placed and modified twice by another process (`owner`) while the fixture's engine polls
 * between: the engine has read the order's broker orders (the create, seen REPLACED, and the first
 * replacement, open), not the second modify.
 */
async function modifiedTwiceElsewhere(f: LiveFixture) {
  await f.manager.reconcile();
  const { order, id, lower, higher } = await resting(f);
  const owner = other(f);
  await owner.m.execute(order);
  await f.manager.pollOnce(); // the engine reads the order open
  await owner.m.execute(modifyTo(order, higher, '4'));
  await f.manager.pollOnce(); // sees the create REPLACED and the replacement open
  await owner.m.execute(modifyTo(order, lower, '4'));
  return { order, id, owner };
}

/** The broker's record of an order. */
const status = async (f: LiveFixture, brokerOrderId: string) =>
  (await f.client.getOrder(brokerOrderId)).status;

describe('modify and cancel of a logical order (real HTTP, one store file)', () => {
  it('a confirmed modify writes its price and a KR modify its quantity to the stored order; a restart reads them', async () => {
    // Before: the stored order kept the create's price and quantity with the new broker id, so
    // hoga db orders, a restarted strategy (ctx.order) and the risk checks saw the old price.
    const f = await live();
    const { order, id, lower, higher } = await resting(f);
    await f.manager.execute(order);
    await f.manager.execute(modifyTo(order, higher, '3'));
    const stored = f.db.orders.get(id);
    expect([stored?.price?.toString(), stored?.quantity?.toString(), stored?.state]).toEqual([
      higher,
      '3',
      'ACCEPTED',
    ]);
    expect(stored?.brokerOrderId).toBe(f.manager.currentExecution(id)?.brokerOrderId);
    f.restart();
    expect(f.db.orders.get(id)?.price?.toString()).toBe(higher);
    // what an older hoga left (the create's terms with the new broker id): a start repairs it
    f.db.connection
      .prepare("UPDATE orders SET price = ?, quantity = '4' WHERE client_order_id = ?")
      .run(lower, id);
    await f.restart().reconcile();
    const repaired = f.db.orders.get(id);
    expect([repaired?.price?.toString(), repaired?.quantity?.toString()]).toEqual([higher, '3']);
  });

  it('a modify whose answer was lost and was found in the history writes its price too', async () => {
    const f = await live(undefined, {}, { maxRetries: 0 });
    const { order, id, higher } = await resting(f);
    await f.manager.execute(order);
    f.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders/*/modify', count: 1 });
    await f.manager.execute(modifyTo(order, higher, '4'));
    await f.manager.pollOnce();
    expect(f.manager.store.unresolvedCommands()).toEqual([]);
    expect(f.db.orders.get(id)?.price?.toString()).toBe(higher);
  });

  it.each([
    ['already-modified (the modify done, its answer held back)', 'delay-after-commit'],
    ['already-processing (the modify still in progress)', 'slow-order'],
  ] as const)(
    "a cancel from another process that meets an engine's modify (%s) is sent again to the newest broker id",
    async (_label, kind) => {
      // Before: the cancel was refused with the broker's 409 on the old broker id (hoga order
      // cancel exited 1) and the order was set back to ACCEPTED while it was being modified.
      const f = await live();
      const { order, id, higher } = await resting(f);
      await f.manager.execute(order);
      const original = f.manager.currentExecution(id)?.brokerOrderId ?? '';
      const cli = other(f);
      expect(await cli.m.refreshOrder(id)).toBe(true); // it read the order before the modify
      f.sim.injectFault({ kind, path: '/api/v1/orders/*/modify', count: 1, delayMs: 1_500 });
      const modifying = f.manager.execute(modifyTo(order, higher, '4'));
      const moving = kind === 'slow-order' ? 'PENDING_REPLACE' : 'REPLACED';
      while ((await status(f, original)) !== moving) await sleep(20);
      await cli.m.execute(cancelOf(order));
      await modifying;

      const replacement = f.manager.store
        .commandsOf(id)
        .find((c) => c.kind === 'modify')?.resultBrokerOrderId;
      expect(replacement).toMatch(/.+/);
      expect(cli.events.map((e) => e.type)).not.toContain('OrderCancelRejected');
      const cancel = cli.m.store.commandsOf(id).find((c) => c.kind === 'cancel');
      expect([cancel?.status, cancel?.targetBrokerOrderId]).toEqual(['done', replacement]);
      expect(await status(f, replacement ?? '')).toBe('CANCELED');
      // hoga order brings the order it addressed up to date: CANCELED at once, no engine poll
      await cli.m.refreshOrder(id);
      expect(f.db.orders.get(id)?.state).toBe('CANCELED');
      expect(cli.events.map((e) => e.type)).toEqual(['OrderCancelRequested', 'OrderCanceled']);
    },
  );

  it("says whether a refused cancel reached the broker: the broker's refusal was sent, the engine's own was not", async () => {
    const f = await live();
    const { order, id } = await resting(f);
    await f.manager.execute(order);
    // cancelled at the broker through another channel, unknown to the store
    await f.client.cancelOrder(f.manager.currentExecution(id)?.brokerOrderId ?? '');
    await f.manager.execute(cancelOf(order));
    await f.manager.pollOnce(); // the store learns the order ended
    await f.manager.execute(cancelOf(order));
    const refusals = f.events.filter((e) => e.type === 'OrderCancelRejected');
    expect(refusals.map((e) => [e.code, e.sent])).toEqual([
      ['already-canceled', true],
      ['order-not-open', false],
    ]);
  });

  it('a modify from another process on an order an engine modified meanwhile goes to the newest broker id', async () => {
    const f = await live();
    const { order, id, lower, higher } = await resting(f);
    await f.manager.execute(order);
    const cli = other(f);
    await cli.m.refreshOrder(id); // its memory holds the create's broker id
    await f.manager.execute(modifyTo(order, higher, '4'));
    await cli.m.execute(modifyTo(order, lower, '2'));
    expect(cli.events.map((e) => e.type)).toEqual(['OrderModifyRequested', 'OrderModified']);
    const open = (await f.client.listOrders({ status: 'OPEN' })).orders;
    expect(open.map((o) => [o.price?.toString(), o.quantity.toString()])).toEqual([[lower, '2']]);
    expect([f.db.orders.get(id)?.price?.toString(), f.db.orders.get(id)?.quantity?.toString()]).toEqual([
      lower,
      '2',
    ]);
  });

  it('an engine whose memory of an order went stale still ends it when its last broker order closes', async () => {
    // The audit's sequence: one engine polls while others modify and cancel the order; before, its
    // memory still held a replaced broker order open, so the cancel's reports left the order
    // PENDING_CANCEL for ever (counted open, modify refused order-not-open, warned of at every run).
    const f = await live();
    const { order, id, owner } = await modifiedTwiceElsewhere(f);
    f.sim.advanceClock(10_000);
    await owner.m.pollOnce(); // the owner's poll closes the first replacement and moves last_poll_at
    f.sim.advanceClock(1_000);
    await f.manager.pollOnce(); // the engine never sees that close
    await other(f).m.execute(cancelOf(order)); // hoga order cancel
    f.sim.advanceClock(1_000);
    await f.manager.pollOnce(); // the cancel's reports
    expect(f.db.orders.get(id)?.state).toBe('CANCELED');
    expect(f.events.filter((e) => e.clientOrderId === id).map((e) => e.type)).toContain('OrderCanceled');
  });

  it('an engine does not end an order that another process modified while it held its broker orders in memory', async () => {
    // Before: an engine that had read the order's broker orders kept them in memory; when its poll
    // saw the last of them REPLACED by another process's modify, it found "every broker order
    // closed" and ended the logical order CANCELED (reason broker) while the replacement worked on.
    const f = await live();
    const { id } = await modifiedTwiceElsewhere(f);
    await f.manager.pollOnce(); // the first replacement REPLACED, the second one open
    expect(f.events.filter((e) => e.clientOrderId === id).map((e) => e.type)).not.toContain('OrderCanceled');
    expect(f.db.orders.get(id)?.state).toBe('ACCEPTED');
    const open = (await f.client.listOrders({ status: 'OPEN' })).orders;
    expect(open.map((o) => o.orderId)).toEqual([f.db.orders.get(id)?.brokerOrderId]);
  });

  it.each([
    ['the next poll', (f: LiveFixture) => f.manager.pollOnce()],
    ['a restart', async (f: LiveFixture) => void (await f.restart().reconcile())],
    ["hoga order's refresh", async (f: LiveFixture, id: string) => void (await other(f).m.refreshOrder(id))],
  ] as const)(
    'a logical order left open with all its broker orders closed (as an older hoga left it) ends at %s',
    async (_label, look) => {
      const f = await live();
      await f.manager.reconcile();
      const { order, id } = await resting(f);
      await f.manager.execute(order);
      await f.manager.execute(cancelOf(order));
      f.sim.advanceClock(60_000);
      await f.manager.pollOnce(); // moves last_poll_at past the cancel (its reports are counted)
      // what the stale engine of the audit wrote: every broker order closed, the order still open
      f.db.connection.prepare("UPDATE orders SET state = 'PENDING_CANCEL' WHERE client_order_id = ?").run(id);
      f.sim.advanceClock(60_000);
      expect(f.manager.store.executionsOf(id).every((e) => e.closed)).toBe(true);
      await look(f, id);
      expect(f.db.orders.get(id)?.state).toBe('CANCELED');
      const broker = await allBrokerOrders(f.client);
      expect(broker.filter((o) => o.status !== 'CANCELED')).toEqual([]);
    },
  );
});
