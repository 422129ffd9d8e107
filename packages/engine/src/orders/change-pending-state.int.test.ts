/**
 * The stored state of a logical order (`hoga db orders`, a restarted strategy's `ctx.order()`) while
 * a cancel and a modify of it, or two cancels, are both on their way, over real HTTP against the
 * simulator and a real SQLite file. It follows core's table as the strategy's view does
 * (`ORDER_TRANSITIONS`, `PendingChanges`): the order stays pending while any change of it is
 * unanswered, and a pending cancel outranks a modify; a cancel the broker took keeps it
 * `PENDING_CANCEL` until a poll records its end. Before, a modify stored while a cancel was pending
 * wrote `PENDING_MODIFY` over `PENDING_CANCEL`, and the refusal of a modify or of a second cancel
 * given after the broker took the first cancel wrote `ACCEPTED`, until the next poll recorded
 * `CANCELED`: `hoga db orders` and a restart in that window showed the cancelled order working.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminalOrderState, type OrderEvent, type OrderState, transitionOrder } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PendingChanges } from '../pending-changes.js';
import { cancelOf, type LiveFixture, modifyTo, useLiveFixtures } from './live-fixture.test-helper.js';
import { resting } from './lost-answers.test-helper.js';

const live = useLiveFixtures(afterEach);

/** The order's state as a strategy hearing `events` sees it (its view's own fold). */
function viewed(events: readonly OrderEvent[], clientOrderId: string): OrderState {
  const changes = new PendingChanges();
  let state: OrderState = 'INITIALIZED';
  for (const event of events) {
    if (event.clientOrderId !== clientOrderId) continue;
    state = transitionOrder(state, event.type, changes.note(event, state) ?? { hasFills: false });
    if (isTerminalOrderState(state)) changes.forget(clientOrderId);
  }
  return state;
}

/** The stored state, and the strategy's view of the same events: they must agree. */
function states(f: LiveFixture, clientOrderId: string): [string | undefined, OrderState] {
  return [f.db.orders.get(clientOrderId)?.state, viewed(f.events, clientOrderId)];
}

/** The next poll, a second of the simulator's clock later (it reads the orders closed since). */
async function poll(f: LiveFixture): Promise<void> {
  f.sim.advanceClock(1_000);
  await f.manager.pollOnce();
}

/** Waits until the broker shows the broker order cancelled (a cancel committed, its answer held). */
async function untilCanceled(f: LiveFixture, brokerOrderId: string): Promise<void> {
  while ((await f.client.getOrder(brokerOrderId)).status !== 'CANCELED') await sleep(20);
}

describe('stored state of an order with a cancel and another change both pending (real HTTP, one store file)', () => {
  it("a modify sent while the cancel is unanswered leaves the order PENDING_CANCEL, also after its refusal and the cancel's answer", async () => {
    const f = await live();
    await f.manager.reconcile();
    const { order, original, lower } = await resting(f);
    const id = order.intent.clientOrderId;
    // the broker cancels the order and holds the cancel's answer back: the modify meets it cancelled
    f.sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders/*/cancel',
      count: 1,
      delayMs: 8_000,
    });
    const cancelling = f.manager.execute(cancelOf(order));
    await untilCanceled(f, original);
    expect(states(f, id)).toEqual(['PENDING_CANCEL', 'PENDING_CANCEL']);
    await f.manager.execute(modifyTo(order, lower, '1'));
    const [cancel] = f.manager.store.commandsOf(id).filter((c) => c.kind === 'cancel');
    expect(cancel?.status).toBe('sending'); // the modify was refused while the cancel was unanswered
    expect(f.events.filter((e) => e.type === 'OrderModifyRejected').map((e) => e.code)).toEqual([
      'already-canceled',
    ]);
    expect(states(f, id)).toEqual(['PENDING_CANCEL', 'PENDING_CANCEL']);
    await cancelling;
    expect(states(f, id)).toEqual(['PENDING_CANCEL', 'PENDING_CANCEL']);
    await poll(f);
    expect(states(f, id)).toEqual(['CANCELED', 'CANCELED']);
  });

  it.each([
    ['a modify', (order: Parameters<typeof cancelOf>[0], lower: string) => modifyTo(order, lower, '1')],
    ['a second cancel', (order: Parameters<typeof cancelOf>[0]) => cancelOf(order)],
  ] as const)(
    '%s refused after the broker took the cancel, before a poll saw it, leaves the order PENDING_CANCEL; a restart then ends it',
    async (_label, change) => {
      const f = await live();
      await f.manager.reconcile();
      const { order, lower } = await resting(f);
      const id = order.intent.clientOrderId;
      await f.manager.execute(cancelOf(order)); // answered: the broker cancelled the order
      expect(states(f, id)).toEqual(['PENDING_CANCEL', 'PENDING_CANCEL']);
      await f.manager.execute(change(order, lower)); // the store still holds the broker order open
      const refusals = f.events.filter(
        (e) => e.type === 'OrderModifyRejected' || e.type === 'OrderCancelRejected',
      );
      expect(refusals.map((e) => [e.code, e.sent])).toEqual([['already-canceled', true]]);
      expect(states(f, id)).toEqual(['PENDING_CANCEL', 'PENDING_CANCEL']);
      // killed here: the restart's reconcile ends the order from the broker's record
      await f.restart().reconcile();
      expect(f.db.orders.get(id)?.state).toBe('CANCELED');
      const end = f.events.filter((e) => e.clientOrderId === id && e.type === 'OrderCanceled');
      expect(end.map((e) => e.type === 'OrderCanceled' && e.reason)).toEqual(['user']);
      expect(viewed(f.events, id)).toBe('CANCELED');
    },
  );

  it('a cancel refused while a modify is unanswered leaves the order PENDING_MODIFY until the modify is answered', async () => {
    // (no wait for a newer broker order: the cancel is refused already-processing at once)
    const f = await live(undefined, { newestOrderWaitMs: 0 });
    await f.manager.reconcile();
    const { order, original, lower } = await resting(f);
    const id = order.intent.clientOrderId;
    // the modify stays in progress at the broker (PENDING_REPLACE) while the cancel is sent
    f.sim.injectFault({ kind: 'slow-order', path: '/api/v1/orders/*/modify', count: 1, delayMs: 5_000 });
    const modifying = f.manager.execute(modifyTo(order, lower, '1'));
    while ((await f.client.getOrder(original)).status !== 'PENDING_REPLACE') await sleep(20);
    await f.manager.execute(cancelOf(order));
    expect(f.events.filter((e) => e.type === 'OrderCancelRejected').map((e) => [e.code, e.sent])).toEqual([
      ['already-processing', true],
    ]);
    expect(f.manager.store.commandsOf(id).find((c) => c.kind === 'modify')?.status).toBe('sending');
    expect(states(f, id)).toEqual(['PENDING_MODIFY', 'PENDING_MODIFY']);
    await modifying;
    expect(states(f, id)).toEqual(['ACCEPTED', 'ACCEPTED']);
    expect(f.db.orders.get(id)?.quantity?.toString()).toBe('1');
  });
});
