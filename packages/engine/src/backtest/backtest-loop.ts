/**
 * The backtest's hot loop: bars in delivery order, each one (1) fires the timers due before it,
 * (2) moves the virtual clock to its close, (3) matches the working orders of its symbol (so an
 * order placed on an earlier bar fills here, never on the bar that produced it), (4) marks the
 * symbol and (5) hands the bar to the strategies that trade it. Numbers only, no allocation per
 * bar; `Decimal` appears where an order or a fill is made.
 *
 * @module
 */
import type { Bar, VirtualClock } from '@hoga/core';
import type { ReferencePrices } from '../market-data/reference-prices.js';
import type { MarkBook } from '../portfolio/mark-book.js';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import type { StrategyHost } from '../runtime/strategy-host.js';
import { sessionShiftOf } from '../venue/session-key.js';
import type { SimulatedVenue } from '../venue/simulated-venue.js';

/** Bars in delivery order: time, then symbol. The current bar may be one object, overwritten. */
export interface BarStream {
  /** Moves to the next bar; false at the end. */
  next(): boolean;
  /** The current bar (valid until the next call of `next`). */
  readonly current: Bar;
}

/** What the loop drives. */
export interface BacktestLoopParts {
  readonly runtime: EngineRuntime;
  readonly clock: VirtualClock;
  readonly venue: SimulatedVenue<Bar>;
  readonly marks: MarkBook;
  readonly portfolio: Portfolio;
  /** Previous closes for the bar fill model's KR price limits (every bar is observed, warm-up too). */
  readonly references?: ReferencePrices | undefined;
}

/** Counts of a finished loop. */
export interface LoopCounts {
  /** Bars delivered from the run's start (warm-up excluded). */
  readonly bars: number;
  /** Warm-up bars delivered. */
  readonly warmupBars: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const DAY_ROLL_SHIFT = HOUR_MS - 30_000;

interface SymbolRoute {
  readonly slot: number;
  /** Strategies that get this symbol's bars (with `onBar`). */
  readonly hosts: StrategyHost[];
  /** Strategies that asked for warm-up bars. */
  readonly warmupHosts: StrategyHost[];
  /** The symbol's first candle stamp of the run: bars stamped before it are warm-up bars. */
  readonly startTs: number;
  /** Shift that makes `floor((t + shift) / day)` the trading-session key (KR: KST date; US: trading date). */
  readonly sessionShift: number;
}

/**
 * Runs bars through the engine until the stream ends or a strategy fails.
 *
 * @param parts - runtime, clock, venue, marks, portfolio
 * @param stream - the bars
 * @param startTs - a symbol's first candle stamp of the run (bars stamped earlier are warm-up bars)
 */
export async function runBacktestLoop(
  parts: BacktestLoopParts,
  stream: BarStream,
  startTs: (symbol: string) => number,
): Promise<LoopCounts> {
  const { runtime, clock, venue, marks, portfolio, references } = parts;
  const routes = new Map<string, SymbolRoute>();
  const timers = runtime.timers;
  let bars = 0;
  let warmupBars = 0;
  let day = Number.NaN;
  let lastTime = Number.NaN;
  while (stream.next()) {
    const bar = stream.current;
    const t = bar.closeTime;
    let route = routes.get(bar.symbol);
    if (route === undefined) {
      route = routeOf(runtime, marks, bar, startTs(bar.symbol));
      routes.set(bar.symbol, route);
    }
    // observed before matching (warm-up bars too): `of(bar)` answers the last close of an earlier
    // day whether or not the bar itself was observed
    references?.observe(bar);
    const warm = bar.ts < route.startTs;
    if (warm) {
      if (route.warmupHosts.length === 0) continue;
      warmupBars++;
    } else {
      bars++;
      // End of a trading day: one equity point. The day rolls at 23:00:30 UTC, after the US
      // after-market's last minute (18:00 New York is 23:00 UTC in winter) and before the KR
      // pre-market's first (08:01 KST is 23:01 UTC): the key is the trading date in both markets.
      const d = Math.floor((t + DAY_ROLL_SHIFT) / DAY_MS);
      if (d !== day) {
        if (!Number.isNaN(lastTime)) portfolio.recordEquity();
        day = d;
      }
      if (timers.nextDue <= t) {
        fireTimers(runtime, clock, t);
        if (runtime.busy) await runtime.settle();
        if (runtime.failure !== null) {
          // a timer's hook failed before this bar: nothing more is matched; the run ends at the timer
          lastTime = clock.nowMs();
          break;
        }
      }
    }
    clock.set(t);
    if (!warm && venue.workingCount > 0) {
      venue.onMarket(bar.symbol, bar, Math.floor((t + route.sessionShift) / DAY_MS));
    }
    marks.values[route.slot] = bar.close;
    const hosts = warm ? route.warmupHosts : route.hosts;
    for (let i = 0; i < hosts.length; i++) {
      const host = hosts[i] as StrategyHost;
      host.isWarmingUp = warm;
      runtime.call(host, 'onBar', bar);
      if (runtime.busy) await runtime.settle();
    }
    // the bar was matched and marked even when a hook failed on it: the clock and the last equity
    // point stay at its time (they went back to the bar before, valuing this bar's fills)
    if (!warm) lastTime = t;
    if (runtime.failure !== null) break;
  }
  if (!Number.isNaN(lastTime)) {
    clock.set(lastTime);
    portfolio.recordEquity();
  }
  for (const host of runtime.hosts) host.isWarmingUp = false;
  return { bars, warmupBars };
}

function routeOf(runtime: EngineRuntime, marks: MarkBook, bar: Bar, startTs: number): SymbolRoute {
  const inUniverse =
    runtime.universe.symbols.includes(bar.symbol) && runtime.universe.interval === bar.interval;
  const subscribed = new Set(
    runtime.subscriptions
      .filter(
        (s) =>
          s.kind === 'bars' &&
          s.symbol === bar.symbol &&
          (s.interval ?? runtime.universe.interval) === bar.interval,
      )
      .map((s) => s.strategyId),
  );
  const hosts = runtime.hosts.filter(
    (h) => (inUniverse || subscribed.has(h.strategyId)) && typeof h.strategy.onBar === 'function',
  );
  return {
    slot: marks.slot(bar.symbol),
    startTs,
    hosts,
    warmupHosts: hosts.filter((h) => (h.strategyClass.warmupBars ?? 0) > 0),
    sessionShift: sessionShiftOf(bar.symbol),
  };
}

function fireTimers(runtime: EngineRuntime, clock: VirtualClock, upTo: number): void {
  for (let timer = runtime.timers.takeDue(upTo); timer !== undefined; timer = runtime.timers.takeDue(upTo)) {
    clock.set(Math.max(timer.due, clock.nowMs()));
    runtime.fireTimer(timer.owner, timer.name, timer.due);
    if (runtime.failure !== null) return;
  }
}
