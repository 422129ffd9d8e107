/**
 * Generated live and paper runs over the simulator on 127.0.0.1 (its clock at ×10 from 09:10 KST):
 * fast-check draws a schedule of market and limit buys and sells of two KR stocks, modifies and
 * cancels, one step every 2 s of engine time; the strategy carries it out, cancels what is still
 * open, and the run stops. Then nothing may be lost or doubled: no fill stored twice, and what the
 * strategy was told (`onFill`) per broker order is what the store holds; live, every broker order's
 * filled quantity is what the store's fills of it add up to, the strategy's positions are what the
 * account's holdings moved by, and nothing of the run's is left open at the broker; paper, the
 * broker saw no order and the positions are what the stored fills add up to. Longer hunts:
 * `HOGA_GENERATED_RUNS=40` (40 live and 40 paper runs in about 240 s, none failed), `HOGA_GENERATED_SEED`.
 */
import { closedOrders } from '@hoga/connector';
import { Decimal, type Fill, HogaError, instrumentOf, type OrderEvent, roundToTick } from '@hoga/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { sharesText } from '../backtest/backtest-generated.test-helper.js';
import type { PriceTick } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import type { PositionView } from '../strategy/strategy-context.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const SYMBOLS = ['005930', '000660'] as const;

/** One step's op on a symbol (its index). */
type Op =
  | {
      readonly op: 'buy' | 'sell';
      readonly sym: number;
      readonly qty: number;
      readonly offset: number | null;
    }
  | { readonly op: 'modify'; readonly sym: number; readonly pick: number; readonly offset: number }
  | { readonly op: 'cancel'; readonly sym: number; readonly pick: number };

const sym = fc.nat(1);
/** A limit's distance from the last price, in basis points (±1 %). */
const offset = fc.integer({ min: -100, max: 100 }).map((bp) => bp / 10_000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constantFrom('buy' as const, 'sell' as const),
    sym,
    qty: fc.integer({ min: 1, max: 5 }),
    offset: fc.option(offset, { nil: null }),
  }),
  fc.record({ op: fc.constant('modify' as const), sym, pick: fc.nat(), offset }),
  fc.record({ op: fc.constant('cancel' as const), sym, pick: fc.nat() }),
);
/**
 * Steps of a run: a few ops each, after a first step of a market buy (a run of one schedule, as
 * in the suite, then fills something: its checks are not vacuous).
 */
const scheduleArb = fc
  .array(fc.array(opArb, { minLength: 1, maxLength: 3 }), { minLength: 8, maxLength: 14 })
  .map((steps): Op[][] => [[{ op: 'buy', sym: 0, qty: 1, offset: null }], ...steps]);

/** Carries out {@link Churn.schedule}, a step per timer, then cancels what is open. */
class Churn extends Strategy {
  static schedule: readonly (readonly Op[])[] = [];
  static fills: Fill[] = [];
  static positions: readonly PositionView[] = [];
  static done = false;
  private readonly last = new Map<string, Decimal>();
  private step = 0;

  override onStart(): void {
    for (const s of SYMBOLS) this.ctx.subscribePrices(s);
    this.ctx.setTimer('step', { every: 2_000 });
  }

  override onPrice(tick: PriceTick): void {
    this.last.set(tick.symbol, tick.price);
  }

  override onTimer(): void {
    // the steps start once both symbols have a price (a loaded machine's first polls come late)
    if (SYMBOLS.some((symbol) => !this.last.has(symbol))) return;
    const ops = Churn.schedule[this.step++];
    if (ops === undefined) {
      for (const o of this.ctx.openOrders()) this.ctx.cancel(o.clientOrderId);
      if (this.ctx.openOrders().length === 0) Churn.done = true;
      return;
    }
    for (const op of ops) {
      try {
        this.carry(op);
      } catch (error) {
        // a typed refusal at the call (an order no longer open) is allowed; anything else fails the run
        if (!(error instanceof HogaError)) throw error;
      }
    }
  }

  private carry(op: Op): void {
    const symbol = SYMBOLS[op.sym] as string;
    const last = this.last.get(symbol);
    if (last === undefined) return;
    const priced = (o: number, side: 'up' | 'down') =>
      roundToTick(instrumentOf(symbol), last.times(1 + o), side);
    const open = this.ctx.openOrders(symbol);
    if (op.op === 'cancel') {
      const o = open[op.pick % Math.max(open.length, 1)];
      if (o !== undefined) this.ctx.cancel(o.clientOrderId);
      return;
    }
    if (op.op === 'modify') {
      const limits = open.filter((o) => o.orderType === 'LIMIT');
      const o = limits[op.pick % Math.max(limits.length, 1)];
      if (o !== undefined)
        this.ctx.modify(o.clientOrderId, { price: priced(op.offset, o.side === 'BUY' ? 'down' : 'up') });
      return;
    }
    let qty = new Decimal(op.qty);
    if (op.op === 'sell') {
      const held = this.ctx.position(symbol)?.quantity ?? new Decimal(0);
      const selling = open
        .filter((o) => o.side === 'SELL')
        .reduce((s, o) => s.plus(o.quantity ?? 0), new Decimal(0));
      qty = Decimal.min(qty, held.minus(selling));
      if (qty.lte(0)) return;
    }
    const price = op.offset === null ? undefined : priced(op.offset, op.op === 'buy' ? 'down' : 'up');
    if (op.op === 'buy') this.ctx.buy(symbol, qty, price);
    else this.ctx.sell(symbol, qty, price);
  }

