/**
 * A modify or cancel whose answer was lost, on an order that had ended at the broker meanwhile,
 * over real HTTP against the simulator and a real SQLite file. The strategy hears the code the
 * broker gives the same request when its answer comes (409 `already-filled`, `already-canceled`,
 * `already-rejected`), whichever way the engine finds the order ended: the connector's read of the
 * order right after the loss, or (that read failing too) the resolver at a later poll; so does a
 * cancel of another process that, refused `already-modified`, finds the replacement ended. Before,
 * all three answered `order-closed`, so a strategy handling `already-filled` in `onOrderEvent` saw
 * another code whenever a network answer was lost.
 *
 * The answer is lost as a 500 (`internal-error`): the connector treats it as it treats a dropped
 * connection (the request may have reached the broker, so the order is read). The simulator's
 * `drop-after-commit` loses only an answer the broker accepted; its 409 refusals come through.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cancelOf,
  KR_OPEN,
  type LiveFixture,
  modifyTo,
  priceLimits,
  submitAmount,
  submitLimit,
  US_OPEN,
  useLiveFixtures,
} from './live-fixture.test-helper.js';
import { changeRefusals, loseChange, RETRIES, secondStore } from './lost-answers.test-helper.js';
import { OrderManager } from './order-manager.js';

const live = useLiveFixtures(afterEach);

/** How the order ended at the broker: see {@link ended}. */
type Ending = 'FILLED' | 'CANCELED' | 'REJECTED';

/** The fixture of an order that ends so: a US one (at the US session) for `REJECTED`. */
const liveFor = (how: Ending) => live(how === 'REJECTED' ? US_OPEN : KR_OPEN, {}, { maxRetries: RETRIES });

/**
 * An order that ended at the broker, the store not knowing yet: a buy of 005930 at the upper
 * limit fills at once (`FILLED`); one at the lower limit rests and is cancelled through another
 * channel (`CANCELED`); a US buy of $0.5 of ZOM is rejected, under the broker's $1 minimum
 * (`REJECTED`). Also a price to modify the 005930 order to.
 */
async function ended(f: LiveFixture, how: Ending) {
  const { lower, upper } = await priceLimits(f.client, '005930');
  const order =
    how === 'REJECTED'
      ? submitAmount('ZOM', 'BUY', '0.5')
      : submitLimit('005930', 'BUY', '1', how === 'FILLED' ? upper : lower);
  await f.manager.execute(order);
  const brokerOrderId = f.manager.currentExecution(order.intent.clientOrderId)?.brokerOrderId ?? '';
  if (how === 'CANCELED') await f.client.cancelOrder(brokerOrderId);
  expect((await f.client.getOrder(brokerOrderId)).status).toBe(how);
  return { order, brokerOrderId, price: how === 'FILLED' ? lower : upper };
}

/** The change, how its order ended, and the broker's code for it. */
const ENDED_CASES = [
  ['cancel', 'FILLED', 'already-filled'],
  ['modify', 'FILLED', 'already-filled'],
  ['modify', 'CANCELED', 'already-canceled'],
  ['cancel', 'REJECTED', 'already-rejected'],
] as const;

