/**
 * A create under a `clientOrderId` the store already holds is refused before it is sent. Strategies
 * of `hoga run` get random ids, but an engine built with a deterministic {@link OrderIdFactory}
 * (`SequentialOrderIds`, exported) hands the same ids out again after a restart, and its command
 * ids (`<clientOrderId>:submit`) repeat with them; an embedder of the order manager chooses both.
 * Before, only a command id this process had appended was refused: after a restart the create went
 * to the broker, which answered with the first order (same body, inside its 10-minute window), with
 * `idempotency-key-conflict` (another body), or placed a second order (past the window).
 * Over the simulator (HTTP on 127.0.0.1) and a SQLite file.
 */
import { createOrderIntent, Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubmitOrder } from '../commands/order-commands.js';
import { allBrokerOrders, priceLimits, submitLimit, useLiveFixtures } from './live-fixture.test-helper.js';

const live = useLiveFixtures(afterEach);

/** The same order under the same clientOrderId at another price, as another command. */
function repriced(order: SubmitOrder, price: string): SubmitOrder {
  const intent = order.intent;
  if (intent.sizing !== 'QUANTITY' || intent.orderType !== 'LIMIT') throw new Error('a limit order');
  return {
    ...order,
    commandId: `${order.commandId}-again`,
    intent: createOrderIntent({ ...intent, price: new Decimal(price) }),
  };
}

describe('a create under a clientOrderId the store holds', () => {
  it('is denied naming the id, after a restart, and nothing is sent or lost', async () => {
    const f = await live();
    const { lower } = await priceLimits(f.client, '005930');
    const first = submitLimit('005930', 'BUY', '3', lower);
    await f.manager.execute(first);
    await f.manager.pollOnce();
    const id = first.intent.clientOrderId;
    const before = f.db.orders.get(id);
    expect(before?.brokerOrderId).not.toBeNull();
    const brokerBefore = await allBrokerOrders(f.client);

    // a restart: the same command again, then the same clientOrderId at another price under
    // another command id, past the broker's 10-minute window
    f.restart();
    f.events.length = 0;
    await f.manager.reconcile();
    f.sim.advanceClock(11 * 60_000);
    for (const again of [first, repriced(first, new Decimal(lower).plus(10).toString())]) {
      await f.manager.execute(again);
    }

    const denials = f.events.filter((e) => e.type === 'OrderDenied');
    expect(denials).toHaveLength(2);
    for (const d of denials) {
      expect(d).toMatchObject({ clientOrderId: id, code: 'client-order-id-used' });
      expect(d.type === 'OrderDenied' && d.reason).toContain(id);
    }
    expect(f.events.filter((e) => e.type !== 'OrderDenied')).toEqual([]);
    expect((await allBrokerOrders(f.client)).length).toBe(brokerBefore.length);
    const after = f.db.orders.get(id);
    expect(after).toMatchObject({
      state: before?.state,
      brokerOrderId: before?.brokerOrderId,
      price: before?.price,
    });
    expect(f.manager.store.commandsOf(id).map((c) => c.commandId)).toEqual([first.commandId]);
  });

  it('is denied when this process sends it twice under two command ids', async () => {
    const f = await live();
    const { lower } = await priceLimits(f.client, '005930');
    const first = submitLimit('005930', 'BUY', '1', lower);
    const twin = { ...first, commandId: `${first.commandId}-again` };
    const brokerBefore = (await allBrokerOrders(f.client)).length;
    await Promise.all([f.manager.execute(first), f.manager.execute(twin)]);
    const id = first.intent.clientOrderId;
    expect(f.events.filter((e) => e.type === 'OrderDenied')).toMatchObject([
      { clientOrderId: id, code: 'client-order-id-used' },
    ]);
    expect((await allBrokerOrders(f.client)).length).toBe(brokerBefore + 1);
    expect(f.manager.store.commandsOf(id).map((c) => c.commandId)).toEqual([first.commandId]);
  });
});
