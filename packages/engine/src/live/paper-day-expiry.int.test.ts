/**
 * A DAY order still working at the end of its trading day ends there (KR 20:00 KST), and paper and
 * live say it the same way: `OrderExpired` (the broker reports such an order `CANCELED`, with
 * `canceledAt` at 20:00 and no cancel asked for; there is no `EXPIRED` on the wire), its order row
 * and the strategy's order `EXPIRED`. Before, paper said `OrderExpired` and live `OrderCanceled`
 * (reason `broker`) for the same order at the same minute. An order the user cancels elsewhere (the
 * app) during the day stays `OrderCanceled`. Over the simulator on 127.0.0.1: a limit buy well below
 * the market rests in the KR after-market, then both clocks run past 20:00.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategyContext } from '../strategy/strategy-context.js';
import {
  Closers,
  openTempDb,
  RestBelow,
  restOneOrder,
  type SimulatedBroker,
  startRunOf005930,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Wednesday 2026-11-25 20:00 KST: the end of the KR trading day. */
const DAY_END = Date.parse('2026-11-25T20:00:00+09:00');

/** {@link RestBelow} that keeps its context and the order events it is told of. */
class RestAndWatch extends RestBelow {
  static ctx: StrategyContext | null = null;
  static seen: OrderEvent['type'][] = [];
  /** At its `OrderExpired`: `ctx.order(id)`'s state and filled quantity, and the open orders' ids. */
  static atExpiry: { state: string | undefined; filled: string | undefined; open: string[] } | null = null;
  override onStart(): void {
    RestAndWatch.ctx = this.ctx;
  }
  override onOrderEvent(event: OrderEvent): void {
    RestAndWatch.seen.push(event.type);
    if (event.type !== 'OrderExpired') return;
    const order = this.ctx.order(event.clientOrderId);
    RestAndWatch.atExpiry = {
      state: order?.state,
      filled: order?.filledQuantity.toFixed(),
      open: this.ctx.openOrders().map((o) => o.clientOrderId),
    };
  }
}

const ended = (e: OrderEvent) => e.type === 'OrderExpired' || e.type === 'OrderCanceled';

/** A run of `mode` whose order rests at 19:59 KST (the clocks stopped there), on a new store. */
async function restingAt1959(mode: 'paper' | 'live') {
  // Wednesday 2026-11-25 19:58 KST: the KR after-market, two minutes before the day's end
  const s = await startSimulatedBroker(closers, { start: '2026-11-25T19:58:00+09:00', speed: 0 });
  const db = openTempDb(closers, 'hoga-day-expiry-', s.clock);
  RestAndWatch.seen = [];
  RestAndWatch.atExpiry = null;
  const run = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `day-expiry-${mode}`,
      mode,
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [{ strategyClass: RestAndWatch }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
  );
  closers.add(() => run.handle.stop());
  // the clocks run (×30) until the first bar completes and the order rests
  s.sim.setSpeed(30);
  s.clock.setSpeed(30);
  await until(() => run.events.some((e) => e.type === 'OrderAccepted'));
  s.sim.setSpeed(0);
  s.clock.setSpeed(0);
  expect(s.clock.nowMs()).toBeLessThan(DAY_END);
  const accepted = run.events.find((e) => e.type === 'OrderAccepted');
  if (accepted?.type !== 'OrderAccepted') throw new Error('no accepted order');
  return { s, db, run, accepted };
}

/** Sets both clocks to `iso`. */
function setClocks(s: SimulatedBroker, iso: string): void {
  s.sim.setClock(iso);
  s.clock.set(Date.parse(iso));
}

describe('DAY orders at the end of their trading day', () => {
  it.each(['paper', 'live'] as const)(
    '%s: a KR order resting at 20:00 KST expires then (OrderExpired, EXPIRED)',
    async (mode) => {
      const { s, db, run, accepted } = await restingAt1959(mode);
      // past the end of the day: 20:00:30 KST
      setClocks(s, '2026-11-25T20:00:30+09:00');
      await until(() => run.events.some(ended), 30_000);
      const end = run.events.find(ended);
      expect(end?.type).toBe('OrderExpired');
      expect(end?.clientOrderId).toBe(accepted.clientOrderId);
      expect(end?.tsEvent).toBeGreaterThanOrEqual(DAY_END);
      await until(() => RestAndWatch.seen.includes('OrderExpired'), 30_000);
      expect(RestAndWatch.seen).not.toContain('OrderCanceled');
      expect(RestAndWatch.ctx?.order(accepted.clientOrderId)?.state).toBe('EXPIRED');
      expect(db.orders.get(accepted.clientOrderId)?.state).toBe('EXPIRED');
    },
    120_000,
  );

  it.each(['paper', 'live'] as const)(
    '%s: an order left resting by a run stopped before 20:00 is expired by the next run',
    async (mode) => {
      const s = await startSimulatedBroker(closers, { start: '2026-11-25T19:58:00+09:00', speed: 30 });
      const db = openTempDb(closers, 'hoga-day-expiry-restart-', s.clock);
      const intent = await restOneOrder({ client: s.client, clock: s.clock, db }, mode);
      s.sim.setSpeed(0);
      s.clock.setSpeed(0);
      expect(s.clock.nowMs()).toBeLessThan(DAY_END);
      // the engine is down over the end of the day and starts again the next morning
      setClocks(s, '2026-11-26T08:30:00+09:00');
      RestAndWatch.seen = [];
      RestAndWatch.atExpiry = null;
      const next = await startRunOf005930({ client: s.client, clock: s.clock, db }, mode, {
        strategyClass: RestAndWatch,
        id: 'RestBelow',
      });
      closers.add(() => next.handle.stop());
      const ends = () =>
        next.events
          .filter((e) => e.clientOrderId === intent.clientOrderId)
          .map((e) => e.type)
          .filter((t) => t === 'OrderExpired' || t === 'OrderCanceled');
      await until(() => ends().length > 0, 30_000);
      expect(ends()).toEqual(['OrderExpired']);
      expect(db.orders.get(intent.clientOrderId)?.state).toBe('EXPIRED');
      // the strategy, told it: the order known to ctx.order(id) as it ended, no longer open
      await until(() => RestAndWatch.atExpiry !== null, 30_000);
      expect(RestAndWatch.atExpiry).toEqual({ state: 'EXPIRED', filled: '0', open: [] });
    },
    120_000,
  );

  it('live: an order canceled elsewhere (the app) during the day stays OrderCanceled', async () => {
    const { s, db, run, accepted } = await restingAt1959('live');
    // the user cancels it in the app at 19:59
    await s.client.cancelOrder(accepted.brokerOrderId);
    const own = (e: OrderEvent) => ended(e) && e.clientOrderId === accepted.clientOrderId;
    await until(() => run.events.some(own), 30_000);
    // the end of the day passes: nothing more
    setClocks(s, '2026-11-25T20:00:30+09:00');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(run.events.filter(own).map((e) => e.type)).toEqual(['OrderCanceled']);
    expect(db.orders.get(accepted.clientOrderId)?.state).toBe('CANCELED');
  }, 120_000);
});
