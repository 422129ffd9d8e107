/**
 * A store that outlives its broker: `hoga sim` restarted (same seed, no state file) behind the same
 * SQLite file, as a user does between sessions. The new broker's orders must not be taken for the
 * old broker's: a fill of the second session's order is booked to that order, in its symbol.
 */
import { type Bar, Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  RestBelow,
  startRunOf005930,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys one 000660 at market on its first bar. */
class BuyOne000660 extends Strategy {
  private bought = false;
  override onBar(bar: Bar): void {
    if (this.bought || bar.symbol !== '000660') return;
    this.bought = true;
    this.ctx.buy('000660', 1);
  }
}

describe('a live store behind a restarted simulator', () => {
  it("books the new broker's fill to the new order, not to an old order of the same broker order id", async () => {
    const file = tempDbFile('hoga-fresh-broker-');
    const first = await startSimulatedBroker(closers, { speed: 30 });
    let db = HogaDatabase.open(file, { clock: first.clock });
    closers.add(() => db.close());
    const resting = await startRunOf005930({ ...first, db }, 'live', { strategyClass: RestBelow });
    await until(() => resting.events.some((e) => e.type === 'OrderAccepted'));
    await resting.handle.stop();
    const old = resting.events.find((e) => e.type === 'OrderSubmitted');
    if (old === undefined) throw new Error('no order in the first session');
    await first.sim.close();
    db.close();

    // the simulator starts afresh (same seed): a new broker with no orders
    const second = await startSimulatedBroker(closers, { speed: 30 });
    db = HogaDatabase.open(file, { clock: second.clock });
    const run = await startTestRun(
      { ...second, db },
      {
        runId: 't-fresh',
        mode: 'live',
        symbols: ['000660'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: BuyOne000660 }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
    );
    try {
      await until(() => run.events.some((e) => e.type === 'OrderFilled'));
    } finally {
      await run.handle.stop();
    }
    const filled = run.events.find((e) => e.type === 'OrderFilled');
    if (filled?.type !== 'OrderFilled') throw new Error('no fill');
    expect(filled.fill.symbol).toBe('000660');
    const placed = run.events.find((e) => e.type === 'OrderSubmitted');
    expect(filled.clientOrderId).toBe(placed?.clientOrderId);
    // the store: the new order has its fill, the old one none
    expect(db.orders.get(filled.clientOrderId)?.filledQuantity.toFixed()).toBe('1');
    expect(db.orders.get(old.clientOrderId)?.filledQuantity.toFixed()).toBe('0');
    const symbols = db.connection
      .prepare('SELECT o.symbol FROM fills f JOIN orders o ON o.id = f.order_id')
      .all() as { symbol: string }[];
    expect(symbols.map((r) => r.symbol)).toEqual(['000660']);
    // the two brokers' order ids differ
    expect(db.orders.get(filled.clientOrderId)?.brokerOrderId).not.toBe(
      db.orders.get(old.clientOrderId)?.brokerOrderId,
    );
  }, 120_000);
});
