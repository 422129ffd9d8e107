/**
 * The reference strategy (strategies/sma-crossover.ts) in the three modes against the simulator
 * over real HTTP, each mode's results checked against an expectation computed apart from the engine:
 * - live (simulator A, ×60): every order is the crossover rule applied to the bars the run saw
 *   (averages recomputed here), the bars it saw are the broker's candles without a gap, the store's
 *   fills per broker order add up to the broker's executions, and the engine's positions equal the
 *   broker's holdings;
 * - paper (simulator B, same seed and start): the same decision check; zero order requests reached
 *   the broker (its counters); every fill is at a level of the order book the venue was handed, no
 *   larger than that level; the persisted ledger's cash and holdings are the starting cash and the
 *   sum of the fills;
 * - backtest: over simulator A's candles of the live window, the trades are exactly those of the
 *   independent computation (`expectedSmaTrades`: next bar's open, at its close time).
 */
import type { LedgerSnapshot, OrderBook } from '@hoga/broker-model';
import { type BrokerClient, candleToBar } from '@hoga/connector';
import { type Bar, createLogger, Decimal, type Fill, type OrderEvent, type ScaledClock } from '@hoga/core';
import type { SimulatorHandle } from '@hoga/simulator';
import type { HogaDatabase } from '@hoga/store';
import { afterAll, describe, expect, it } from 'vitest';
import SmaCrossover from '../../../../strategies/sma-crossover.js';
import {
  asExpectedTrades,
  expectedSmaTrades,
} from '../../../../strategies/sma-crossover-reference.test-helper.js';
import { runBacktest } from '../backtest/run-backtest.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import {
  Closers,
  KR_OPEN,
  openTempDb,
  startSimulatedBroker,
  startTestRun,
  waitUntil,
} from './live-run.test-helper.js';
import type { LiveRunHandle } from './run-live.js';

/**
 * KR stocks without warnings (account 1 holds 100 005930 from the start: not the strategy's).
 * Stocks only: a backtest resolves every symbol as a stock, so an ETF's 5-won ticks (069500 opening
 * at 35,070) are rounded to the stock grid (35,100) by the bar fill model.
 */
const SYMBOLS = ['005930', '035420', '035720'] as const;
const CONFIG = { fast: 2, slow: 4, quantity: 3 } as const;
const SPEED = 60;
const PAPER_CASH = new Decimal(10_000_000);

const closers = new Closers();
afterAll(() => closers.closeAll());

/** One order the strategy placed, with the bar it placed it on and what it saw then. */
interface Decision {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: string;
  /** Index of the bar in the symbol's bars seen. */
  readonly barIndex: number;
}

/** What the strategy saw at each bar: the bar, whether it had open orders, its position. */
interface Seen {
  readonly bar: Bar;
  readonly openOrders: number;
  readonly position: string | null;
}

/** What a mode's run recorded. */
interface Recording {
  readonly seen: Map<string, Seen[]>;
  readonly decisions: Decision[];
  /** The ids of the orders placed. */
  readonly placed: string[];
  readonly events: OrderEvent[];
  readonly fills: Fill[];
}

/**
 * The reference strategy, unchanged, observed: each bar with the strategy's own view of open
 * orders and position is recorded before the reference `onBar` runs, and each order it places is
 * recorded with that bar.
 */
