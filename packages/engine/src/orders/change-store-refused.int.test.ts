/**
 * A cancel or modify of a working live order while the store refuses the write of its command row
 * (the disk full, an I/O error: a trigger that aborts every insert into `order_commands`; or the
 * file locked by another process past the busy timeout), from the strategy's `ctx.cancel` /
 * `ctx.modify` or from `--cancel-on-stop`. Before, the store's error rejected the venue's promise
 * and the run failed as for a throw in the strategy's hook (`strategy rests threw in venue: …`).
 * The order manager writes a command's row before it sends it, so nothing may reach the broker;
 * the strategy is told by a typed refusal (`OrderCancelRejected` / `OrderModifyRejected`, code
 * `store-unavailable`, the reason naming the store's refusal), the run goes on, and once the store
 * takes writes again the order can be cancelled, each command stored and sent once. Over the
 * simulator (HTTP) and a real SQLite file; and the order manager alone with `full` durability
 * (the row and the order's pending state then one fsynced commit).
 *
 * The same change while the store cannot be read (an I/O error; here the table of broker orders
 * renamed away by another connection, every read of it failing with SQLite's own error): the
 * manager reads the order's newest broker order before it sends anything. Before, that read's
 * error failed the run as a throw in the strategy's hook; now it is refused the same way.
 */
import type { ClientOrderId, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  type SimulatedBroker,
  startSimulatedBroker,
  startWatchedRun,
  tempDbFile,
  until,
  waitUntil,
} from '../live/live-run.test-helper.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import {
  allBrokerOrders,
  cancelOf,
  KR_OPEN,
  modifyTo,
  priceLimits,
  submitLimit,
  useLiveFixtures,
} from './live-fixture.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Rests one limit buy of 005930 well below the market at its start; its context is kept. */
class RestsOne extends Strategy {
  static ctx: StrategyContext | null = null;
  static id: ClientOrderId | null = null;
  override onStart(): void {
    RestsOne.ctx = this.ctx;
    this.ctx.setTimer('buy', { at: this.ctx.now() });
  }
  override onTimer(): void {
    RestsOne.id = this.ctx.buy('005930', 1, 55_000);
  }
}

/** The order {@link RestsOne} placed, and its context. */
function placedOrder(): { id: ClientOrderId; ctx: StrategyContext } {
  const { id, ctx } = RestsOne;
  if (id === null || ctx === null) throw new Error('no order placed');
  return { id, ctx };
}

/** What the test reads of an event: its type, and a refusal's code, reason and whether it was sent. */
function shown(e: OrderEvent): string {
  if (!('code' in e)) return e.type;
  const sent = 'sent' in e && e.sent !== undefined ? (e.sent ? ' (sent)' : ' (not sent)') : '';
  return `${e.type} ${e.code}: ${e.reason}${sent}`;
}

/** The broker's open and closed orders (ids), as a second channel reads them. */
async function brokerOrders(broker: SimulatedBroker): Promise<{ open: string[]; closed: string[] }> {
  const open = await broker.client.listOrders({ status: 'OPEN' });
  const closed = await broker.client.listOrders({ status: 'CLOSED' });
  return { open: open.orders.map((o) => o.orderId), closed: closed.orders.map((o) => o.orderId) };
}

/** How the store is made to refuse the command's row, and how it is made to take writes again. */
interface Refusal {
  readonly name: string;
  /** Makes the store refuse; answers what takes it back. */
  refuse(db: HogaDatabase, file: string): () => void;
  /** What the refusal's reason names. */
  readonly why: string;
}

const TRIGGER: Refusal = {
  name: 'a write error',
  refuse: (db) => {
    db.connection.exec(`CREATE TRIGGER refuse_commands BEFORE INSERT ON order_commands
      BEGIN SELECT RAISE(ABORT, 'test: the disk is full'); END`);
    return () => db.connection.exec('DROP TRIGGER refuse_commands');
  },
  why: 'test: the disk is full',
};

/** The command's row taken, the order's `PENDING_CANCEL` refused: neither may stay. */
const STATE_TRIGGER: Refusal = {
  name: 'a write error on the order’s state',
  refuse: (db) => {
    db.connection.exec(`CREATE TRIGGER refuse_pending BEFORE UPDATE OF state ON orders
      WHEN NEW.state = 'PENDING_CANCEL' BEGIN SELECT RAISE(ABORT, 'test: an I/O error'); END`);
    return () => db.connection.exec('DROP TRIGGER refuse_pending');
  },
  why: 'test: an I/O error',
};

