/**
 * A modify whose answer was lost, on an order another modify had replaced meanwhile (the broker
 * shows the broker order it was sent to `REPLACED`), over real HTTP against the simulator and a
 * real SQLite file. The broker takes one change of a broker order: when another stored modify made
 * the replacement, this one did not take effect, and it goes on to the replacement as an answered
 * 409 `already-modified` does (sent again there); with no replacement stored and no order in the
 * history of its terms (a modify from another channel), it is refused `already-modified`, as the
 * answered path refuses it. Before, the first was refused `already-modified` at the next poll
 * (never sent on: the strategy's new terms were dropped while the order worked on at the broker
 * with the other's), and the second stayed unknown after 5 checks and 120 s.
 *
 * The answer is lost as a 500 (`internal-error`) on the modify (it never reaches the broker, whose
 * answer would have been the 409), the connector's re-read of the order as 500s on
 * `GET /orders/{id}`.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type LiveFixture, modifyTo, useLiveFixtures } from './live-fixture.test-helper.js';
import {
  changeRefusals,
  loseChange,
  modifiedByAnotherProcess,
  RETRIES,
  resting,
  untilReplaced,
} from './lost-answers.test-helper.js';

const live = useLiveFixtures(afterEach);

/** The engine's modify: quantity 1 at one tick (100) above the lower limit, apart from the other's. */
function engineModify(order: Awaited<ReturnType<typeof resting>>['order'], lower: string) {
  return modifyTo(order, new Decimal(lower).plus(100).toFixed(), '1');
}

/**
 * The engine's modify went on to the other modify's replacement and made a newer broker order
 * there, with its own terms: at the broker, in the store and for the strategy.
 */
async function expectFollowed(
  f: LiveFixture,
  id: string,
  original: string,
  mine: string,
  price: string,
): Promise<void> {
  const modifies = f.manager.store.commandsOf(id).filter((c) => c.kind === 'modify');
  const other = modifies.find((c) => c.commandId !== mine);
  const own = modifies.find((c) => c.commandId === mine);
  expect([other?.status, other?.targetBrokerOrderId]).toEqual(['done', original]);
  const replacement = other?.resultBrokerOrderId ?? '';
  expect([own?.status, own?.targetBrokerOrderId]).toEqual(['done', replacement]); // followed
  const newest = own?.resultBrokerOrderId ?? '';
  expect(changeRefusals(f.events)).toEqual([]);
  expect((await f.client.getOrder(replacement)).status).toBe('REPLACED');
  const atBroker = await f.client.getOrder(newest);
  expect([atBroker.status, atBroker.price?.toFixed(), atBroker.quantity.toFixed()]).toEqual([
    'PENDING',
    price,
    '1',
  ]);
  const stored = f.db.orders.get(id);
  expect([stored?.state, stored?.price?.toFixed(), stored?.quantity?.toFixed()]).toEqual([
    'ACCEPTED',
    price,
    '1',
  ]);
  // the strategy hears the other process's modify, then its own, which followed it
  expect(
    f.events.flatMap((e) =>
      e.type === 'OrderModified' ? [`${e.previousBrokerOrderId}->${e.brokerOrderId}`] : [],
    ),
  ).toEqual([`${original}->${replacement}`, `${replacement}->${newest}`]);
  expect(f.manager.currentExecution(id)?.brokerOrderId).toBe(newest);
  expect(f.manager.store.unresolvedCommands()).toEqual([]);
}

describe('a modify whose answer was lost, on an order modified meanwhile (real HTTP, SQLite file)', () => {
  it.each([
    ["found by the connector's read", false],
    ["the connector's read failing too", true],
  ])("follows another process's modify to the replacement at the next poll, %s", async (_, readFails) => {
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    const modifying = modifiedByAnotherProcess(f, order, lower);
    await untilReplaced(f, original);
    loseChange(f, 'modify', readFails ? original : undefined);
    const mine = engineModify(order, lower);
    await f.manager.execute(mine); // the store still shows the original open: sent there, lost
    expect(f.sim.counters().faultsFired).toBe(readFails ? RETRIES + 3 : 2);
    const unresolved = f.manager.store.unresolvedCommands().filter((c) => c.commandId === mine.commandId);
    expect(unresolved.map((c) => c.status)).toEqual(['ambiguous']); // the other's outcome not known yet
    await modifying;
    await f.manager.pollOnce();
    const price = mine.price?.toFixed() ?? '';
    await expectFollowed(f, order.intent.clientOrderId, original, mine.commandId, price);
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
    loseChange(f, 'modify', original);
    const mine = engineModify(order, lower);
    await f.manager.execute(mine); // the store still shows the original open: sent there
    const unresolved = () => f.manager.store.unresolvedCommands().map((c) => `${c.kind}:${c.status}`);
    expect(unresolved()).toEqual(['modify:ambiguous', 'modify:ambiguous']);
    await f.manager.pollOnce(); // the first modify's replacement is found in the history, the second follows it
    const price = mine.price?.toFixed() ?? '';
    const id = order.intent.clientOrderId;
    const modifies = f.manager.store.commandsOf(id).filter((c) => c.kind === 'modify');
    expect(modifies.map((c) => c.commandId).at(-1)).toBe(mine.commandId);
    expect(changeRefusals(f.events)).toEqual([]);
    const stored = f.db.orders.get(id);
    expect([stored?.state, stored?.price?.toFixed(), stored?.quantity?.toFixed()]).toEqual([
      'ACCEPTED',
      price,
      '1',
    ]);
    const newest = modifies.at(-1)?.resultBrokerOrderId ?? '';
    expect(modifies.map((c) => [c.status, c.targetBrokerOrderId])).toEqual([
      ['done', original],
      ['done', modifies[0]?.resultBrokerOrderId],
    ]);
    expect((await f.client.getOrder(newest)).price?.toFixed()).toBe(price);
    expect(f.events.filter((e) => e.type === 'OrderModified')).toHaveLength(2);
    expect(f.manager.store.unresolvedCommands()).toEqual([]);
  });

  it('is refused already-modified once its checks are done when no replacement is stored (modified from another channel)', async () => {
    const f = await live(undefined, {}, { maxRetries: RETRIES });
    const { order, original, lower } = await resting(f);
    await f.client.modifyOrder(original, {
      orderType: 'LIMIT',
      price: new Decimal(lower),
      quantity: new Decimal('1'),
    });
    loseChange(f, 'modify', original);
    await f.manager.execute(engineModify(order, lower));
    const { minChecks, unknownAfterMs } = f.manager.options;
    // the lists may lag behind the broker: no refusal while the modify's order may yet show in them
    for (let poll = 1; poll < minChecks; poll++) {
      f.sim.advanceClock(unknownAfterMs / minChecks);
      await f.manager.pollOnce();
    }
    expect(changeRefusals(f.events)).toEqual([]);
    f.sim.advanceClock(unknownAfterMs / minChecks);
    await f.manager.pollOnce();
    expect(changeRefusals(f.events)).toEqual([
      [
        'OrderModifyRejected',
        'already-modified',
        true,
        `broker order ${original} was modified (REPLACED); no newer broker order of ${order.intent.clientOrderId} is stored (modified from another channel?): the next poll adopts it`,
      ],
    ]);
    expect(f.alerts.filter((a) => a.type === 'OrderOutcomeUnknown')).toEqual([]);
    expect(f.manager.store.unresolvedCommands()).toEqual([]);
  });
});
