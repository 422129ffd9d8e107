/**
 * A create whose answer comes back while another connection holds the store's write lock past the
 * busy timeout (seen under load: `hoga run` restarted with `hoga order` on the same store). The
 * request had left and the broker placed the order; only the store could not take the answer.
 * Before: the store's `SqliteError` was taken for the broker's refusal: the command was settled
 * `rejected`, the order `REJECTED` (`rejected …: SqliteError database is locked`), and the order
 * working at the broker was no longer the strategy's (its fill went unbooked: `PositionMismatch`,
 * the symbol barred). Now the command is left to be looked for, as a lost answer is: the next poll
 * re-sends it under its `clientOrderId`, the broker answers with the same order, and it is
 * accepted. Over the simulator (HTTP) and a real SQLite file, the lock held by a second connection.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, startSimulatedBroker, startTestRun, tempDbFile, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Rests one limit buy of 005930 well below the market at its start. */
class RestsOne extends Strategy {
  override onStart(): void {
    this.ctx.setTimer('buy', { at: this.ctx.now() });
  }
  override onTimer(): void {
    this.ctx.buy('005930', 1, 55_000);
  }
}

describe('a create whose answer the store cannot take (locked)', () => {
  it('is looked for, not rejected: the broker’s order stays the strategy’s', async () => {
    const broker = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    // the answer comes back 1.5 s after the order was placed
    broker.sim.injectFault({
      kind: 'delay-after-commit',
      path: '/api/v1/orders',
      method: 'POST',
      delayMs: 1500,
      count: 1,
    });
    const file = tempDbFile('hoga-create-locked-');
    const db = HogaDatabase.open(file, { clock: broker.clock, busyTimeoutMs: 200 });
    closers.add(() => db.close());
    const other = HogaDatabase.open(file);
    closers.add(() => other.close());
    let locked = false;
    const events: OrderEvent[] = [];
    const run = await startTestRun(
      { ...broker, db },
      {
        runId: 'locked',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: RestsOne, id: 'rests' }],
      },
      {
        pollIntervalMs: 1_000,
        onError: () => undefined,
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'OrderSubmitted' && !locked) {
            // another process takes the write lock while the answer is on its way, for 2.5 s
            locked = true;
            other.connection.exec('BEGIN IMMEDIATE');
            setTimeout(() => other.connection.exec('COMMIT'), 2_500);
          }
        },
      },
    );
    closers.add(() => run.handle.stop());
    await until(
      () => events.some((e) => e.type === 'OrderAccepted' || e.type === 'OrderRejected'),
      60_000,
    ).catch(() => {
      throw new Error(
        `locked ${locked}: ${JSON.stringify(events.map((e) => [e.type, 'reason' in e ? e.reason : '']))}`,
      );
    });
    await run.handle.stop();
    expect(events.filter((e) => e.type === 'OrderRejected')).toEqual([]);
    const id = events.find((e) => e.type === 'OrderSubmitted')?.clientOrderId ?? '';
    expect(db.orders.get(id)?.state).toBe('ACCEPTED');
    expect(broker.sim.counters().ordersPerClientOrderId[id]).toBe(1);
  }, 120_000);
});
