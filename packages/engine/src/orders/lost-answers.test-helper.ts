/**
 * Test helpers of the lost-answer tests (change-lost-answer, change-lost-replaced,
 * change-lost-modify): the connector's retries they run with, the loss of a change's answer and of
 * the connector's re-reads of its order, the refusals the strategy heard, second stores on the
 * fixture's file (another process, `hoga order`), closed after each test, and a resting order
 * another process modifies.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach } from 'vitest';
import { type LiveFixture, modifyTo, priceLimits, submitLimit } from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';

/** The connector's retries: the read of the order after a lost answer is tried this often plus one. */
export const RETRIES = 1;

/**
 * Loses the answer of the next `kind` request (a 500, which the connector treats as a dropped
 * connection: the request may have reached the broker) and, with `readOf`, each of the connector's
 * reads of that broker order after it.
 */
export function loseChange(f: LiveFixture, kind: 'cancel' | 'modify', readOf?: string): void {
  f.sim.injectFault({ kind: 'internal-error', path: `/api/v1/orders/*/${kind}`, count: 1 });
  if (readOf !== undefined) {
    f.sim.injectFault({
      kind: 'internal-error',
      path: `/api/v1/orders/${readOf}`,
      method: 'GET',
      count: RETRIES + 1,
    });
  }
}

/** The refusals of modifies and cancels in `events`, as `[type, code, sent, reason]`. */
export function changeRefusals(
  events: readonly OrderEvent[],
): [string, string | undefined, boolean | undefined, string][] {
  const out: [string, string | undefined, boolean | undefined, string][] = [];
  for (const e of events)
    if (e.type === 'OrderCancelRejected' || e.type === 'OrderModifyRejected')
      out.push([e.type, e.code, e.sent, e.reason]);
  return out;
}

const opened: HogaDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** Another store on the fixture's file, as a second process opens it (closed after the test). */
export function secondStore(f: LiveFixture): HogaDatabase {
  const db = HogaDatabase.open(f.dbFile, { clock: f.clock });
  opened.push(db);
  return db;
}

/** A resting buy of 2 005930 at the lower limit, placed by the engine: the order and its broker id. */
export async function resting(f: LiveFixture) {
  const { lower } = await priceLimits(f.client, '005930');
  const order = submitLimit('005930', 'BUY', '2', lower);
  await f.manager.execute(order);
  const original = f.manager.currentExecution(order.intent.clientOrderId)?.brokerOrderId ?? '';
  return { order, original, lower };
}

/** Waits until the broker shows the broker order replaced (a modify committed, its answer held). */
export async function untilReplaced(f: LiveFixture, brokerOrderId: string): Promise<void> {
  while ((await f.client.getOrder(brokerOrderId)).status !== 'REPLACED') await sleep(20);
}

/**
 * Another process on the same store (`hoga order modify`) modifies the engine's order to quantity
 * 1; the broker commits it (the old broker order `REPLACED`) and its answer is held back 1.5 s, so
 * the engine's store still shows the old broker order open. Answers that process's modify, settled.
 */
export async function modifiedByAnotherProcess(
  f: LiveFixture,
  order: ReturnType<typeof submitLimit>,
  lower: string,
) {
  const cli = new OrderManager(f.client, secondStore(f), f.clock);
  f.sim.injectFault({
    kind: 'delay-after-commit',
    path: '/api/v1/orders/*/modify',
    count: 1,
    delayMs: 1_500,
  });
  return cli.execute(modifyTo(order, lower, '1'));
}
