/**
 * The engine's clock and the broker's differ: the order manager must still know its own orders.
 * Over real HTTP against the simulator, with the engine's clock set ahead of the simulator's.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock, OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { fillEvents, submitLimit, useLiveFixtures } from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';

const live = useLiveFixtures(afterEach);

describe('OrderManager with the engine clock ahead of the broker', () => {
  it("counts a create's fill that a poll sees before the create's answer as its own, not external", async () => {
    // Seen with `hoga run` after a simulator restart left the engine's clock 3 s ahead of the
    // broker's: a poll listed the strategy's market sell, filled, before the create's answer came;
    // its orderedAt was more than the 2 s tolerance before the command's send, so it was adopted as
    // ext-<brokerOrderId> with the fill. The answer then found the broker order taken: the
    // strategy's order stayed ACCEPTED for ever, its onFill never came (its position still 2) and
    // it never traded the symbol again.
    const f = await live();
    const ahead: Clock = {
      now: () => f.sim.now().plus({ milliseconds: 5_000 }),
      nowMs: () => f.sim.now().toMillis() + 5_000,
    };
    const events: OrderEvent[] = [];
    const manager = new OrderManager(f.client, f.db, ahead);
    manager.events$.subscribe((e) => events.push(e));
    await manager.reconcile();
    f.sim.advanceClock(10_000); // the next poll reads the orders closed since the last one, less 2 s
    const order = submitLimit('005930', 'BUY', '2'); // market: fills at once
    f.sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders',
      method: 'POST',
      count: 1,
      delayMs: 1_000,
    });
    const placing = manager.execute(order);
    while ((await f.client.listOrders({ status: 'CLOSED' })).orders.length === 0) await sleep(20);
    await manager.pollOnce(); // the order filled; its answer is still held back
    await placing;
    await manager.pollOnce();
    const id = order.intent.clientOrderId;
    expect(fillEvents(events).map((e) => [e.type, e.clientOrderId, e.quantity.toString()])).toEqual([
      ['OrderFilled', id, '2'],
    ]);
    expect(f.db.orders.get(id)?.state).toBe('FILLED');
    expect(f.db.orders.list().filter((o) => o.clientOrderId.startsWith('ext-'))).toEqual([]);
  });

  it("counts an interrupted create's fill as its own when the restart's poll sees the order first", async () => {
    // The same clock difference across a restart: the first engine's create was on its way when it
    // stopped (its command interrupted); the restart's poll listed the order, filled, before the
    // re-send under the same key got the broker's replay naming it, and adopted it as external.
    const f = await live();
    const ahead: Clock = {
      now: () => f.sim.now().plus({ milliseconds: 5_000 }),
      nowMs: () => f.sim.now().toMillis() + 5_000,
    };
    const first = new OrderManager(f.client, f.db, ahead);
    await first.reconcile();
    f.sim.advanceClock(10_000);
    const order = submitLimit('005930', 'BUY', '2');
    f.sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders',
      method: 'POST',
      count: 1,
      delayMs: 2_000,
    });
    const abandoned = first.execute(order); // its answer comes after the restart's first poll
    while ((await f.client.listOrders({ status: 'CLOSED' })).orders.length === 0) await sleep(20);
    const db = HogaDatabase.open(f.dbFile, { clock: ahead });
    try {
      const events: OrderEvent[] = [];
      const restarted = new OrderManager(f.client, db, ahead);
      restarted.events$.subscribe((e) => events.push(e));
      await restarted.reconcile();
      await restarted.pollOnce();
      await abandoned;
      const id = order.intent.clientOrderId;
      expect(fillEvents(events).map((e) => [e.type, e.clientOrderId, e.quantity.toString()])).toEqual([
        ['OrderFilled', id, '2'],
      ]);
      expect(db.orders.get(id)?.state).toBe('FILLED');
      expect(db.orders.list().filter((o) => o.clientOrderId.startsWith('ext-'))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
