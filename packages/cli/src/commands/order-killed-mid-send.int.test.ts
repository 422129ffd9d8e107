/**
 * `hoga order buy` killed (SIGKILL) while its create is on its way, with `hoga run` working on the
 * same store: child processes over the simulator, a real SQLite file. The broker placed the order.
 * Before: the command stayed `sending` and the order `SUBMITTED` (no broker order id in `hoga db
 * orders`) for as long as the engine ran: its polls looked only for lost answers, and took a
 * `sending` command for one still on its way; only the next start settled it. Now a poll that finds
 * a `sending` command whose process is gone (no lease, not its own) settles it as interrupted: it is
 * looked for under its `clientOrderId`, found once, and the order is `ACCEPTED`, never sent twice.
 */
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  exitedWithin,
  REST_ARGS,
  restsBelow,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

function manualOrder(db: string): { state: string; command: string } | undefined {
  const store = HogaDatabase.open(db, { readonly: true });
  try {
    return store.connection
      .prepare(
        `SELECT o.state AS state, c.status AS command FROM orders o
         JOIN order_commands c ON c.client_order_id = o.client_order_id
         WHERE o.client_order_id LIKE 'cli-%'`,
      )
      .get() as { state: string; command: string } | undefined;
  } finally {
    store.close();
  }
}

async function waitFor<T>(
  read: () => T | undefined,
  ok: (v: T) => boolean,
  timeoutMs: number,
): Promise<T | undefined> {
  const end = performance.now() + timeoutMs;
  let v: T | undefined;
  while (performance.now() < end) {
    try {
      v = read();
      if (v !== undefined && ok(v)) return v;
    } catch {
      // the file is being written
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return v;
}

describe('hoga order killed while sending, hoga run on the same store', () => {
  it('the running engine settles its order: accepted, created once', async () => {
    const { sim, db } = await setup();
    const environment = env(sim, db);
    const engine = start(['run', restsBelow, '--mode', 'live', ...REST_ARGS], environment);
    try {
      expect(await until(engine, /accepted/, 90_000), engine.out.join('')).toBe(true);
      // the next create stays in progress 4 s and its answer is held 4 s more
      sim.injectFault({
        kind: 'slow-order',
        path: '/api/v1/orders',
        method: 'POST',
        delayMs: 4000,
        count: 1,
      });
      const manual = start(['order', 'buy', '005930', '1', '--limit', '50000'], environment);
      const sending = await waitFor(
        () => manualOrder(db),
        (o) => o.command === 'sending',
        60_000,
      );
      expect(sending?.command).toBe('sending');
      manual.child.kill('SIGKILL');
      await manual.exited;
      const settled = await waitFor(
        () => manualOrder(db),
        (o) => o.state === 'ACCEPTED',
        60_000,
      );
      expect(settled).toEqual({ state: 'ACCEPTED', command: 'done' });
      const created = Object.entries(sim.counters().ordersPerClientOrderId).filter(([id]) =>
        id.startsWith('cli-'),
      );
      expect(created.map(([, n]) => n)).toEqual([1]);
    } finally {
      engine.child.kill('SIGTERM');
      await exitedWithin(engine, 30_000);
    }
  }, 240_000);
});