describe('a modify or cancel whose answer was lost, on an order that ended (real HTTP, SQLite file)', () => {
  it.each(ENDED_CASES)(
    "a %s of an order %s is refused with the broker's code, %s, found by the connector's read",
    async (kind, how, code) => {
      const f = await liveFor(how);
      const { order, price } = await ended(f, how);
      loseChange(f, kind);
      await f.manager.execute(kind === 'cancel' ? cancelOf(order) : modifyTo(order, price, '1'));
      expect(f.sim.counters().faultsFired).toBe(1);
      const type = kind === 'cancel' ? 'OrderCancelRejected' : 'OrderModifyRejected';
      expect(changeRefusals(f.events)).toEqual([[type, code, true, `the order was already ${how}`]]);
      expect(f.manager.store.unresolvedCommands()).toEqual([]);
    },
  );

  it.each(ENDED_CASES)(
    "a %s of an order %s, the connector's read failing too, is refused %s at the next poll",
    async (kind, how, code) => {
      const f = await liveFor(how);
      const { order, brokerOrderId, price } = await ended(f, how);
      loseChange(f, kind, brokerOrderId);
      await f.manager.execute(kind === 'cancel' ? cancelOf(order) : modifyTo(order, price, '1'));
      expect(f.sim.counters().faultsFired).toBe(RETRIES + 2); // the send and each read lost
      expect(changeRefusals(f.events)).toEqual([]); // the outcome is not known yet
      expect(f.manager.store.unresolvedCommands().map((c) => [c.kind, c.status])).toEqual([
        [kind, 'ambiguous'],
      ]);
      await f.manager.pollOnce();
      const type = kind === 'cancel' ? 'OrderCancelRejected' : 'OrderModifyRejected';
      expect(changeRefusals(f.events)).toEqual([
        [type, code, true, `the order is ${how}; the ${kind} did not take effect`],
      ]);
      expect(f.manager.store.unresolvedCommands()).toEqual([]);
      expect(f.db.orders.get(order.intent.clientOrderId)?.state).toBe(how);
    },
  );

  it('a cancel whose answer was lost, on an order canceled elsewhere, ends the order CANCELED: no refusal', async () => {
    // The broker shows the order CANCELED with a cancel record nothing here made; the lost cancel
    // cannot be told apart from it, so that record is taken as its outcome (the strategy wanted the
    // order cancelled, and it is). Only a refusal that arrives says `already-canceled`.
    const f = await liveFor('CANCELED');
    const { order } = await ended(f, 'CANCELED');
    loseChange(f, 'cancel');
    await f.manager.execute(cancelOf(order));
    await f.manager.pollOnce();
    expect(f.sim.counters().faultsFired).toBe(1);
    expect(changeRefusals(f.events)).toEqual([]);
    expect(f.events.map((e) => e.type)).toContain('OrderCanceled');
    expect(f.manager.store.unresolvedCommands()).toEqual([]);
    expect(f.db.orders.get(order.intent.clientOrderId)?.state).toBe('CANCELED');
  });

  it("a cancel from another process that follows an engine's modify to a replacement that filled is refused already-filled", async () => {
    // The engine's modify replaces the order by one at the upper limit, which fills at once; its
    // answer is held back, then lost, and the engine finds the replacement (FILLED) in the history.
    // Meanwhile another process (`hoga order cancel`) sent a cancel to the replaced order, which the
    // broker refused `already-modified`; it waits for the replacement to be stored, finds it ended,
    // and does not send the cancel again. Before, it was refused `order-closed`.
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { lower, upper } = await priceLimits(f.client, '005930');
    const order = submitLimit('005930', 'BUY', '1', lower);
    const id = order.intent.clientOrderId;
    await f.manager.execute(order);
    const original = f.manager.currentExecution(id)?.brokerOrderId ?? '';
    const cli = new OrderManager(f.client, secondStore(f), f.clock);
    const cliEvents: OrderEvent[] = [];
    cli.events$.subscribe((e) => cliEvents.push(e));
    const modifyPath = '/api/v1/orders/*/modify';
    f.sim.injectFault({ kind: 'delay-after-commit', path: modifyPath, count: 1, delayMs: 1_500 });
    f.sim.injectFault({ kind: 'drop-after-commit', path: modifyPath, count: 1 });
    const modifying = f.manager.execute(modifyTo(order, upper, '1'));
    while ((await f.client.getOrder(original)).status !== 'REPLACED') await sleep(20);
    await cli.execute(cancelOf(order));
    await modifying;

    const modify = f.manager.store.commandsOf(id).find((c) => c.kind === 'modify');
    expect(modify?.status).toBe('done');
    const replacement = modify?.resultBrokerOrderId ?? '';
    expect((await f.client.getOrder(replacement)).status).toBe('FILLED');
    expect(changeRefusals(cliEvents)).toEqual([
      [
        'OrderCancelRejected',
        'already-filled',
        true,
        `the order went on to broker order ${replacement}, already FILLED`,
      ],
    ]);
    expect(f.db.orders.get(id)?.state).toBe('FILLED');
  });
});
