/**
 * A paper run over the simulator on 127.0.0.1 whose real SQLite file another process holds locked
 * (`BEGIN IMMEDIATE` on a second connection) for a while, its strategy retrying an order every bar
 * (each denied by the risk module). The run's writes wait out its busy timeout (1.5 s here) and
 * are refused; better-sqlite3 being synchronous, each such wait stalls the run's event loop, which
 * a 50 ms ticker of the test sees as a gap: the stalls are counted (not timed). Each denial reaches
 * the strategy; the store is tried at a modest pace, not for each denial; and once the lock is
 * let go, every denied order's row and journal line is stored.
 *
 * Before, each denied order's row and journal line were tried at once, one by one: a stall of
 * twice the busy timeout (10 s with the default 5 s) for each denial, the run frozen while its
 * strategy retried every bar; and what the lock refused was lost.
 */
import { type Bar, type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, startSimulatedBroker, startTestRun, tempDbFile, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** On every bar of 005930, a buy of 10,000 shares 3 % under the close: far over the cash, denied. */
class RetryEveryBar extends Strategy {
  static placed: ClientOrderId[] = [];
  static denied: ClientOrderId[] = [];

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    RetryEveryBar.placed.push(this.ctx.buy('005930', 10_000, Math.floor((bar.close * 0.97) / 100) * 100));
  }

  override onOrderEvent(event: OrderEvent): void {
    if (event.type === 'OrderDenied') RetryEveryBar.denied.push(event.clientOrderId);
  }
}

/**
 * On the first bar of 005930, a resting buy of 1 share 3 % under the close; in phase 1, the same on
 * every bar. Records the order events it hears of.
 */
class RestThenRetry extends Strategy {
  static phase = 0;
  static placed: ClientOrderId[] = [];
  static events: OrderEvent[] = [];

  override onBar(bar: Bar): void {
    if (bar.symbol !== '005930') return;
    const { phase, placed } = RestThenRetry;
    if ((phase === 0 && placed.length === 0) || phase === 1)
      placed.push(this.ctx.buy('005930', 1, Math.floor((bar.close * 0.97) / 100) * 100));
  }

  override onOrderEvent(event: OrderEvent): void {
    RestThenRetry.events.push(event);
  }
}

/** Counts the gaps of a 50 ms ticker longer than `gapMs` (the event loop stalled). */
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

describe('paper: denied orders while another process holds the store locked', () => {
  it('reach the strategy, the store is tried at a modest pace (not a busy wait per denial), and all is stored once the lock goes', async () => {
    const { clock, client } = await startSimulatedBroker(closers, { speed: 30, port: 42321 });
    const file = tempDbFile('hoga-paper-denied-locked-');
    const db = HogaDatabase.open(file, { clock, busyTimeoutMs: 1_500 });
    closers.add(() => db.close());
    RetryEveryBar.placed = [];
    RetryEveryBar.denied = [];
    const { handle } = await startTestRun(
      { client, clock, db },
      {
        runId: 't-paper-denied-locked',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: RetryEveryBar }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    let failure: unknown = null;
    void handle.failed.then((e) => {
      failure = e;
    });
    closers.add(() => handle.stop());
    await until(() => RetryEveryBar.denied.length >= 1, 90_000);

    // another process takes the write lock
    const other = HogaDatabase.open(file);
    let locked = true;
    other.connection.exec('BEGIN IMMEDIATE');
    closers.add(() => {
      if (locked) other.connection.exec('ROLLBACK');
      other.close();
    });
    const from = RetryEveryBar.denied.length;
    const counter = stallCounter(1_200);
    await until(() => RetryEveryBar.denied.length - from >= 20, 240_000);
    counter.stop();
    const deniedWhileLocked = RetryEveryBar.denied.slice(from);
    expect(counter.stalls()).toBeGreaterThanOrEqual(1);
    expect(counter.stalls()).toBeLessThanOrEqual(deniedWhileLocked.length / 2);

    // the lock goes: what was kept is stored while the run goes on
    other.connection.exec('COMMIT');
    locked = false;
    const stored = (id: ClientOrderId) =>
      db.orders.get(id)?.state === 'DENIED' && db.journal.forOrder(id).some((e) => e.type === 'OrderDenied');
    await until(() => deniedWhileLocked.every(stored), 120_000);
    await handle.stop();
    expect(failure).toBeNull();
    const { placed, denied } = RetryEveryBar;
    expect(placed.slice(0, denied.length)).toEqual(denied);
    for (const id of denied)
      expect(db.journal.forOrder(id).filter((e) => e.type === 'OrderDenied')).toHaveLength(1);
  }, 360_000);

  it("while the paper store itself waits for the lock: its tries and the recorder's are paced, and all is stored once the lock goes", async () => {
    const { clock, client } = await startSimulatedBroker(closers, { speed: 30, port: 42322 });
    const file = tempDbFile('hoga-paper-store-locked-');
    const db = HogaDatabase.open(file, { clock, busyTimeoutMs: 1_500 });
    closers.add(() => db.close());
    RestThenRetry.phase = 0;
    RestThenRetry.placed = [];
    RestThenRetry.events = [];
    const { handle } = await startTestRun(
      { client, clock, db },
      {
        runId: 't-paper-store-locked',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: RestThenRetry }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, onError: () => undefined },
    );
    let failure: unknown = null;
    void handle.failed.then((e) => {
      failure = e;
    });
    closers.add(() => handle.stop());
    const told = (type: OrderEvent['type']) => RestThenRetry.events.filter((e) => e.type === type);
    await until(() => told('OrderAccepted').length === 1, 90_000);

    // another process takes the write lock; a buy every bar: the first reaches the venue, its
    // submission waits for the store, the others are denied store-unavailable
    const other = HogaDatabase.open(file);
    let locked = true;
    other.connection.exec('BEGIN IMMEDIATE');
    closers.add(() => {
      if (locked) other.connection.exec('ROLLBACK');
      other.close();
    });
    const counter = stallCounter(1_200);
    RestThenRetry.phase = 1;
    const denied = () => told('OrderDenied').map((e) => e.clientOrderId);
    await until(() => denied().length >= 20, 240_000);
    counter.stop();
    RestThenRetry.phase = 2;
    const deniedWhileLocked = denied();
    expect(told('OrderDenied').every((e) => 'code' in e && e.code === 'store-unavailable')).toBe(true);
    expect(counter.stalls()).toBeGreaterThanOrEqual(1);
    expect(counter.stalls()).toBeLessThanOrEqual(deniedWhileLocked.length / 2);

    // the lock goes: the submission waiting is stored and told, the denied orders stored
    other.connection.exec('COMMIT');
    locked = false;
    await until(
      () =>
        told('OrderAccepted').length === 2 &&
        deniedWhileLocked.every((id) => db.orders.get(id)?.state === 'DENIED'),
      120_000,
    );
    await handle.stop();
    expect(failure).toBeNull();
    expect(handle.unstoredAtStop()).toBeNull();
    for (const id of deniedWhileLocked)
      expect(db.journal.forOrder(id).filter((e) => e.type === 'OrderDenied')).toHaveLength(1);
  }, 360_000);
});
