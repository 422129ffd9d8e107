/**
 * Paper runs over the simulator on 127.0.0.1 whose real SQLite file refuses, for a while, the writes
 * of a strategy retrying an order every bar (each denied): each denial reaches the strategy; the
 * store is tried at a modest pace, not once for each denial; and once it takes writes again, every
 * denied order's row and journal line kept meanwhile is stored (nothing lost). The store refuses:
 * - by test-only triggers that refuse every denied order's row and `OrderDenied` journal line, and
 *   count each write that reaches them (a function of the test, called from the trigger);
 * - by another process holding the file locked (`BEGIN IMMEDIATE` on a second connection): the
 *   run's writes wait out its busy timeout (1.5 s here) and are refused; better-sqlite3 being
 *   synchronous, each such wait stalls the run's event loop, which a 50 ms ticker of the test sees
 *   as a gap: the stalls are counted (not timed). Denied by the risk module; then, the paper store
 *   itself waiting for the lock, denied `store-unavailable`.
 *
 * Before, each denied order's row and journal line were written at once, one by one, and lost when
 * refused, and the paper store tried its refused writes every second: on a locked file each denial
 * stalled the run for twice the busy timeout (10 s with the default 5 s), the paper store's tries
 * most of the rest (20 stalls for 20 denials; 15 with the paper store waiting), a run whose
 * strategy retries every bar frozen; and a full disk lost every denied order of the while. Then,
 * with paced retries, each retry still waited out the busy timeout (3 stalls in the 20 denials).
 */
import { type Bar, type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import { Closers, startSimulatedBroker, startTestRun, tempDbFile, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Refuse (and count through `test_attempt`) every denied order's row and every denial's journal line. */
const REFUSE = [
  `CREATE TRIGGER test_refuse_denied_row BEFORE INSERT ON orders WHEN NEW.state = 'DENIED'
     BEGIN SELECT test_attempt('orders'); SELECT RAISE(ABORT, 'test: the disk is full'); END`,
  `CREATE TRIGGER test_refuse_denial_line BEFORE INSERT ON journal WHEN NEW.type = 'OrderDenied'
     BEGIN SELECT test_attempt('journal'); SELECT RAISE(ABORT, 'test: the disk is full'); END`,
];
const ALLOW = ['DROP TRIGGER test_refuse_denied_row', 'DROP TRIGGER test_refuse_denial_line'];

/**
 * On every bar of 005930 a buy 3 % under the close: of 10,000 shares (far over the cash: denied) or,
 * `rest` set, of 1 share, on the first bar only until `phase` is 1 (then denied while the paper store
 * refuses). Records the order events it hears of.
 */
class RetryEveryBar extends Strategy {
  static rest = false;
  static phase = 0;
  static placed: ClientOrderId[] = [];
  static events: OrderEvent[] = [];

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    const { rest, phase, placed } = RetryEveryBar;
    if (rest && !((phase === 0 && placed.length === 0) || phase === 1)) return;
    placed.push(this.ctx.buy('005930', rest ? 1 : 10_000, Math.floor((bar.close * 0.97) / 100) * 100));
  }

  override onOrderEvent(event: OrderEvent): void {
    RetryEveryBar.events.push(event);
  }

  /** The events told of one type. */
  static told(type: OrderEvent['type']): OrderEvent[] {
    return RetryEveryBar.events.filter((e) => e.type === type);
  }

  /** The orders denied so far. */
  static denied(): ClientOrderId[] {
    return RetryEveryBar.told('OrderDenied').map((e) => e.clientOrderId);
  }
}

/**
 * A paper run of {@link RetryEveryBar} (`rest` as given) on 005930 over a new simulator at × 240 (a
 * minute bar every quarter second: the denials come twice as fast as at × 120, the store's tries at
 * the same real pace) and a new SQLite file (busy timeout 1.5 s), `prepare` done on it
 * before the run starts.
 */
async function startRetrying(name: string, rest: boolean, prepare?: (db: HogaDatabase) => void) {
  const { clock, client } = await startSimulatedBroker(closers, { speed: 240 });
  const file = tempDbFile(`hoga-${name}-`);
  const db = HogaDatabase.open(file, { clock, busyTimeoutMs: 1_500 });
  closers.add(() => db.close());
  prepare?.(db);
  Object.assign(RetryEveryBar, { rest, phase: 0, placed: [], events: [] });
  const strategyClass: StrategyClass = RetryEveryBar;
  const { handle } = await startTestRun(
    { client, clock, db },
    {
      runId: `t-${name}`,
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [{ strategyClass }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 150, orderbook: 200 }, onError: () => undefined },
  );
  let failure: unknown = null;
  void handle.failed.then((e) => {
    failure = e;
  });
  closers.add(() => handle.stop());
  return { file, db, handle, failure: () => failure };
}

/** Another process takes the write lock of `file`; answers its release. */
function lockStore(file: string): () => void {
  const other = HogaDatabase.open(file);
  let locked = true;
  other.connection.exec('BEGIN IMMEDIATE');
  closers.add(() => {
    if (locked) other.connection.exec('ROLLBACK');
    other.close();
  });
  return () => {
    other.connection.exec('COMMIT');
    locked = false;
  };
}

/** Counts the gaps of a 50 ms ticker of at least `gapMs` (the event loop stalled). */
function stallCounter(gapMs: number) {
  let last = performance.now();
  let stalls = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    if (now - last >= gapMs) stalls += 1;
    last = now;
  }, 50);
  return { stalls: () => stalls, stop: () => clearInterval(ticker) };
}

