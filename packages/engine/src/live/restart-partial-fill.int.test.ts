/**
 * An order partly filled when the run stopped is the same order to its strategy in the next run,
 * in paper as in live: its whole quantity, what filled of it and at what average, state
 * `PARTIALLY_FILLED` in `onStart`, and its next fill counts on from there (`cumulativeQuantity`).
 * Before, paper put back only its unfilled part as if it were a new order: `onStart` saw an order of
 * the rest, nothing filled, and its next fill's `cumulativeQuantity` started from 0. Over the
 * simulator on 127.0.0.1 (ZOM at the US open, its book unchanged: a buy of three times the best
 * ask's volume at that price fills that volume and rests). Paper: such an order left over the end
 * of its trading day is told `OrderExpired` by the next run, and `ctx.order(id)` there is the order
 * as it ended, `EXPIRED` with its fills so far, no longer among the open ones (before, `undefined`).
 */
import { Decimal, type Fill, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** 09:30 New York: the US regular session has just opened. */
const US_OPEN = '2026-11-23T23:30:00+09:00';

/** Buys `quantity` ZOM at `price` on start. */
class BuysZom extends Strategy {
  static quantity = new Decimal(0);
  static price = new Decimal(0);
  static fills: Fill[] = [];
  override onStart(): void {
    this.ctx.buy('ZOM', BuysZom.quantity, BuysZom.price);
  }
  override onFill(fill: Fill): void {
    BuysZom.fills.push(fill);
  }
}

/** Places nothing; records its open orders in `onStart` and its fills. */
class Finds extends Strategy {
  static found: string[] = [];
  static fills: Fill[] = [];
  override onStart(): void {
    Finds.found = this.ctx
      .openOrders()
      .map(
        (o) =>
          `${o.quantity?.toFixed()} filled ${o.filledQuantity.toFixed()} @ ${o.averageFillPrice?.toFixed()} ${o.state}`,
      );
  }
  override onFill(fill: Fill): void {
    Finds.fills.push(fill);
  }
}

/** Places nothing; records, at an `OrderExpired`, `ctx.order(id)` and its open orders' count. */
class HearsExpiry extends Strategy {
  static heard: string | null = null;
  override onOrderEvent(event: OrderEvent): void {
    if (event.type !== 'OrderExpired') return;
    const o = this.ctx.order(event.clientOrderId);
    HearsExpiry.heard = `${o?.state} filled ${o?.filledQuantity.toFixed()} @ ${o?.averageFillPrice?.toFixed()}, open ${this.ctx.openOrders().length}`;
  }
}

/**
 * A simulator at the US open and a store; a first run of `BuysZom` (id `Buyer`) buys three times the
 * best ZOM ask's volume at its price, fills that volume and stops with the rest resting: the broker,
 * the best ask, what filled, and `run` starting another run of a strategy as `Buyer` on the store.
 */
async function partlyFilled(mode: 'paper' | 'live', name: string) {
  const s = await startSimulatedBroker(closers, { start: US_OPEN, speed: 0 });
  const [best] = (await s.client.getOrderbook('ZOM')).asks;
  if (best === undefined) throw new Error('ZOM has no ask');
  BuysZom.quantity = best.volume.times(3);
  BuysZom.price = best.price;
  BuysZom.fills = [];
  const db = openTempDb(closers, `hoga-${name}-${mode}-`, s.clock);
  const run = (strategyClass: StrategyClass) =>
    startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: `${name}-${mode}`,
        mode,
        symbols: ['ZOM'],
        cashKrw: new Decimal(0),
        cashUsd: new Decimal(100_000),
        strategies: [{ strategyClass, id: 'Buyer' }],
      },
      { pollIntervalMs: 200, streamIntervals: { orderbook: 100 } },
    );
  const first = await run(BuysZom);
  await until(() => BuysZom.fills.length > 0, 30_000);
  await first.handle.stop();
  const filled = BuysZom.fills.reduce((sum, f) => sum.plus(f.quantity), new Decimal(0));
  expect(filled.lt(BuysZom.quantity)).toBe(true);
  return { s, best, filled, run };
}

describe('a partly filled order after a restart', () => {
  it.each(['paper', 'live'] as const)(
    '%s: is the whole order with its fills so far',
    async (mode) => {
      Finds.found = [];
      Finds.fills = [];
      const { s, best, filled, run } = await partlyFilled(mode, 'restart-partial');

      const second = await run(Finds);
      closers.add(() => second.handle.stop());
      expect(Finds.found).toEqual([
        `${BuysZom.quantity.toFixed()} filled ${filled.toFixed()} @ ${best.price.toFixed()} PARTIALLY_FILLED`,
      ]);
      // the market falls through the limit: the rest fills, counted on from what filled before
      s.sim.setPrice('ZOM', best.price.times(0.9).toDecimalPlaces(2));
      s.sim.setSpeed(10);
      s.clock.setSpeed(10);
      await until(() => Finds.fills.length > 0, 60_000);
      const next = Finds.fills[0] as Fill;
      expect(next.cumulativeQuantity.toFixed()).toBe(filled.plus(next.quantity).toFixed());
    },
    120_000,
  );

  // paper only: live, the simulator works the order over the hours its clock jumps, and fills the rest
  it('paper: expired with its session while the engine was down, it is told EXPIRED with its fills so far', async () => {
    HearsExpiry.heard = null;
    const { s, best, filled, run } = await partlyFilled('paper', 'restart-partial-expired');
    // the engine is down over the end of the US day (20:00 New York) and starts the next morning
    const next = '2026-11-24T22:00:00+09:00';
    s.sim.setClock(next);
    s.clock.set(Date.parse(next));

    const second = await run(HearsExpiry);
    closers.add(() => second.handle.stop());
    await until(() => HearsExpiry.heard !== null, 30_000);
    expect(HearsExpiry.heard).toBe(`EXPIRED filled ${filled.toFixed()} @ ${best.price.toFixed()}, open 0`);
  }, 120_000);
});
