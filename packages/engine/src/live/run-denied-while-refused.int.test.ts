/**
 * A paper run over the simulator on 127.0.0.1 whose real SQLite file refuses, for a while, the
 * writes of a strategy retrying an order every bar (each denied by the risk module): test-only
 * triggers refuse every denied order's row and every `OrderDenied` journal line, and count each
 * write that reaches them (a function of the test, called from the trigger). Each denial reaches
 * the strategy at once; the store is tried at a modest pace meanwhile, not once for each denial;
 * and once it takes writes again, every denied order's row and journal line kept meanwhile is
 * stored (nothing lost).
 *
 * Before, each denied order's row and journal line were written at once, one by one, and lost
 * when refused: while another process held the file locked, each blocked the run's event loop
 * for the busy timeout (5 s by default; twice a denial), freezing a run whose strategy retries
 * every bar; and a full disk lost every denied order of the while.
 */
import { type Bar, type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

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

describe('paper: denied orders while the store refuses their writes', () => {
  it('reach the strategy at once, the store is tried at a modest pace, and what was kept is stored once it takes writes', async () => {
    const { clock, client } = await startSimulatedBroker(closers, { speed: 30, port: 42311 });
    const db = openTempDb(closers, 'hoga-paper-denied-refused-', clock);
    const attempts = { orders: 0, journal: 0 };
    db.connection.function('test_attempt', (table: unknown) => {
      attempts[table as keyof typeof attempts] += 1;
      return 0;
    });
    RetryEveryBar.placed = [];
    RetryEveryBar.denied = [];
    for (const sql of REFUSE) db.connection.exec(sql);
    const { handle } = await startTestRun(
      { client, clock, db },
      {
        runId: 't-paper-denied-refused',
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

    // the store refuses: each denial reaches the strategy; the store is not tried for each
    await until(() => RetryEveryBar.denied.length >= 16, 120_000);
    const deniedWhileRefused = RetryEveryBar.denied.length;
    expect(attempts.orders).toBeGreaterThanOrEqual(1);
    expect(attempts.orders).toBeLessThanOrEqual(deniedWhileRefused / 2);
    expect(attempts.journal).toBeGreaterThanOrEqual(1);
    expect(attempts.journal).toBeLessThanOrEqual(deniedWhileRefused / 2);
    const keptIds = [...RetryEveryBar.denied];
    for (const id of keptIds) expect(db.orders.get(id)).toBeNull();

    // the store takes writes again: what was kept is stored, with the new ones, while the run goes on
    for (const sql of ALLOW) db.connection.exec(sql);
    const stored = (id: ClientOrderId) =>
      db.orders.get(id)?.state === 'DENIED' && db.journal.forOrder(id).some((e) => e.type === 'OrderDenied');
    await until(() => keptIds.every(stored), 120_000);
    await handle.stop();
    expect(failure).toBeNull();

    // nothing lost: each order placed was denied once (but the last, maybe, checked at the stop),
    // its row and journal line stored
    const { placed, denied } = RetryEveryBar;
    expect(new Set(denied).size).toBe(denied.length);
    expect(placed.slice(0, denied.length)).toEqual(denied);
    expect(placed.length - denied.length).toBeLessThanOrEqual(1);
    for (const id of denied) {
      expect(db.orders.get(id)).toMatchObject({ state: 'DENIED', rejectReason: expect.stringMatching(/: /) });
      expect(db.journal.forOrder(id).filter((e) => e.type === 'OrderDenied')).toHaveLength(1);
    }
  }, 300_000);
});
