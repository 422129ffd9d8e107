/**
 * Paper with the risk module disabled answers the orders the broker refuses as the broker does: a
 * KR price past the day's limits (`price-out-of-range`) or off the tick grid (`invalid-request`),
 * a US price nothing of is left on the grid (`invalid-request`; one off the grid is taken, as the
 * broker truncates it), an order of 100,000,000 KRW or more not confirmed
 * (`confirm-high-value-required`) and one past the maximum amount (`max-order-amount-exceeded`), a
 * KR order against a working order of the other side (`opposite-pending-order-exists`), a modify
 * to a price past the limits or off the grid, and a cancel outside order hours
 * (`order-hours-closed`). Before, the paper venue took them all; then paper denied a new order
 * (`OrderDenied`) where live's strategy hears `OrderSubmitted`, then `OrderRejected`. Differential:
 * the same strategy, risk off, in a live run (the simulator over HTTP on 127.0.0.1 answers each
 * command) and in a paper run, each over a simulator started at the same instant; the paper run's
 * outcomes (the events the strategy heard and their codes) must be the live run's, and the live
 * run's are checked against the spec's codes too.
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
import { DateTime } from 'luxon';
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
  | { readonly modify: { readonly of: number; readonly price: Decimal } }
  | { readonly cancel: { readonly of: number; readonly at: number } };

/** The symbol the steps trade. */
let symbol = '005930';

/** The steps of a run, and each one's outcome (a code or `accepted`) once told. */
let steps: readonly Step[] = [];
const outcomes: string[] = [];
const ids: (ClientOrderId | undefined)[] = [];

/** Whether the current step's order was told `OrderSubmitted` (a create the broker took, then answered). */
let submitted = false;

const OUTCOMES = new Set([
  'OrderAccepted',
  'OrderDenied',
  'OrderRejected',
  'OrderModified',
  'OrderModifyRejected',
  'OrderCanceled',
  'OrderCancelRejected',
]);
const TAKEN = new Set(['OrderAccepted', 'OrderModified', 'OrderCanceled']);

/** Takes the steps one by one, each once the one before it had its outcome. */
class Steps extends Strategy {
  override onStart(): void {
    this.next();
  }

  override onOrderEvent(event: OrderEvent): void {
    const i = outcomes.length;
    if (i >= steps.length || event.clientOrderId !== ids[i]) return;
    const step = steps[i];
    if (step !== undefined && 'order' in step && event.type === 'OrderSubmitted') submitted = true;
    if (!OUTCOMES.has(event.type)) return;
    // a modify's or cancel's outcome is its own, not the order's other events
    if (step !== undefined && 'modify' in step && !event.type.startsWith('OrderModif')) return;
    if (step !== undefined && 'cancel' in step && !event.type.startsWith('OrderCancel')) return;
    // a refusal as the strategy hears it: the event types (a create's OrderSubmitted first) and the code
    const heard = `${submitted && 'order' in (step as Step) ? 'OrderSubmitted ' : ''}${event.type}`;
    outcomes.push(TAKEN.has(event.type) ? 'accepted' : 'code' in event ? `${heard} ${event.code}` : heard);
    submitted = false;
    this.next();
  }

  override onTimer(): void {
    const step = steps[outcomes.length];
    if (step !== undefined && 'cancel' in step) this.ctx.cancel(ids[step.cancel.of] as ClientOrderId);
  }

  private next(): void {
    const step = steps[outcomes.length];
    if (step === undefined) return;
    if ('order' in step) {
      const o = step.order;
      ids.push(this.ctx.submit({ symbol, ...o }));
    } else if ('modify' in step) {
      const id = ids[step.modify.of] as ClientOrderId;
      ids.push(id);
      this.ctx.modify(id, { price: step.modify.price, quantity: 1 });
    } else {
      // at the instant given (the engine clock), on a timer
      ids.push(ids[step.cancel.of]);
      this.ctx.setTimer('cancel', { at: step.cancel.at });
    }
  }
}

/** What the steps are built from: the broker's last price and (KR) price limits of the symbol. */
interface Quote {
  readonly last: Decimal;
  readonly upper: Decimal | null;
  readonly lower: Decimal | null;
}

/**
 * The steps' outcomes in a `mode` run of {@link Steps} on `traded`, risk off, over a simulator started
 * at `start` (at `speed`), the steps built by `build` from the broker's quote.
 */
async function run(
  mode: 'live' | 'paper',
  o: {
    readonly start: string;
    readonly traded: string;
    readonly speed?: number;
    readonly build: (q: Quote) => readonly Step[];
  },
): Promise<string[]> {
  const s = await startSimulatedBroker(closers, { start: o.start, speed: o.speed ?? 1 });
  const [price] = await s.client.getPrices([o.traded]);
  const limits = await s.client.getPriceLimits(o.traded);
  symbol = o.traded;
  steps = o.build({
    last: price?.lastPrice ?? new Decimal(0),
    upper: limits.upperLimitPrice,
    lower: limits.lowerLimitPrice,
  });
  outcomes.length = 0;
  ids.length = 0;
  submitted = false;
  const db = openTempDb(closers, `hoga-${mode}-broker-rules-`, s.clock);
  const { handle, events } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `broker-rules-${mode}`,
      mode,
      symbols: [o.traded],
      cashKrw: new Decimal(10_000_000),
      cashUsd: new Decimal(10_000),
      strategies: [{ strategyClass: Steps }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 }, risk: { enabled: false } },
  );
  closers.add(() => handle.stop());
  await until(() => outcomes.length === steps.length, 30_000).catch((e) => {
    throw new Error(`${mode}: ${outcomes.join()} then ${events.map((x) => x.type).join()}: ${e}`);
  });
  // paper: nothing reached the broker
  if (mode === 'paper') expect(s.sim.counters().ordersCreated).toBe(0);
  return [...outcomes];
}