  override onFill(fill: Fill): void {
    Churn.fills.push(fill);
  }

  override onStop(): void {
    Churn.positions = this.ctx.positions();
  }
}

/** What the runs of one test counted: orders placed, and orders that filled. */
interface Tally {
  placed: number;
  filled: number;
}

/** Carries out `schedule` in a `mode` run over a new simulator and checks what it left (see the module). */
async function runSchedule(mode: 'live' | 'paper', schedule: readonly (readonly Op[])[], tally: Tally) {
  await closers.closeAll();
  Churn.schedule = schedule;
  Churn.fills = [];
  Churn.positions = [];
  Churn.done = false;
  const s = await startSimulatedBroker(closers, { start: '2026-11-23T09:10:00+09:00', speed: 10 });
  const before = await s.client.getHoldings();
  const db = openTempDb(closers, `hoga-${mode}-generated-`, s.clock);
  const events: OrderEvent[] = [];
  const { handle } = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: `${mode}-generated`,
      mode,
      symbols: [...SYMBOLS],
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: Churn }],
    },
    { pollIntervalMs: 200, streamIntervals: { prices: 200, orderbook: 200 }, onEvent: (e) => events.push(e) },
  );
  await until(() => Churn.done, 60_000);
  await handle.stop();
  tally.placed += events.filter((e) => e.type === 'OrderSubmitted').length;
  const stored = db.fills.list();
  // a fill stored twice repeats its order's cumulative quantity
  const cumulative = stored.map((f) => `${f.brokerOrderId} ${f.cumulativeQuantity.toFixed()}`);
  expect(new Set(cumulative).size, 'a fill stored twice').toBe(stored.length);
  const told = sharesText(Churn.fills.map((f) => [f.brokerOrderId as string, f.quantity] as const));
  const kept = sharesText(stored.map((f) => [f.brokerOrderId ?? '?', f.quantity] as const));
  expect(told, 'what the strategy was told per order').toEqual(kept);
  tally.filled += new Set(stored.map((f) => f.brokerOrderId)).size;
  // every fill told: no note of one left for a next start (untold-events.ts)
  const notes = db.connection
    .prepare(
      "SELECT key FROM strategy_state WHERE strategy_id IN ('live:untold-events', 'paper:untold-events')",
    )
    .all();
  expect(notes, 'fills noted as untold').toEqual([]);
  const positions = sharesText(Churn.positions.map((p) => [p.symbol, p.quantity] as const));
  if (mode === 'paper') {
    // nothing reached the broker; the positions are what the stored fills add up to
    expect(s.sim.counters().ordersCreated).toBe(0);
    const net = stored.map((f) => [f.symbol, f.side === 'BUY' ? f.quantity : f.quantity.neg()] as const);
    expect(positions, 'positions').toEqual(sharesText(net));
    return;
  }
  const broker = [...(await s.client.listOrders({ status: 'OPEN' })).orders];
  for await (const o of closedOrders(s.client)) broker.push(o);
  // nothing of the run left open at the broker
  expect(
    broker.filter((o) => o.status === 'PENDING' || o.status === 'PARTIAL_FILLED').map((o) => o.orderId),
  ).toEqual([]);
  for (const o of broker) {
    const fromStore = stored
      .filter((f) => f.brokerOrderId === o.orderId)
      .reduce((sum, f) => sum.plus(f.quantity), new Decimal(0));
    expect(fromStore.toFixed(), `broker order ${o.orderId} (${o.status})`).toBe(
      o.execution.filledQuantity.toFixed(),
    );
  }
  const moved = new Map<string, Decimal>();
  for (const h of (await s.client.getHoldings()).items) moved.set(h.symbol, h.quantity);
  for (const h of before.items)
    moved.set(h.symbol, (moved.get(h.symbol) ?? new Decimal(0)).minus(h.quantity));
  expect(positions, 'positions').toEqual(sharesText(moved));
}

describe('generated live and paper runs over the simulator', () => {
  for (const mode of ['live', 'paper'] as const) {
    it(`lose and double no fill (${mode}): ${mode === 'live' ? 'broker, ' : ''}store and strategy agree per order, and on the positions`, async () => {
      const tally: Tally = { placed: 0, filled: 0 };
      await fc.assert(
        fc.asyncProperty(scheduleArb, (schedule) => runSchedule(mode, schedule, tally)),
        {
          numRuns: Number(process.env.HOGA_GENERATED_RUNS ?? 1),
          ...(process.env.HOGA_GENERATED_SEED ? { seed: Number(process.env.HOGA_GENERATED_SEED) } : {}),
        },
      );
      // the schedules placed orders and some filled (the checks are not vacuous)
      expect(tally.placed).toBeGreaterThan(0);
      expect(tally.filled).toBeGreaterThan(0);
    }, 600_000);
  }
});
