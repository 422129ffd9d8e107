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
});
