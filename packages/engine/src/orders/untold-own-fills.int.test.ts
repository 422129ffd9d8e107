/**
 * The fills of a strategy the process runs are noted untold in the transaction that counts them
 * and their notes dropped once told (`untold-events.ts`), so that a kill between the commit and the
 * telling leaves them to the next start. A strategy told of a fill may act at once, and what it does
 * can count a report of its own (a hold and release inside the release that tells it): the fills
 * told after it in the same release are dropped from the notes too. Before, the inner release
 * cleared the set of noted fills the outer one was telling, and their notes stayed, to be told a
 * second time at the next start. The simulator over HTTP, the store a SQLite file.
 */
import type { OrderRecord } from '@hoga/connector';
import { afterEach, describe, expect, it } from 'vitest';
import { priceLimits, submitLimit, useLiveFixtures } from './live-fixture.test-helper.js';
import { untoldEvents } from './untold-events.js';

const live = useLiveFixtures(afterEach);

describe('the notes of the fills a running strategy is told', () => {
  it('are all dropped once told, when the strategy acts on the first fill of a poll at once', async () => {
    const f = await live(undefined, { strategies: ['test'] });
    const { lower } = await priceLimits(f.client, '005930');
    const first = submitLimit('005930', 'BUY', '5', lower);
    const second = submitLimit('005930', 'BUY', '3', lower);
    await f.manager.execute(first);
    await f.manager.execute(second);
    await f.manager.pollOnce();
    const firstId = f.manager.currentExecution(first.intent.clientOrderId)?.brokerOrderId as string;
    // a report of the first order as it worked: counting it again changes nothing, but holds
    const working: OrderRecord = await f.client.getOrder(firstId);
    expect(working.status).toBe('PENDING');

    const told: string[] = [];
    f.manager.events$.subscribe((e) => {
      if (e.type !== 'OrderFilled' && e.type !== 'OrderPartiallyFilled') return;
      told.push(e.clientOrderId);
      // the strategy acts on the first fill at once: a report counted inside the telling
      if (e.clientOrderId === first.intent.clientOrderId) f.manager.applyRecord(working);
    });
    // both fill at the lower limit; one poll counts them in one transaction and tells them after it
    f.sim.setPrice('005930', lower);
    f.sim.advanceClock(60_000);
    await f.manager.pollOnce();

    expect(told.sort()).toEqual([first.intent.clientOrderId, second.intent.clientOrderId].sort());
    expect(untoldEvents(f.db, 'test').map((e) => e.clientOrderId)).toEqual([]);
  });
});