/** The outcomes of a live and a paper run of the same steps (see {@link run}). */
async function liveAndPaper(o: Parameters<typeof run>[1]): Promise<{ live: string[]; paper: string[] }> {
  const live = await run('live', o);
  await closers.closeAll();
  return { live, paper: await run('paper', o) };
}

const ONE = new Decimal(1);

/** KR: past the limits, off the grid, high-value, past the maximum, the opposite side, modifies. */
function krSteps(q: Quote): readonly Step[] {
  const upper = q.upper as Decimal;
  const lower = q.lower as Decimal;
  const stock = instrumentOf('005930', SecurityType.STOCK);
  const above = upper.plus(tickSize(stock, upper));
  const offGrid = roundToTick(stock, lower.times(1.01), 'down').plus(1);
  const worth = (krw: number) => new Decimal(krw).div(lower).ceil();
  return [
    { order: { side: 'BUY', quantity: ONE, price: above } },
    { order: { side: 'BUY', quantity: ONE, price: offGrid } },
    { order: { side: 'BUY', quantity: worth(100_000_000), price: lower } },
    { order: { side: 'BUY', quantity: worth(3_000_000_000), price: lower, confirmHighValue: true } },
    // rests below the market: the one working order of the run
    { order: { side: 'BUY', quantity: ONE, price: lower } },
    // (of the account's shares: the strategy holds none, the account may)
    { order: { side: 'SELL', quantity: ONE, price: upper, fromAccount: true } },
    { modify: { of: 4, price: above } },
    { modify: { of: 4, price: offGrid } },
  ];
}

/** US: a price nothing is left of on the grid, high-value, past the maximum, an off-grid price (truncated). */
function usSteps(q: Quote): readonly Step[] {
  const low = q.last.times(0.9).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  // USD worth at least `krw` at any rate from 1,250 KRW per USD
  const worth = (krw: number) => new Decimal(krw).div(1_250).div(low).ceil();
  return [
    { order: { side: 'BUY', quantity: ONE, price: new Decimal('0.00001') } },
    { order: { side: 'BUY', quantity: worth(100_000_000), price: low } },
    { order: { side: 'BUY', quantity: worth(3_000_000_000), price: low, confirmHighValue: true } },
    { order: { side: 'BUY', quantity: ONE, price: low.plus('0.005') } },
  ];
}

describe('paper with the risk module disabled', () => {
  it("answers KR orders and modifies the broker refuses with the broker's codes", async () => {
    const { live, paper } = await liveAndPaper({
      start: '2026-11-23T10:00:00+09:00',
      traded: '005930',
      build: krSteps,
    });
    expect(live).toEqual([
      'OrderSubmitted OrderRejected price-out-of-range',
      'OrderSubmitted OrderRejected invalid-request',
      'OrderSubmitted OrderRejected confirm-high-value-required',
      'OrderSubmitted OrderRejected max-order-amount-exceeded',
      'accepted',
      'OrderSubmitted OrderRejected opposite-pending-order-exists',
      'OrderModifyRejected price-out-of-range',
      'OrderModifyRejected invalid-request',
    ]);
    expect(paper).toEqual(live);
  }, 120_000);

  it("answers US orders the broker refuses with the broker's codes, and takes one off the grid", async () => {
    // 01:00 KST: the US regular session
    const { live, paper } = await liveAndPaper({
      start: '2026-11-24T01:00:00+09:00',
      traded: 'AAPL',
      build: usSteps,
    });
    expect(live).toEqual([
      'OrderSubmitted OrderRejected invalid-request',
      'OrderSubmitted OrderRejected confirm-high-value-required',
      'OrderSubmitted OrderRejected max-order-amount-exceeded',
      'accepted',
    ]);
    expect(paper).toEqual(live);
  }, 120_000);

  it('refuses a cancel outside order hours as the broker does', async () => {
    // 17:50 KST (03:50 New York) the US day market closes, and orders are taken again at 18:00
    const gap = DateTime.fromISO('2026-11-24T17:50:10+09:00').toMillis();
    const build = (q: Quote): readonly Step[] => [
      {
        order: {
          side: 'BUY',
          quantity: ONE,
          price: q.last.times(0.9).toDecimalPlaces(2, Decimal.ROUND_DOWN),
        },
      },
      { cancel: { of: 0, at: gap } },
    ];
    const { live, paper } = await liveAndPaper({
      start: '2026-11-24T17:49:40+09:00',
      traded: 'AAPL',
      speed: 5,
      build,
    });
    expect(live).toEqual(['accepted', 'OrderCancelRejected order-hours-closed']);
    expect(paper).toEqual(live);
  }, 120_000);
});
