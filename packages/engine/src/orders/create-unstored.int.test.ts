/**
 * A create sent while another connection holds the store's write lock past the busy timeout: the
 * request left (its line is in the command journal), the broker placed the order, but the rows of
 * the command and of the logical order could not be written. Before: the running engine left them
 * in the journal until its next start; `hoga db orders` did not show the order working at the
 * broker, the strategy never heard of it (no `OrderSubmitted`, no `OrderAccepted`), and the next
 * poll adopted it as an order from another channel (`ext-…`), its fill booked to no strategy. Now
 * each poll, once the store takes writes again, stores the create's rows before it reads the
 * orders and looks for the order under its `clientOrderId`, as for a lost answer: the order is the
 * strategy's, accepted, filled, created once. Over the simulator (HTTP) and a real SQLite file, the
 * lock held by a second connection.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
} from '../live/live-run.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Rests one limit buy of 005930 well below the market at its start, `beforeBuy` called first. */
class RestsOne extends Strategy {
  static beforeBuy: () => void = () => undefined;
  static fills = 0;
  override onStart(): void {
    this.ctx.setTimer('buy', { at: this.ctx.now() });
  }
  override onTimer(): void {
    RestsOne.beforeBuy();
    this.ctx.buy('005930', 1, 55_000);
  }
  override onFill(): void {
    RestsOne.fills++;
  }
}

describe('a create whose rows the store could not take when it was sent (locked)', () => {
  it('is stored by the running engine once it can, the strategy’s order, created once', async () => {
    const broker = await startSimulatedBroker(closers, { speed: 1, control: true, rateLimit: false });
    const file = tempDbFile('hoga-create-unstored-');
    const db = HogaDatabase.open(file, { clock: broker.clock, busyTimeoutMs: 200 });
    closers.add(() => db.close());
    const other = HogaDatabase.open(file);
    closers.add(() => other.close());
    let released = false;
    RestsOne.fills = 0;
    // another process holds the write lock from just before the create, for 3 s
    RestsOne.beforeBuy = () => {
      other.connection.exec('BEGIN IMMEDIATE');
      setTimeout(() => {
        other.connection.exec('COMMIT');
        released = true;
      }, 3_000);
    };
    const events: OrderEvent[] = [];
    const run = await startTestRun(
      { ...broker, db },
      {
        runId: 'unstored',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: RestsOne, id: 'rests' }],
      },
      { pollIntervalMs: 500, onError: () => undefined, onEvent: (e) => events.push(e) },
    );
    closers.add(() => run.handle.stop());
    await until(() => broker.sim.counters().ordersCreated > 0, 60_000);
    await until(() => released, 60_000);
    const stored = (): { clientOrderId: string; state: string; brokerOrderId: string | null }[] =>
      db.orders
        .list({ mode: 'live' })
        .map((o) => ({ clientOrderId: o.clientOrderId, state: o.state, brokerOrderId: o.brokerOrderId }));
    // the running engine stores the order and finds it at the broker (before: not until a restart)
    const found = await until(
      () => stored().some((o) => !o.clientOrderId.startsWith('ext-') && o.state === 'ACCEPTED'),
      30_000,
    ).then(
      () => true,
      () => false,
    );
    expect({ found, stored: stored() }).toEqual({ found: true, stored: stored() });
    const ids = Object.keys(broker.sim.counters().ordersPerClientOrderId);
    expect(ids).toHaveLength(1);
    const id = ids[0] as string;
    expect(broker.sim.counters().ordersPerClientOrderId[id]).toBe(1);
    expect(stored()).toEqual([{ clientOrderId: id, state: 'ACCEPTED', brokerOrderId: expect.any(String) }]);
    // the strategy hears of its order, and of its fill
    broker.sim.setPrice('005930', '54000');
    await until(() => RestsOne.fills === 1, 60_000);
    expect(events.filter((e) => e.clientOrderId === id).map((e) => e.type)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderFilled',
    ]);
    expect(db.orders.get(id)?.state).toBe('FILLED');
  }, 120_000);
});
