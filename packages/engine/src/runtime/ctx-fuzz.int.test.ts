/**
 * Generated bad input from a strategy in a paper run over the simulator on 127.0.0.1 (port 0) with
 * a real SQLite file: every call of the context with arbitrary values either works as documented or
 * throws a typed error naming the value; the run goes on (it has not failed when stopped), and the
 * store agrees with the events: each order told of has its row, each row's filled quantity is the
 * sum of the fills told, and the fills stored are the fills told.
 */
import { Decimal, type OrderEvent } from '@hoga/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  until,
} from '../live/live-run.test-helper.js';
import { FuzzCalls, fuzzPlanArb } from './ctx-fuzz.test-helper.js';
import { misreturned, misthrown } from './ctx-fuzz-checks.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const STATE_OF: Partial<Record<OrderEvent['type'], string>> = {
  OrderDenied: 'DENIED',
  OrderRejected: 'REJECTED',
  OrderFilled: 'FILLED',
  OrderCanceled: 'CANCELED',
  OrderExpired: 'EXPIRED',
};
const FINAL = new Set<OrderEvent['type']>([
  'OrderDenied',
  'OrderRejected',
  'OrderFilled',
  'OrderCanceled',
  'OrderExpired',
]);

describe('a strategy feeding its context generated bad values (paper, simulator)', () => {
  // a few plans of many calls each: a run costs seconds, not milliseconds
  const plans = fc.sample(fuzzPlanArb('005930', 70_000, 40), {
    seed: 20261130,
    numRuns: 5,
  });
  const cases = plans.map((plan, i) => [i, i >= 3, plan] as const);
  it.each(cases)(
    'plan %i (uncaught: %s): typed errors, the run goes on or fails as documented, the store matches',
    async (_i, uncaught, plan) => {
      const { clock, client } = await startSimulatedBroker(closers, { speed: 30 });
      const db = openTempDb(closers, 'hoga-ctx-fuzz-', clock);
      FuzzCalls.reset(plan, '005930', uncaught);
      const run = await startTestRun(
        { client, clock, db },
        {
          runId: 't-paper-fuzz',
          mode: 'paper',
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          strategies: [{ strategyClass: FuzzCalls, id: 'Fuzz' }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      let failure: string | null = null;
      void run.handle.failed.then((f) => {
        failure = f.message;
      });
      let stopped = false;
      closers.add(() => (stopped ? undefined : run.handle.stop()));
      await until(() => FuzzCalls.timed || failure !== null, 120_000);
      // every order placed has been told of (denied, or sent and answered)
      const told = (id: string) =>
        FuzzCalls.events.some(
          (e) => e.clientOrderId === id && (FINAL.has(e.type) || e.type === 'OrderAccepted'),
        );
      await until(() => FuzzCalls.placed.every(told) || failure !== null, 60_000);
      stopped = true;
      await run.handle.stop();

      const first = FuzzCalls.outcomes.find((o) => 'threw' in o);
      if (uncaught && first !== undefined) {
        // the hook's throw stops the run: `strategy <id> threw in <hook>: <message>`
        expect(failure).toMatch(/^strategy Fuzz threw in on(Start|Bar|Timer|Stop): /);
        expect(failure).toContain((first.threw as Error).message);
      } else {
        expect(failure).toBeNull();
        const calls = plan.onStart.length + plan.onBar.length + plan.onTimer.length + plan.onStop.length;
        expect(FuzzCalls.outcomes).toHaveLength(calls);
      }
      const bad = FuzzCalls.outcomes
        .map((o) => [fc.stringify(o.call), misthrown(o) ?? misreturned(o)] as const)
        .filter(([, why]) => why !== null);
      expect(bad).toEqual([]);

      const fills = FuzzCalls.events.flatMap((e) =>
        e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' ? [e.fill] : [],
      );
      // an order placed has its row (a denied one too); an unknown id's refusal (`order-not-found`) has none
      for (const id of FuzzCalls.placed) {
        const row = db.orders.get(id);
        expect(row, `order ${id} placed has a row`).not.toBeNull();
        const last = FuzzCalls.events.filter((e) => e.clientOrderId === id && FINAL.has(e.type)).at(-1);
        if (last !== undefined) expect(row?.state, `order ${id}'s state`).toBe(STATE_OF[last.type]);
        const filled = fills
          .filter((f) => f.clientOrderId === id)
          .reduce((sum, f) => sum.plus(f.quantity.toString()), new Decimal(0));
        expect(row?.filledQuantity.toString(), `order ${id}'s filled quantity`).toBe(filled.toString());
      }
      expect(db.fills.list({ mode: 'paper' })).toHaveLength(fills.length);
    },
    200_000,
  );
});
