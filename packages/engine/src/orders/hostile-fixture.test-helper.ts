/**
 * The fixture of the hostile-broker tests: the simulator (clock frozen), the proxy of
 * `hostile-broker.test-helper.ts` in front of it, and an order manager on a SQLite file talking to
 * the proxy (closed after each test); the rows the store holds of a logical order, its events, a
 * gate a proxy rule waits on. Test code only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderEvent } from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, expect } from 'vitest';
import { type HostileBroker, startHostileBroker } from './hostile-broker.test-helper.js';
import { KR_OPEN, simClient, startFrozenSimulator } from './live-fixture.test-helper.js';
import { OrderManager } from './order-manager.js';
import type { OrderManagerOptions } from './order-manager-options.js';

export interface Hostile {
  readonly sim: SimulatorHandle;
  readonly proxy: HostileBroker;
  readonly client: ReturnType<typeof simClient>;
  readonly db: HogaDatabase;
  readonly manager: OrderManager;
  readonly events: OrderEvent[];
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** The simulator (frozen at `start`), the proxy in front of it, and a manager on a SQLite file talking to the proxy. */
export async function hostile(
  start = KR_OPEN,
  clientConfig: Record<string, unknown> = {},
  options: OrderManagerOptions = {},
): Promise<Hostile> {
  const { sim, clock } = await startFrozenSimulator({ start, rateLimit: false });
  const proxy = await startHostileBroker(sim.url);
  const client = simClient(sim, clock, { baseUrl: proxy.url, maxRetries: 2, ...clientConfig });
  const db = HogaDatabase.open(join(mkdtempSync(join(tmpdir(), 'hoga-hostile-')), 'hoga.sqlite'), { clock });
  const manager = new OrderManager(client, db, clock, options);
  const events: OrderEvent[] = [];
  manager.events$.subscribe((e) => events.push(e));
  closing.push(async () => {
    client.close();
    db.close();
    await proxy.close();
    await sim.close();
  });
  return { sim, proxy, client, db, manager, events };
}

/** A promise and the function that settles it. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The rows the store holds of one logical order, each table's as plain values. */
export function storedRows(db: HogaDatabase, clientOrderId: string) {
  const c = db.connection;
  return {
    order: c
      .prepare('SELECT state, filled_quantity, price, quantity FROM orders WHERE client_order_id = ?')
      .get(clientOrderId) as
      | { state: string; filled_quantity: string; price: string | null; quantity: string | null }
      | undefined,
    links: c
      .prepare(
        `SELECT b.broker_order_id AS id, b.kind FROM order_broker_ids b JOIN orders o ON o.id = b.order_id
         WHERE o.client_order_id = ? ORDER BY b.ordinal`,
      )
      .all(clientOrderId),
    commands: c
      .prepare(
        `SELECT kind, status, target_broker_order_id AS target, result_broker_order_id AS result, error
         FROM order_commands WHERE client_order_id = ? ORDER BY created_at, rowid`,
      )
      .all(clientOrderId),
    executions: c
      .prepare(
        `SELECT e.broker_order_id AS id, e.status, e.closed, e.filled_quantity AS filled
         FROM broker_executions e JOIN order_broker_ids b ON b.broker_order_id = e.broker_order_id
         WHERE e.client_order_id = ? ORDER BY b.ordinal`,
      )
      .all(clientOrderId),
    fills: c
      .prepare(
        `SELECT f.broker_order_id AS id, f.quantity, f.price, f.cumulative_quantity AS cumulative
         FROM fills f JOIN orders o ON o.id = f.order_id WHERE o.client_order_id = ? ORDER BY f.id`,
      )
      .all(clientOrderId),
  };
}

/** The event types of one logical order, a refusal with its code. */
export function eventsOf(events: readonly OrderEvent[], clientOrderId: string): string[] {
  return events
    .filter((e) => e.clientOrderId === clientOrderId)
    .map((e) =>
      e.type === 'OrderModifyRejected' || e.type === 'OrderCancelRejected' || e.type === 'OrderRejected'
        ? `${e.type} ${e.code}`
        : e.type,
    );
}

/** Polls until `done` holds (at most 20 polls). */
export async function pollUntil(h: Hostile, done: () => boolean): Promise<void> {
  for (let i = 0; i < 20 && !done(); i++) await h.manager.pollOnce();
  expect(done()).toBe(true);
}

export const CREATE = '/api/v1/orders';

/** How many orders the store holds as another channel's (`ext-…`): the run's own adopted as outside. */
export function outsideOrderCount(db: HogaDatabase): number {
  return (
    db.connection.prepare("SELECT count(*) AS n FROM orders WHERE client_order_id LIKE 'ext-%'").get() as {
      n: number;
    }
  ).n;
}