const LOCKED: Refusal = {
  name: 'the file locked by another process',
  refuse: (_db, file) => {
    const other = HogaDatabase.open(file);
    other.connection.exec('BEGIN IMMEDIATE');
    return () => {
      other.connection.exec('COMMIT');
      other.close();
    };
  },
  why: 'database is locked',
};

type Change = 'cancel' | 'modify' | 'cancel-on-stop';

const cases: readonly (readonly [Change, Refusal])[] = [
  ['cancel', TRIGGER],
  ['modify', TRIGGER],
  ['cancel', LOCKED],
  ['cancel', STATE_TRIGGER],
  ['cancel-on-stop', TRIGGER],
];

describe('a cancel or modify whose command row the store refuses (live)', () => {
  for (const [change, refusal] of cases) {
    it(`${change}, ${refusal.name}: refused store-unavailable, nothing sent, the run goes on; once the store takes writes the order is cancelled once`, async () => {
      const broker = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
      const file = tempDbFile('hoga-change-refused-');
      const db = HogaDatabase.open(file, { clock: broker.clock, busyTimeoutMs: 200 });
      closers.add(() => db.close());
      RestsOne.ctx = null;
      RestsOne.id = null;
      const run = await startWatchedRun(closers, { ...broker, db }, 'change-refused', {
        strategyClass: RestsOne,
        id: 'rests',
      });
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown): void => {
        unhandled.push(reason);
      };
      process.on('unhandledRejection', onUnhandled);
      closers.add(() => {
        process.off('unhandledRejection', onUnhandled);
      });
      const events = run.events;
      await until(() => events.some((e) => e.type === 'OrderAccepted'), 60_000);
      const { id, ctx } = placedOrder();
      const placed = await brokerOrders(broker);
      expect(placed.open).toHaveLength(1);

      // the store refuses the command's row: the change is refused, not sent
      const restore = refusal.refuse(db, file);
      let stillOpen: readonly string[] = [];
      try {
        if (change === 'cancel') ctx.cancel(id);
        else if (change === 'modify') ctx.modify(id, { price: 56_000 });
        else stillOpen = (await run.handle.cancelOpenOrders()).stillOpen;
        const refusedType = change === 'modify' ? 'OrderModifyRejected' : 'OrderCancelRejected';
        const told = await waitUntil(
          () => run.failure() !== null || events.some((e) => e.type === refusedType),
          30_000,
        );
        await run.handle.runtime.settle();
        expect({ told, failure: run.failure(), unhandled }).toEqual({
          told: true,
          failure: null,
          unhandled: [],
        });
        const kind = change === 'modify' ? 'modify' : 'cancel';
        expect(events.filter((e) => e.type === refusedType).map(shown)).toEqual([
          `${refusedType} store-unavailable: the ${kind} was not sent: the store refuses writes (${refusal.why}) (not sent)`,
        ]);
        if (change === 'cancel-on-stop') expect(stillOpen).toEqual([id]);
        expect(await brokerOrders(broker)).toEqual(placed);
        expect(ctx.order(id)?.state).toBe('ACCEPTED');
      } finally {
        restore();
      }
      expect(db.orders.get(id)?.state).toBe('ACCEPTED');

      // the store takes writes again: the order is cancelled, each command stored and sent once
      if (change === 'cancel-on-stop') {
        expect(await run.handle.cancelOpenOrders()).toEqual({
          open: 1,
          canceled: 1,
          stillOpen: [],
          unstored: [],
        });
      } else {
        ctx.cancel(id);
        await until(() => events.some((e) => e.type === 'OrderCanceled'), 60_000);
      }
      await run.stop();
      expect(run.failure()).toBeNull();
      expect(unhandled).toEqual([]);
      const after = await brokerOrders(broker);
      expect(after.open).toEqual([]);
      expect(after.closed).toHaveLength(2); // the order, and the cancel's record
      const commands = db.connection
        .prepare('SELECT kind, status FROM order_commands ORDER BY created_at, rowid')
        .all();
      expect(commands).toEqual([
        { kind: 'create', status: 'done' },
        { kind: 'cancel', status: 'done' },
      ]);
      expect(db.orders.get(id)?.state).toBe('CANCELED');
      expect(broker.sim.counters().ordersPerClientOrderId[id]).toBe(1);
    }, 180_000);
  }
});

