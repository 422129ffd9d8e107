/**
 * A cancel whose answer was lost, on an order whose broker id a modify had replaced (the broker
 * shows the old one `REPLACED`), over real HTTP against the simulator and a real SQLite file. The
 * answered path follows the order to its replacement (the broker's 409 `already-modified`, then the
 * cancel sent again to the newer broker order once it is stored); a lost answer does the same,
 * whichever way the engine finds the target replaced: the connector's read of the order right after
 * the loss, or (that read failing too) the resolver at a later poll. Before, both refused the
 * cancel `order-closed` and never sent it on: the strategy believed its order ended while it kept
 * working at the broker under the new id. With no newer broker order stored (a modify from another
 * channel), the cancel is refused `already-modified`, as the answered path refuses it.
 *
 * The answer is lost as a 500 (`internal-error`) on the cancel, the connector's re-read of the
 * order as 500s on `GET /orders/{id}`.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cancelOf,
  externalLimitBuy,
  type LiveFixture,
  modifyTo,
  useLiveFixtures,
} from './live-fixture.test-helper.js';
import {
  changeRefusals,
  loseChange,
  modifiedByAnotherProcess,
  RETRIES,
  resting,
  untilReplaced,
} from './lost-answers.test-helper.js';

const live = useLiveFixtures(afterEach);
/**
 * The order ended cancelled: at the broker (its replacement), in the store, and for the strategy
 * once a poll brought the cancel's report.
 */
async function expectCancelled(f: LiveFixture, id: string, original: string): Promise<void> {
  f.sim.advanceClock(1_000);
  await f.manager.pollOnce();
  const modify = f.manager.store.commandsOf(id).find((c) => c.kind === 'modify');
  const replacement = modify?.resultBrokerOrderId ?? '';
  expect([modify?.status, modify?.targetBrokerOrderId]).toEqual(['done', original]);
  const cancel = f.manager.store.commandsOf(id).find((c) => c.kind === 'cancel');
  expect([cancel?.status, cancel?.targetBrokerOrderId]).toEqual(['done', replacement]); // followed
  expect(changeRefusals(f.events)).toEqual([]);
  expect((await f.client.getOrder(replacement)).status).toBe('CANCELED');
  expect(f.events.filter((e) => e.type === 'OrderCanceled')).toHaveLength(1);
  expect(f.db.orders.get(id)?.state).toBe('CANCELED');
  expect(f.manager.store.unresolvedCommands()).toEqual([]);
}

describe('a cancel whose answer was lost, on an order modified meanwhile (real HTTP, SQLite file)', () => {
  it("follows another process's modify to the replacement, found by the connector's read", async () => {
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    const modifying = modifiedByAnotherProcess(f, order, lower);
    await untilReplaced(f, original);
    loseChange(f, 'cancel');
    await f.manager.execute(cancelOf(order)); // waits for the other process to store the replacement
    await modifying;
    expect(f.sim.counters().faultsFired).toBe(2); // the other process's answer held, the cancel's lost
    await expectCancelled(f, order.intent.clientOrderId, original);
  });

  it("follows another process's modify to the replacement at the next poll, the connector's read failing too", async () => {
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    const modifying = modifiedByAnotherProcess(f, order, lower);
    await untilReplaced(f, original);
    loseChange(f, 'cancel', original);
    await f.manager.execute(cancelOf(order));
    expect(f.sim.counters().faultsFired).toBe(RETRIES + 3); // the modify's answer held; the cancel's and each read lost
    const cancel = f.manager.store.unresolvedCommands().filter((c) => c.kind === 'cancel');
    expect(cancel.map((c) => c.status)).toEqual(['ambiguous']);
    await modifying;
    await f.manager.pollOnce();
    await expectCancelled(f, order.intent.clientOrderId, original);
  });

  it("follows the engine's own earlier modify, its answer lost too, once a poll finds the replacement", async () => {
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    const modifyPath = '/api/v1/orders/*/modify';
    f.sim.injectFault({ kind: 'drop-after-commit', path: modifyPath, count: 1 });
    const read = `/api/v1/orders/${original}`;
    f.sim.injectFault({ kind: 'internal-error', path: read, method: 'GET', count: RETRIES + 1 });
    await f.manager.execute(modifyTo(order, lower, '1'));
    expect((await f.client.getOrder(original)).status).toBe('REPLACED');
    loseChange(f, 'cancel', original);
    await f.manager.execute(cancelOf(order)); // the store still shows the original open: sent there
    const unresolved = () => f.manager.store.unresolvedCommands().map((c) => `${c.kind}:${c.status}`);
    expect(unresolved().sort()).toEqual(['cancel:ambiguous', 'modify:ambiguous']);
    // A poll finds the modify's replacement in the history, and the cancel, looked for after it
    // (commands of the same engine millisecond are looked for in the order they were made), follows it.
    for (let poll = 0; poll < 2 && unresolved().length > 0; poll++) await f.manager.pollOnce();
    await expectCancelled(f, order.intent.clientOrderId, original);
    expect(f.events.map((e) => e.type)).toContain('OrderModified');
  });

  it("waits while the engine's own modify, which may have made the replacement, is still looked for", async () => {
    // An order of the same terms placed from another channel right after the modify: the history
    // shows two orders that match the modify, so its outcome stays unknown for now. The cancel
    // found the order REPLACED, no newer broker order stored: it is not refused while the modify
    // that may have made the replacement is looked for (before the wait, it was refused at once).
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    f.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders/*/modify', count: 1 });
    const read = `/api/v1/orders/${original}`;
    f.sim.injectFault({ kind: 'internal-error', path: read, method: 'GET', count: RETRIES + 1 });
    await f.manager.execute(modifyTo(order, lower, '1'));
    await externalLimitBuy(f.client, '005930', 1, lower);
    loseChange(f, 'cancel', original);
    await f.manager.execute(cancelOf(order));
    f.sim.advanceClock(1_000);
    await f.manager.pollOnce();
    expect(changeRefusals(f.events)).toEqual([]);
    const unresolved = f.manager.store.unresolvedCommands().map((c) => `${c.kind}:${c.status}`);
    expect(unresolved.sort()).toEqual(['cancel:ambiguous', 'modify:ambiguous']);
  });

  it('is refused already-modified at the next poll when no newer broker order is stored (modified from another channel)', async () => {
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    await f.client.modifyOrder(original, {
      orderType: 'LIMIT',
      price: new Decimal(lower),
      quantity: new Decimal('1'),
    });
    loseChange(f, 'cancel', original);
    await f.manager.execute(cancelOf(order));
    await f.manager.pollOnce();
    expect(changeRefusals(f.events)).toEqual([
      [
        'OrderCancelRejected',
        'already-modified',
        true,
        `broker order ${original} was modified (REPLACED); no newer broker order of ${order.intent.clientOrderId} is stored (modified from another channel?): the next poll adopts it`,
      ],
    ]);
    expect(f.manager.store.unresolvedCommands()).toEqual([]);
  });
});