/** Whether the denied order's row and journal line are stored. */
function stored(db: HogaDatabase, id: ClientOrderId): boolean {
  const row = db.orders.get(id);
  return (
    row?.state === 'DENIED' &&
    /: /.test(row.rejectReason ?? '') &&
    db.journal.forOrder(id).filter((e) => e.type === 'OrderDenied').length === 1
  );
}

describe('paper: denied orders while the store refuses their writes', () => {
  it('(a full disk) reach the strategy at once, the store is tried at a modest pace, and what was kept is stored once it takes writes', async () => {
    const attempts = { orders: 0, journal: 0 };
    const { db, handle, failure } = await startRetrying('paper-denied-refused', false, (db) => {
      db.connection.function('test_attempt', (table: unknown) => {
        attempts[table as keyof typeof attempts] += 1;
        return 0;
      });
      for (const sql of REFUSE) db.connection.exec(sql);
    });

    // the store refuses: each denial reaches the strategy; the store is not tried for each
    await until(() => RetryEveryBar.denied().length >= 16, 120_000);
    const kept = RetryEveryBar.denied();
    for (const tries of [attempts.orders, attempts.journal]) {
      expect(tries).toBeGreaterThanOrEqual(1);
      expect(tries).toBeLessThanOrEqual(kept.length / 2);
    }
    for (const id of kept) expect(db.orders.get(id)).toBeNull();

    // the store takes writes again: what was kept is stored, with the new ones, while the run goes on
    for (const sql of ALLOW) db.connection.exec(sql);
    await until(() => kept.every((id) => stored(db, id)), 120_000);
    await handle.stop();
    expect(failure()).toBeNull();
    // nothing lost: each order placed was denied once (but the last, maybe, checked at the stop)
    const { placed } = RetryEveryBar;
    const denied = RetryEveryBar.denied();
    expect(placed.slice(0, denied.length)).toEqual(denied);
    expect(placed.length - denied.length).toBeLessThanOrEqual(1);
    for (const id of denied) expect(stored(db, id)).toBe(true);
  }, 300_000);

  it('(the file locked by another process) reach the strategy, the store is tried at a modest pace (not a busy wait per denial), and all is stored once the lock goes', async () => {
    const { file, db, handle, failure } = await startRetrying('paper-denied-locked', false);
    await until(() => RetryEveryBar.denied().length >= 1, 90_000);
    const unlock = lockStore(file);
    const from = RetryEveryBar.denied().length;
    const counter = stallCounter(1_200);
    await until(() => RetryEveryBar.denied().length - from >= 20, 240_000);
    counter.stop();
    const whileLocked = RetryEveryBar.denied().slice(from);
    // one stall, at the first refused write: the retries do not wait for the lock (3 before)
    expect(counter.stalls()).toBe(1);
    expect(whileLocked.length).toBeGreaterThanOrEqual(20);

    // the lock goes: what was kept is stored while the run goes on
    unlock();
    await until(() => whileLocked.every((id) => stored(db, id)), 120_000);
    await handle.stop();
    expect(failure()).toBeNull();
    const denied = RetryEveryBar.denied();
    expect(RetryEveryBar.placed.slice(0, denied.length)).toEqual(denied);
    for (const id of denied) expect(stored(db, id)).toBe(true);
  }, 360_000);

  it('(the paper store itself waiting for the lock) are denied store-unavailable, its tries and the recorder’s paced, and all is stored once the lock goes', async () => {
    const { file, db, handle, failure } = await startRetrying('paper-store-locked', true);
    await until(() => RetryEveryBar.told('OrderAccepted').length === 1, 90_000);

    // a buy every bar: the first reaches the venue, its submission waits for the store, the others
    // are denied store-unavailable
    const unlock = lockStore(file);
    const counter = stallCounter(1_200);
    RetryEveryBar.phase = 1;
    await until(() => RetryEveryBar.denied().length >= 20, 240_000);
    counter.stop();
    RetryEveryBar.phase = 2;
    const whileLocked = RetryEveryBar.denied();
    expect(
      RetryEveryBar.told('OrderDenied').every((e) => 'code' in e && e.code === 'store-unavailable'),
    ).toBe(true);
    // one stall, at the first refused write: the retries do not wait for the lock (3 before)
    expect(counter.stalls()).toBe(1);
    expect(whileLocked.length).toBeGreaterThanOrEqual(20);

    // the lock goes: the submission waiting is stored and told, the denied orders stored
    unlock();
    await until(
      () => RetryEveryBar.told('OrderAccepted').length === 2 && whileLocked.every((id) => stored(db, id)),
      120_000,
    );
    await handle.stop();
    expect(failure()).toBeNull();
    expect(handle.unstoredAtStop()).toBeNull();
  }, 360_000);
});