function observed(rec: Recording): typeof SmaCrossover {
  let current: { symbol: string; index: number } | null = null;
  return class ObservedSma extends SmaCrossover {
    constructor(ctx: StrategyContext, config: never) {
      const record =
        (side: 'BUY' | 'SELL', place: StrategyContext['buy']): StrategyContext['buy'] =>
        (symbol, quantity, price) => {
          const id = place(symbol, quantity, price);
          rec.placed.push(id);
          rec.decisions.push({
            symbol,
            side,
            quantity: new Decimal(quantity.toString()).toFixed(),
            barIndex: current?.symbol === symbol ? current.index : -1,
          });
          return id;
        };
      const proxy = new Proxy(ctx, {
        get(target, key) {
          if (key === 'buy') return record('BUY', target.buy.bind(target));
          if (key === 'sell') return record('SELL', target.sell.bind(target));
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      super(proxy, config);
    }

    override onBar(bar: Bar): void {
      const list = rec.seen.get(bar.symbol) ?? [];
      rec.seen.set(bar.symbol, list);
      list.push({
        bar,
        openOrders: this.ctx.openOrders(bar.symbol).length,
        position: this.ctx.position(bar.symbol)?.quantity.toFixed() ?? null,
      });
      current = { symbol: bar.symbol, index: list.length - 1 };
      super.onBar(bar);
      current = null;
    }
  };
}

function mean(closes: readonly number[], end: number, n: number): number {
  let sum = 0;
  for (let k = end - n + 1; k <= end; k++) sum += closes[k] as number;
  return sum / n;
}

/**
 * The orders the crossover rule places on a symbol's bars, given what the strategy saw at each bar
 * (open orders, position): recomputed from the closes.
 */
function expectedDecisions(symbol: string, seen: readonly Seen[]): Decision[] {
  const closes = seen.map((s) => s.bar.close);
  const out: Decision[] = [];
  for (let i = CONFIG.slow; i < seen.length; i++) {
    const s = seen[i] as Seen;
    const f = mean(closes, i, CONFIG.fast);
    const sl = mean(closes, i, CONFIG.slow);
    const pf = mean(closes, i - 1, CONFIG.fast);
    const ps = mean(closes, i - 1, CONFIG.slow);
    if (s.openOrders > 0) continue;
    if (pf <= ps && f > sl && s.position === null) {
      out.push({ symbol, side: 'BUY', quantity: String(CONFIG.quantity), barIndex: i });
    } else if (pf >= ps && f < sl && s.position !== null) {
      out.push({ symbol, side: 'SELL', quantity: s.position, barIndex: i });
    }
  }
  return out;
}

/** The simulator's completed 1m candles of `symbol` from `fromTs` to `toTs`, as bars, oldest first. */
async function brokerBars(
  client: BrokerClient,
  symbol: string,
  fromTs: number,
  toTs: number,
): Promise<Bar[]> {
  const page = await client.getCandles(symbol, { interval: '1m', count: 200 });
  return page.candles
    .map((c) => candleToBar(c, symbol, '1m'))
    .filter((b) => b.ts >= fromTs && b.ts <= toTs)
    .sort((a, b) => a.ts - b.ts);
}

interface Mode {
  readonly sim: SimulatorHandle;
  readonly client: BrokerClient;
  readonly clock: ScaledClock;
  readonly db: HogaDatabase;
  readonly rec: Recording;
  readonly books: Map<string, OrderBook>;
  /** Paper fills not found at a level of the book the venue was handed. */
  readonly offBook: string[];
  handle: LiveRunHandle;
}

async function startMode(mode: 'live' | 'paper'): Promise<Mode> {
  const { sim, clock, client } = await startSimulatedBroker(closers, { start: KR_OPEN, speed: SPEED });
  const db = openTempDb(closers, `hoga-3m-${mode}-`, clock);
  const rec: Recording = { seen: new Map(), decisions: [], placed: [], events: [], fills: [] };
  const books = new Map<string, OrderBook>();
  const offBook: string[] = [];
  const { handle } = await startTestRun(
    { client, clock, db },
    {
      runId: `three-modes-${mode}`,
      mode,
      symbols: SYMBOLS,
      cashKrw: PAPER_CASH,
      strategies: [{ strategyClass: observed(rec), config: CONFIG }],
    },
    {
      pollIntervalMs: 200,
      streamIntervals: { candles1m: 600, orderbook: 400 },
      onBook: (symbol, book) => books.set(symbol, book),
      onEvent: (e) => {
        rec.events.push(e);
        if (e.type !== 'OrderFilled' && e.type !== 'OrderPartiallyFilled') return;
        rec.fills.push(e.fill);
        if (mode !== 'paper') return;
        const book = books.get(e.fill.symbol);
        const levels = e.fill.side === 'BUY' ? book?.asks : book?.bids;
        const level = levels?.find((l) => l.price.eq(e.fill.price));
        if (level === undefined || e.fill.quantity.gt(level.volume)) {
          offBook.push(`${e.fill.side} ${e.fill.quantity} ${e.fill.symbol} @ ${e.fill.price}`);
        }
      },
    },
  );
  return { sim, client, clock, db, rec, books, offBook, handle };
}

const ENDS = new Set(['OrderFilled', 'OrderCanceled', 'OrderRejected', 'OrderDenied', 'OrderExpired']);

/** The orders placed that have not reached an end (filled, cancelled, rejected, denied, expired). */
function inFlight(rec: Recording): string[] {
  const ended = new Set(rec.events.filter((e) => ENDS.has(e.type)).map((e) => e.clientOrderId as string));
  return rec.placed.filter((id) => !ended.has(id));
}

const sum = (values: readonly Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));
const signed = (f: Fill) => (f.side === 'BUY' ? f.quantity : f.quantity.neg());

describe('the SMA crossover in backtest, paper and live against the simulator', () => {
  let live: Mode;
  let paper: Mode;
  let initialHoldings: Map<string, Decimal>;

  it('runs live and paper side by side until each traded and has no order in flight', async () => {
    paper = await startMode('paper');
    live = await startMode('live');
    initialHoldings = new Map(
      (await live.client.getHoldings()).items.map((i) => [i.symbol, i.quantity] as const),
    );
    const enough = (m: Mode) =>
      m.rec.fills.length >= 4 &&
      m.rec.decisions.some((d) => d.side === 'SELL') &&
      inFlight(m.rec).length === 0;
    // at most 45 s: what follows checks what the runs did by then
    await waitUntil(() => enough(live) && enough(paper), 45_000);
    await Promise.all([live.handle.stop(), paper.handle.stop()]);
    expect(live.rec.fills.length).toBeGreaterThan(0);
    expect(paper.rec.fills.length).toBeGreaterThan(0);
    // nothing refused: market orders within cash, data kept fresh by the bars at ×60
    const refused = (m: Mode) =>
      m.rec.events.filter((e) => e.type === 'OrderDenied' || e.type === 'OrderRejected');
    expect(refused(live)).toEqual([]);
    expect(refused(paper)).toEqual([]);
  }, 90_000);

  for (const mode of ['live', 'paper'] as const) {
    it(`${mode}: each order is the crossover rule on the bars seen, and those are the broker's candles`, async () => {
      const m = mode === 'live' ? live : paper;
      const expected: Decision[] = [];
      for (const symbol of SYMBOLS) {
        const seen = m.rec.seen.get(symbol) ?? [];
        expect(seen.length).toBeGreaterThan(CONFIG.slow);
        const bars = seen.map((s) => s.bar);
        expect(
          await brokerBars(m.client, symbol, (bars[0] as Bar).ts, (bars[bars.length - 1] as Bar).ts),
        ).toEqual(bars);
        expected.push(...expectedDecisions(symbol, seen));
      }
      const bySymbol = (ds: readonly Decision[]) =>
        [...ds].sort((a, b) => a.symbol.localeCompare(b.symbol) || a.barIndex - b.barIndex);
      expect(m.rec.decisions.length).toBeGreaterThan(0);
      expect(bySymbol(m.rec.decisions)).toEqual(bySymbol(expected));
    });
  }

  it("live: the store's fills per broker order are the broker's executions; positions are its holdings", async () => {
    const { client, db, handle } = live;
    const orders = [
      ...(await client.listOrders({ status: 'CLOSED', limit: 100 })).orders,
      ...(await client.listOrders({ status: 'OPEN' })).orders,
    ].filter((o) => o.execution.filledQuantity.gt(0));
    const stored = db.fills.list();
    expect(stored.length).toBe(live.rec.fills.length);
    const byOrder = new Map<string, typeof stored>();
    for (const f of stored) {
      const list = byOrder.get(f.brokerOrderId ?? '') ?? [];
      list.push(f);
      byOrder.set(f.brokerOrderId ?? '', list);
    }
    expect([...byOrder.keys()].sort()).toEqual(orders.map((o) => o.orderId).sort());
    for (const o of orders) {
      const fills = byOrder.get(o.orderId) ?? [];
      const qty = sum(fills.map((f) => f.quantity));
      const amount = sum(fills.map((f) => f.quantity.times(f.price)));
      expect(qty.toFixed()).toBe(o.execution.filledQuantity.toFixed());
      if (o.execution.filledAmount !== null)
        expect(amount.toFixed()).toBe(o.execution.filledAmount.toFixed());
      expect(sum(fills.map((f) => f.commission)).toFixed()).toBe(
        (o.execution.commission ?? new Decimal(0)).toFixed(),
      );
      expect(sum(fills.map((f) => f.tax ?? new Decimal(0))).toFixed()).toBe(
        (o.execution.tax ?? new Decimal(0)).toFixed(),
      );
    }
    const holdings = new Map((await client.getHoldings()).items.map((i) => [i.symbol, i.quantity] as const));
    for (const symbol of SYMBOLS) {
      const expected = (initialHoldings.get(symbol) ?? new Decimal(0)).plus(
        sum(live.rec.fills.filter((f) => f.symbol === symbol).map(signed)),
      );
      expect((holdings.get(symbol) ?? new Decimal(0)).toFixed()).toBe(expected.toFixed());
      expect((handle.status().positions.get(symbol) ?? new Decimal(0)).toFixed()).toBe(expected.toFixed());
    }
    expect(await handle.manager?.checkPositions()).toEqual([]);
  });

  it('paper: no order request reached the broker; fills are at levels of the books seen; the ledger adds up', () => {
    const counters = paper.sim.counters();
    expect(counters.requestsByGroup.ORDER ?? 0).toBe(0);
    expect(counters.ordersCreated).toBe(0);
    expect(paper.offBook).toEqual([]);
    const fills = paper.rec.fills;
    const cash = PAPER_CASH.plus(
      sum(
        fills.map((f) => {
          const value = f.quantity.times(f.price);
          const charges = f.commission.amount.plus(f.tax?.amount ?? 0);
          return f.side === 'BUY' ? value.plus(charges).neg() : value.minus(charges);
        }),
      ),
    );
    const ledger = paper.db.strategyState.get('paper/_account', 'ledger') as LedgerSnapshot;
    expect(new Decimal(ledger.cash.KRW ?? 0).toFixed()).toBe(cash.toFixed());
    for (const symbol of SYMBOLS) {
      const held = sum(fills.filter((f) => f.symbol === symbol).map(signed));
      expect(new Decimal(ledger.holdings[symbol]?.quantity ?? 0).toFixed()).toBe(held.toFixed());
      expect((paper.handle.status().positions.get(symbol) ?? new Decimal(0)).toFixed()).toBe(held.toFixed());
    }
  });

  it("backtest: over the live window's candles, the trades are the independent computation's", async () => {
    const bars: Bar[] = [];
    for (const symbol of SYMBOLS) {
      const seen = (live.rec.seen.get(symbol) ?? []).map((s) => s.bar);
      bars.push(
        ...(await brokerBars(live.client, symbol, (seen[0] as Bar).ts, (seen[seen.length - 1] as Bar).ts)),
      );
    }
    bars.sort((a, b) => a.closeTime - b.closeTime || a.symbol.localeCompare(b.symbol));
    const expected = expectedSmaTrades(bars, CONFIG);
    expect(expected.length).toBeGreaterThan(0);
    const db = openTempDb(closers, 'hoga-3m-backtest-');
    const startMs = (bars[0] as Bar).ts;
    const outcome = await runBacktest({
      settings: {
        runId: 'three-modes-backtest',
        mode: 'backtest',
        symbols: SYMBOLS,
        interval: '1m',
        cash: { KRW: PAPER_CASH },
      },
      strategies: [{ strategyClass: SmaCrossover, config: CONFIG }],
      startMs,
      // The independent computation fills every market order whole at the next bar's open; the bar
      // model's volume cap would leave an order unfilled on a bar without trades (volume 0).
      volumeFraction: Number.POSITIVE_INFINITY,
      db,
      logger: createLogger({ level: 'silent' }),
      fx: new FixedFxRates(1400),
      openStream: async () => {
        let i = -1;
        return {
          next: () => ++i < bars.length,
          get current() {
            return bars[i] as Bar;
          },
        };
      },
    });
    expect(outcome.status).toBe('completed');
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
  });
});
