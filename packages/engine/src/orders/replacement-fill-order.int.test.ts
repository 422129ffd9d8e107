/**
 * The fills of a modified order and of its replacement reach subscribers in the order they were
 * made. The broker lists one row per order with the time of its last fill; a modify ends the
 * original `REPLACED` (listed CLOSED, or in no list once it is older than the closed pages a poll
 * reads) and opens its replacement, so a poll finds the replacement in the OPEN list and the
 * original's last fills elsewhere. Before, the replacement's fill went out first whenever no poll
 * had seen the original's last fill yet. Real: the simulator over HTTP, the store a SQLite file.
 */
import type { OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  allBrokerOrders,
  brokerFillsByOrder,
  type LiveFixture,
  modifyTo,
  storedFillsByBrokerOrder,
  submitLimit,
  US_OPEN,
  useLiveFixtures,
} from './live-fixture.test-helper.js';

const live = useLiveFixtures(afterEach);

/** The fill events as subscribers got them: broker order, fill time, quantity. */
function fillsAsTold(events: readonly OrderEvent[]) {
  const out: { brokerOrderId: string; tsEvent: number; quantity: string }[] = [];
  for (const e of events)
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled')
      out.push({
        brokerOrderId: e.fill.brokerOrderId,
        tsEvent: e.fill.tsEvent,
        quantity: e.fill.quantity.toString(),
      });
  return out;
}

/**
 * A ZOM buy of 100,000 resting at the third bid (ZOM's book is thin: it fills in parts once the
 * price comes down to it), filled in part that no poll saw, then modified up to the ask (US: the
 * replacement is the unfilled rest), which fills at once. With `pollFirst`, a poll counted a first
 * part before: the original is then older than the closed pages the next poll reads (it is in no
 * list); without, that poll finds it on the closed pages.
 */
async function modifiedWithUnpolledFill(f: LiveFixture, pollFirst: boolean) {
  await f.manager.reconcile();
  const price = (await f.client.getOrderbook('ZOM')).bids[2]?.price.toString();
  if (price === undefined) throw new Error('no third bid');
  const order = submitLimit('ZOM', 'BUY', '100000', price);
  await f.manager.execute(order);
  const original = f.manager.currentExecution(order.intent.clientOrderId)?.brokerOrderId ?? '';
  f.sim.setPrice('ZOM', price);
  if (pollFirst) {
    f.sim.advanceClock(60_000);
    await f.manager.pollOnce(); // the first part
    expect(fillsAsTold(f.events).map((x) => x.brokerOrderId)).toEqual([original]);
  }
  f.sim.advanceClock(60_000); // the original fills (more), unpolled
  const unpolled = await f.client.getOrder(original);
  expect(unpolled.status).toBe('PARTIAL_FILLED');
  const ask = (await f.client.getOrderbook('ZOM')).asks[0]?.price.toString();
  if (ask === undefined) throw new Error('no ask');
  await f.manager.execute(modifyTo(order, ask));
  const modified = f.events.find((e) => e.type === 'OrderModified');
  if (modified?.type !== 'OrderModified') throw new Error('the modify was not applied');
  f.sim.advanceClock(60_000); // the replacement fills at the ask
  return { original, replacement: modified.brokerOrderId, before: f.events.length };
}

/** Every fill told once, as the broker counts it, and in the order of their times. */
async function expectToldInTimeOrder(f: LiveFixture, original: string, replacement: string) {
  const told = fillsAsTold(f.events);
  expect(told.map((x) => x.tsEvent)).toEqual(told.map((x) => x.tsEvent).sort((a, b) => a - b));
  const last = told.findLastIndex((x) => x.brokerOrderId === original);
  expect(told.findIndex((x) => x.brokerOrderId === replacement)).toBeGreaterThan(last);
  const broker = brokerFillsByOrder(await allBrokerOrders(f.client));
  expect(broker.get(replacement)?.gt(0)).toBe(true);
  const stored = storedFillsByBrokerOrder(f.db);
  expect([...stored].map(([id, q]) => [id, q.toString()]).sort()).toEqual(
    [...broker].map(([id, q]) => [id, q.toString()]).sort(),
  );
}

describe('OrderManager with a modified order whose last fill no poll saw (real HTTP, SQLite file)', () => {
  it("tells the original's last fill before the replacement's when the original is on the closed pages", async () => {
    const f = await live(US_OPEN);
    const { original, replacement, before } = await modifiedWithUnpolledFill(f, false);
    await f.manager.pollOnce();
    const now = fillsAsTold(f.events.slice(before)).map((x) => x.brokerOrderId);
    expect(now).toEqual([original, replacement]);
    await expectToldInTimeOrder(f, original, replacement);
    expect(f.alerts).toEqual([]);
  });

  it("tells the original's last fill before the replacement's when no list shows the original", async () => {
    const f = await live(US_OPEN);
    const { original, replacement, before } = await modifiedWithUnpolledFill(f, true);
    await f.manager.pollOnce();
    const now = fillsAsTold(f.events.slice(before)).map((x) => x.brokerOrderId);
    expect(now).toEqual([original, replacement]);
    await expectToldInTimeOrder(f, original, replacement);
    expect(f.alerts).toEqual([]);
  });

  it('reads the original outside the turn of detail reads, which other orders wait for', async () => {
    // no detail reads in turn: an AAPL buy filled since the last poll, and in no list either, is
    // not read; the original of the listed replacement is
    const f = await live(US_OPEN, { maxDetailReads: 0 });
    const bid = (await f.client.getOrderbook('AAPL')).bids[2]?.price.toString();
    if (bid === undefined) throw new Error('no third AAPL bid');
    const other = submitLimit('AAPL', 'BUY', '1', bid);
    await f.manager.execute(other);
    const { original, replacement, before } = await modifiedWithUnpolledFill(f, true);
    const aapl = f.manager.currentExecution(other.intent.clientOrderId)?.brokerOrderId ?? '';
    f.sim.setPrice('AAPL', bid);
    f.sim.advanceClock(60_000);
    expect((await f.client.getOrder(aapl)).status).toBe('FILLED');
    await f.manager.pollOnce();
    expect(fillsAsTold(f.events.slice(before)).map((x) => x.brokerOrderId)).toEqual([original, replacement]);
    expect(f.manager.currentExecution(other.intent.clientOrderId)?.closed).toBe(false);
    expect(f.alerts).toEqual([]);
  });
});
