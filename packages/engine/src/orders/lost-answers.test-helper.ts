/**
 * Test helpers of the lost-answer tests (change-lost-answer, change-lost-replaced): the connector's
 * retries they run with, the loss of a change's answer and of the connector's re-reads of its
 * order, the refusals the strategy heard, and second stores on the fixture's file (another
 * process, `hoga order`), closed after each test.
 */
import type { OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach } from 'vitest';
import type { LiveFixture } from './live-fixture.test-helper.js';

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
