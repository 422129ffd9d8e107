/**
 * A denied order's row, paper and live, over the simulator on 127.0.0.1 with a real SQLite file
 * whose test-only trigger refuses the update that gives a denied order its reason: the row is
 * stored whole (DENIED with `code: reason`) or not at all, and a restarted run on the same file
 * never takes it for an open order (not in the strategy's `openOrders()`, not in the run's open
 * orders, not reconciled with the broker).
 *
 * Before, the denied order was written in two writes (its intent, then its state and reason): the
 * second refused, the row stayed DENIED without its reason (`hoga db orders` showed no cause; a
 * restart already left it alone, DENIED being final).
 */
import { type Bar, type ClientOrderId, Decimal, type OrderEvent } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
  Watch,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Refuses only the update that makes a row DENIED (its intent's insert goes through). */
const REFUSE_DENIED_UPDATE = `CREATE TRIGGER test_refuse_denied BEFORE UPDATE ON orders
  WHEN NEW.state = 'DENIED' BEGIN SELECT RAISE(ABORT, 'test: the update is refused'); END`;

/** On the first bar: a resting buy of 1 share 3 % under the close, and a buy far over the cash (denied). */
class RestAndOverreach extends Strategy {
  static resting: ClientOrderId | null = null;
  static denied: ClientOrderId | null = null;
  static events: OrderEvent[] = [];
  private placed = false;

  override onBar(bar: Bar): void {
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    const price = Math.floor((bar.close * 0.97) / 100) * 100;
    RestAndOverreach.resting = this.ctx.buy('005930', 1, price);
    RestAndOverreach.denied = this.ctx.buy('005930', 10_000, price);
  }

  override onOrderEvent(event: OrderEvent): void {
    RestAndOverreach.events.push(event);
  }
}

// each on a port the system picks (before, 42301 and 42302: one was taken by another test's
// process once, and the test failed with EADDRINUSE)
describe.each(['paper', 'live'] as const)(
  '%s: a denied order whose row the store refuses in part',
  (mode) => {
    it('is stored whole or not at all, and a restart never takes it for an open order', async () => {
      const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
      const file = tempDbFile(`hoga-${mode}-denied-row-`);
      let db = HogaDatabase.open(file, { clock });
      closers.add(() => db.close());
      db.connection.exec(REFUSE_DENIED_UPDATE);
      RestAndOverreach.resting = null;
      RestAndOverreach.denied = null;
      RestAndOverreach.events = [];
      const run = {
        runId: `t-${mode}-denied-row`,
        mode,
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
      };
      const options = { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } };
      const first = await startTestRun(
        { client, clock, db },
        { ...run, strategies: [{ strategyClass: RestAndOverreach, id: 'Overreach' }] },
        options,
      );
      const has = (id: ClientOrderId | null, type: OrderEvent['type']) =>
        RestAndOverreach.events.some((e) => e.clientOrderId === id && e.type === type);
      await until(
        () => has(RestAndOverreach.resting, 'OrderAccepted') && has(RestAndOverreach.denied, 'OrderDenied'),
        90_000,
      );
      await first.handle.stop(); // the resting order stays open
      const { resting, denied } = RestAndOverreach as unknown as Record<'resting' | 'denied', ClientOrderId>;

      // the denied order's row: whole (DENIED, with its code and reason) or none
      const row = db.orders.get(denied);
      if (row !== null) {
        expect(row.state).toBe('DENIED');
        expect(row.rejectReason).toMatch(/^[a-z-]+: /);
      }
      // its denial is journalled all the same
      expect(db.journal.forOrder(denied).map((e) => e.type)).toContain('OrderDenied');

      // the engine restarts on the same file: only the resting order is open
      db.close();
      db = HogaDatabase.open(file, { clock });
      const second = await startTestRun(
        { client, clock, db },
        { ...run, strategies: [{ strategyClass: Watch, id: 'Overreach' }] },
        options,
      );
      try {
        expect(Watch.found).toHaveLength(1);
        expect(Watch.found[0]).toMatch(new RegExp(`^${resting} BUY 1 @ \\d+ ACCEPTED$`));
        expect(second.handle.status().openOrders).toBe(1);
      } finally {
        await second.handle.stop();
      }
      const open = db.orders.list({
        mode,
        state: ['INITIALIZED', 'SUBMITTED', 'ACCEPTED', 'PARTIALLY_FILLED'],
      });
      expect(open.map((o) => o.clientOrderId)).toEqual([resting]);
      expect(db.orders.unknownOutcome().map((o) => o.clientOrderId)).not.toContain(denied);
      expect(second.events.filter((e) => e.clientOrderId === denied)).toEqual([]);
    }, 240_000);
  },
);