describe('a modify or cancel whose command row the store refuses, `full` durability (the manager)', () => {
  const live = useLiveFixtures(afterEach);

  it('is refused store-unavailable without a throw; once the store takes writes, modify and cancel are stored and sent once each', async () => {
    const f = await live(KR_OPEN, { commandDurability: 'full' });
    await f.manager.reconcile();
    const { lower } = await priceLimits(f.client, '005930');
    const order = submitLimit('005930', 'BUY', '2', lower);
    const id = order.intent.clientOrderId;
    await f.manager.execute(order);
    const restore = TRIGGER.refuse(f.db, f.dbFile);
    await f.manager.execute(modifyTo(order, new Decimal(lower).plus(100).toString(), '2'));
    await f.manager.execute(cancelOf(order));
    restore();
    expect(f.events.filter((e) => e.type.endsWith('Rejected')).map(shown)).toEqual([
      'OrderModifyRejected store-unavailable: the modify was not sent: the store refuses writes (test: the disk is full) (not sent)',
      'OrderCancelRejected store-unavailable: the cancel was not sent: the store refuses writes (test: the disk is full) (not sent)',
    ]);
    expect((await allBrokerOrders(f.client)).map((o) => o.status)).toEqual(['PENDING']); // nothing sent
    expect(f.db.orders.get(id)?.state).toBe('ACCEPTED');
    await f.manager.execute(modifyTo(order, new Decimal(lower).plus(100).toString(), '2'));
    await f.manager.execute(cancelOf(order));
    await f.manager.pollOnce();
    expect(f.db.orders.get(id)?.state).toBe('CANCELED');
    expect(
      f.db.connection.prepare('SELECT kind, status FROM order_commands ORDER BY created_at, rowid').all(),
    ).toEqual([
      { kind: 'create', status: 'done' },
      { kind: 'modify', status: 'done' },
      { kind: 'cancel', status: 'done' },
    ]);
    expect((await allBrokerOrders(f.client)).length).toBe(3); // the order, its replacement, the cancel's record
  }, 60_000);
});

describe('a cancel or modify while the store cannot be read (live)', () => {
  for (const change of ['cancel', 'modify'] as const) {
    it(`${change}: refused store-unavailable, not sent, the run goes on; once the store reads again the order is cancelled once`, async () => {
      const broker = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
      const file = tempDbFile('hoga-change-unreadable-');
      const db = HogaDatabase.open(file, { clock: broker.clock, busyTimeoutMs: 200 });
      closers.add(() => db.close());
      RestsOne.ctx = null;
      RestsOne.id = null;
      const run = await startWatchedRun(closers, { ...broker, db }, `unreadable-${change}`, {
        strategyClass: RestsOne,
        id: 'rests',
      });
      const events = run.events;
      await until(() => events.some((e) => e.type === 'OrderAccepted'), 30_000);
      const { ctx, id } = placedOrder();
      const placedOrders = broker.sim.counters().requestsByGroup.ORDER ?? 0;

      // another connection renames the table of broker orders away: every read of it fails
      const other = HogaDatabase.open(file);
      closers.add(() => other.close());
      other.connection.exec('ALTER TABLE broker_executions RENAME TO broker_executions_away');
      try {
        if (change === 'cancel') ctx.cancel(id);
        else ctx.modify(id, { price: 56_000 });
        const refusedType = change === 'modify' ? 'OrderModifyRejected' : 'OrderCancelRejected';
        const told = await waitUntil(
          () => run.failure() !== null || events.some((e) => e.type === refusedType),
          30_000,
        );
        await run.handle.runtime.settle();
        expect({ told, failure: run.failure() }).toEqual({ told: true, failure: null });
        expect(events.filter((e) => e.type === refusedType).map(shown)).toEqual([
          `${refusedType} store-unavailable: the ${change} was not sent: the store cannot be read (no such table: broker_executions) (not sent)`,
        ]);
        expect(broker.sim.counters().requestsByGroup.ORDER ?? 0).toBe(placedOrders);
        expect(ctx.order(id)?.state).toBe('ACCEPTED');
      } finally {
        other.connection.exec('ALTER TABLE broker_executions_away RENAME TO broker_executions');
      }

      // the store reads again: the order is cancelled once
      ctx.cancel(id);
      await until(() => events.some((e) => e.type === 'OrderCanceled'), 60_000);
      await run.stop();
      expect(run.failure()).toBeNull();
      expect(db.orders.get(id)?.state).toBe('CANCELED');
      const commands = db.connection.prepare('SELECT kind, status FROM order_commands ORDER BY rowid').all();
      expect(commands).toEqual([
        { kind: 'create', status: 'done' },
        { kind: 'cancel', status: 'done' },
      ]);
    }, 180_000);
  }
});
