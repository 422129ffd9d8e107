/**
 * An engine's order modified by another process on the same store file (its own order manager,
 * connection and memory, as `hoga order modify` has), over real HTTP against the simulator: the
 * engine's polls tell it as `OrderModified` with the new terms, in the order the modifies were made,
 * before the replacement's fills, whether the engine's poll saw the original `REPLACED` before or
 * after the other process stored the replacement; the engine's own modify afterwards follows on.
 * Before, the engine told none of them (`outside-change.int.test.ts` runs it through `hoga order`).
 * A modify from another channel, which leaves nothing in the store, ends the order as before.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { takeCommandLease } from '../live/run-lease.js';
import {
  type LiveFixture,
  modifyTo,
  priceLimits,
  submitLimit,
  useLiveFixtures,
} from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';

const live = useLiveFixtures(afterEach);
const opened: HogaDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** Another process's order manager on the same store file. */
function other(f: LiveFixture): OrderManager {
  const db = HogaDatabase.open(f.dbFile, { clock: f.clock });
  opened.push(db);
  return new OrderManager(f.client, db, f.clock);
}

/** The engine's events of an order after its acceptance, as `type brokerOrderId<-previous price quantity`. */
function after(events: readonly OrderEvent[], clientOrderId: string): string[] {
  return events
    .filter(
      (e) => e.clientOrderId === clientOrderId && e.type !== 'OrderSubmitted' && e.type !== 'OrderAccepted',
    )
    .map((e) =>
      e.type === 'OrderModified'
        ? `OrderModified ${e.brokerOrderId}<-${e.previousBrokerOrderId} ${e.price?.toFixed()} ${e.quantity?.toFixed()}`
        : e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled'
          ? `${e.type} ${e.fill.brokerOrderId} ${e.fill.quantity.toFixed()}`
          : e.type,
    );
}

/** The engine (reconciled) rests a limit buy of 4 005930 at the lower limit; answers its broker order. */
async function engineOrder(f: LiveFixture) {
  await f.manager.reconcile();
  const { lower, upper } = await priceLimits(f.client, '005930');
  const order = submitLimit('005930', 'BUY', '4', lower);
  await f.manager.execute(order);
  const first = f.manager.currentExecution(order.intent.clientOrderId)?.brokerOrderId ?? '';
  await f.manager.pollOnce();
  return { order, id: order.intent.clientOrderId, first, lower, upper };
}

describe("another process's modify of an engine's order", () => {
  it('seen REPLACED by a poll before that process stored the replacement: told at the next poll', async () => {
    const f = await live();
    const { order, id, first, lower } = await engineOrder(f);
    const higher = new Decimal(lower).plus(100).toString();
    const elsewhere = other(f);
    // its answer held back: the engine polls meanwhile and finds the original REPLACED
    f.sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders/*/modify',
      count: 1,
      delayMs: 1_500,
    });
    // as hoga order holds its command's lease while it waits: the engine leaves the command to it
    const modify = modifyTo(order, higher, '3');
    const lease = takeCommandLease(f.db, modify.commandId, f.clock.nowMs());
    const modifying = elsewhere.execute(modify).finally(() => lease.release());
    while ((await f.client.getOrder(first)).status !== 'REPLACED') await f.manager.pollOnce();
    await f.manager.pollOnce();
    expect(after(f.events, id)).toEqual([]);
    await modifying;
    const made = elsewhere.currentExecution(id)?.brokerOrderId;
    await f.manager.pollOnce();
    expect(after(f.events, id)).toEqual([`OrderModified ${made}<-${first} ${higher} 3`]);
    await f.manager.pollOnce(); // told once
    expect(after(f.events, id)).toHaveLength(1);
  });

  it('two between polls are told in order; a modify of its own then follows the last', async () => {
    const f = await live();
    const { order, id, first, lower } = await engineOrder(f);
    const [p1, p2, p3] = [100, 200, 300].map((d) => new Decimal(lower).plus(d).toString());
    const elsewhere = other(f);
    await elsewhere.execute(modifyTo(order, p1 as string, '3'));
    const second = elsewhere.currentExecution(id)?.brokerOrderId;
    await elsewhere.execute(modifyTo(order, p2 as string, '3'));
    const third = elsewhere.currentExecution(id)?.brokerOrderId;
    await f.manager.pollOnce();
    await f.manager.execute(modifyTo(order, p3 as string, '2'));
    const fourth = f.manager.currentExecution(id)?.brokerOrderId;
    expect(after(f.events, id)).toEqual([
      `OrderModified ${second}<-${first} ${p1} 3`,
      `OrderModified ${third}<-${second} ${p2} 3`,
      'OrderModifyRequested',
      `OrderModified ${fourth}<-${third} ${p3} 2`,
    ]);
    expect([f.db.orders.get(id)?.price?.toFixed(), f.db.orders.get(id)?.quantity?.toFixed()]).toEqual([
      p3,
      '2',
    ]);
  });

  it('one the broker fills at once: OrderModified, then the replacement fills the order', async () => {
    const f = await live();
    const { order, id, first, upper } = await engineOrder(f);
    const elsewhere = other(f);
    await elsewhere.execute(modifyTo(order, upper, '2'));
    const made = elsewhere.currentExecution(id)?.brokerOrderId;
    while ((await f.client.getOrder(made ?? '')).status !== 'FILLED') await f.manager.pollOnce();
    await f.manager.pollOnce();
    expect(after(f.events, id)).toEqual([
      `OrderModified ${made}<-${first} ${upper} 2`,
      `OrderFilled ${made} 2`,
    ]);
    expect(f.db.orders.get(id)?.state).toBe('FILLED');
  });

  it('one from another channel (straight at the broker, nothing stored): the order ends replaced-elsewhere', async () => {
    const f = await live();
    const { id, first, lower } = await engineOrder(f);
    const price = new Decimal(lower).plus(100);
    const made = await f.client.modifyOrder(first, { orderType: 'LIMIT', price, quantity: new Decimal(3) });
    if (made.kind !== 'acknowledged') throw new Error('the modify was not answered');
    await f.manager.pollOnce();
    const ended = f.events.find((e) => e.clientOrderId === id && e.type === 'OrderCanceled');
    expect(after(f.events, id)).toEqual(['OrderCanceled']);
    expect(ended).toMatchObject({ reason: 'replaced-elsewhere' });
    expect(f.alerts).toContainEqual(
      expect.objectContaining({ type: 'ExternalOrderAdopted', brokerOrderId: made.orderId }),
    );
  });
});
