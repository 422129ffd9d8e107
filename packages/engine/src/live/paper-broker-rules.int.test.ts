/**
 * Paper with the risk module disabled answers the orders the broker refuses as the broker does: a
 * KR price past the day's limits (`price-out-of-range`) or off the tick grid (`invalid-request`),
 * an order of 100,000,000 KRW or more not confirmed (`confirm-high-value-required`) and one past
 * the maximum amount (`max-order-amount-exceeded`), a KR order against a working order of the
 * other side (`opposite-pending-order-exists`), and a modify to a price past the limits or off the
 * grid. Before, the paper venue took them all. Differential: the same strategy, risk off, in a
 * live run (the simulator over HTTP on 127.0.0.1 answers each order) and in a paper run, each
 * over a simulator started at the same instant; the paper run's outcome codes must be the live
 * run's, and the live run's are checked against the spec's codes too.
 */
import {
  type ClientOrderId,
  Decimal,
  instrumentOf,
  type OrderEvent,
  roundToTick,
  SecurityType,
  tickSize,
} from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** One step: a new order (`order`) or a change of the step `of`'s order (`modify`, its new price). */
type Step =
  | {
      readonly order: {
        readonly side: 'BUY' | 'SELL';
        readonly quantity: Decimal;
        readonly price: Decimal;
        readonly confirmHighValue?: boolean;
        readonly fromAccount?: boolean;
      };
    }
  | { readonly modify: { readonly of: number; readonly price: Decimal } };

const SYMBOL = '005930';

/** The steps of a run, and each one's outcome (a code or `accepted`) once told. */
let steps: readonly Step[] = [];
const outcomes: string[] = [];
const ids: (ClientOrderId | undefined)[] = [];

const OUTCOMES = new Set([
  'OrderAccepted',
  'OrderDenied',
  'OrderRejected',
  'OrderModified',
  'OrderModifyRejected',
]);

/** Takes the steps one by one, each once the one before it had its outcome. */
class Steps extends Strategy {
  override onStart(): void {
    this.next();
  }

  override onOrderEvent(event: OrderEvent): void {
    const i = outcomes.length;
    if (i >= steps.length || event.clientOrderId !== ids[i] || !OUTCOMES.has(event.type)) return;
    const step = steps[i];
    // a modify's outcome is its OrderModified or OrderModifyRejected, not the order's own events
    if (step !== undefined && 'modify' in step && !event.type.startsWith('OrderModif')) return;
    outcomes.push(
      event.type === 'OrderAccepted' || event.type === 'OrderModified'
        ? 'accepted'
        : 'code' in event
          ? String(event.code)
          : event.type,
    );
    this.next();
  }

  private next(): void {
    const step = steps[outcomes.length];
    if (step === undefined) return;
    if ('order' in step) {
      const o = step.order;
      ids.push(this.ctx.submit({ symbol: SYMBOL, ...o }));
    } else {
      const id = ids[step.modify.of] as ClientOrderId;
      ids.push(id);
      this.ctx.modify(id, { price: step.modify.price, quantity: 1 });
    }
  }
}

/** The steps' outcomes in a `mode` run of {@link Steps}, risk off, over a simulator started at `start`. */
async function run(mode: 'live' | 'paper', start: string): Promise<string[]> {
  const s = await startSimulatedBroker(closers, { start, speed: 1 });
  const limits = await s.client.getPriceLimits(SYMBOL);
  const upper = limits.upperLimitPrice as Decimal;
  const lower = limits.lowerLimitPrice as Decimal;
  const stock = instrumentOf(SYMBOL, SecurityType.STOCK);
  const above = upper.plus(tickSize(stock, upper));
  const offGrid = roundToTick(stock, lower.times(1.01), 'down').plus(1);
  const qty = (krw: number) => new Decimal(krw).div(lower).ceil();
  steps = [
    { order: { side: 'BUY', quantity: new Decimal(1), price: above } },
    { order: { side: 'BUY', quantity: new Decimal(1), price: offGrid } },
    { order: { side: 'BUY', quantity: qty(100_000_000), price: lower } },
    { order: { side: 'BUY', quantity: qty(3_000_000_000), price: lower, confirmHighValue: true } },
    // rests below the market: the one working order of the run
    { order: { side: 'BUY', quantity: new Decimal(1), price: lower } },
    // (of the account's shares: the strategy holds none, the account may)
    { order: { side: 'SELL', quantity: new Decimal(1), price: upper, fromAccount: true } },
    { modify: { of: 4, price: above } },
    { modify: { of: 4, price: offGrid } },
  ];
  outcomes.length = 0;
  ids.length = 0;
  const db = openTempDb(closers, `hoga-${mode}-broker-rules-`, s.clock);
  const { handle } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `broker-rules-${mode}`,
      mode,
      symbols: [SYMBOL],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: Steps }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: { enabled: false } },
  );
  closers.add(() => handle.stop());
  await until(() => outcomes.length === steps.length, 30_000);
  // paper: nothing reached the broker; live: the one order it took
  expect(s.sim.counters().ordersCreated).toBe(mode === 'paper' ? 0 : 1);
  return [...outcomes];
}

describe('paper with the risk module disabled', () => {
  it("answers KR orders and modifies the broker refuses with the broker's codes", async () => {
    const live = await run('live', '2026-11-23T10:00:00+09:00');
    expect(live).toEqual([
      'price-out-of-range',
      'invalid-request',
      'confirm-high-value-required',
      'max-order-amount-exceeded',
      'accepted',
      'opposite-pending-order-exists',
      'price-out-of-range',
      'invalid-request',
    ]);
    await closers.closeAll();
    const paper = await run('paper', '2026-11-23T10:00:00+09:00');
    expect(paper).toEqual(live);
  }, 120_000);
});
