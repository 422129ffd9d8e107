/**
 * The backtest's hot loop: bars in delivery order, each one (1) fires the timers due before it,
 * (2) moves the virtual clock to its close, (3) marks the symbol at its close, (4) matches the
 * working orders of its symbol (so an order placed on an earlier bar fills here, never on the bar
 * that produced it; its fill, stamped at the close, sees the positions at that close) and (5)
 * hands the bar to the strategies that trade it. Numbers only, no allocation per
 * bar; `Decimal` appears where an order or a fill is made.
 *
 * @module
 */
import type { Bar, VirtualClock } from '@hoga/core';
import type { ReferencePrices } from '../market-data/reference-prices.js';
import type { MarkBook } from '../portfolio/mark-book.js';
import type { Portfolio } from '../portfolio/portfolio.js';
import type { BarDayPnl } from '../risk/bar-day-pnl.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import type { StrategyHost } from '../runtime/strategy-host.js';
import { SESSION_DAY_SHIFT_MS } from '../stats/equity-stats.js';
import type { SimulatedVenue } from '../venue/simulated-venue.js';
import { routeOf, type SymbolRoute } from './symbol-route.js';

/** Bars in delivery order: time, then symbol. The current bar may be one object, overwritten. */
export interface BarStream {
  /** Moves to the next bar; false at the end. */
  next(): boolean;
  /** The current bar (valid until the next call of `next`). */
  readonly current: Bar;
  /**
   * The current bar's series (the same number for every bar of one symbol and interval), when the
   * stream knows it: the loop then finds the symbol's route by index rather than by name.
   */
  readonly seriesIndex?: number;
  /**
   * How many warm-up bars the series has, when the stream knows it: each strategy then gets the
   * last `warmupBars` of them it asked for (else every strategy with a warm-up gets them all).
   */
  warmupLengthOf?(series: number): number;
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
  /** The positions' PnL of the day for the risk module's daily loss limits: told each bar time and close. */
  readonly dayPnl?: BarDayPnl | undefined;
}

/** Counts of a finished loop. */
export interface LoopCounts {
  /** Bars delivered from the run's start (warm-up excluded). */
  readonly bars: number;
  /** Warm-up bars delivered. */
  readonly warmupBars: number;
  /** Whether the loop stopped at an abort before the bars ended. */
  readonly interrupted: boolean;
}

/**
 * Most bars between two turns of the event loop (a `setImmediate`), which the loop also takes
 * before each trading day's first bar: a strategy whose hooks never await would otherwise keep a
 * signal handler (Ctrl-C) or a timer from running until the last bar, and Node reports a promise
 * the strategies left rejected with no handler only at a turn (`watchStrayFailures`: the run then
 * stops there, before the day's first bar, the same bar in every run). About a hundredth of a
 * second of bars. A bare turn costs some 2 µs (the daily bench of 200 symbols × 20 years takes
 * 5,220 of them); its runs with and without them once differed by about 7 % (the other threads get
 * the core at each turn). Turns every millisecond of run time instead cost a fifth of that, but a
 * failed run then stopped at a bar that depended on the machine's speed.
 */
const BARS_PER_TURN = 16_384;

const DAY_MS = 86_400_000;
/** Where a trading day ends (the stats resample by the same rule). */
const DAY_ROLL_SHIFT = SESSION_DAY_SHIFT_MS;

/**
 * Runs bars through the engine until the stream ends, a strategy fails or `signal` aborts (checked
 * between bars: after a hook that returned a promise, and at a turn of the event loop before each
 * trading day and at least every {@link BARS_PER_TURN} bars).
 *
 * @param parts - runtime, clock, venue, marks, portfolio
 * @param stream - the bars
 * @param startTs - a symbol's first candle stamp of the run (bars stamped earlier are warm-up bars)
 * @param signal - stops the loop before its next bar (the run then ends as it would at the last bar)
 */
export async function runBacktestLoop(
  parts: BacktestLoopParts,
  stream: BarStream,
  startTs: (symbol: string) => number,
  signal?: AbortSignal,
): Promise<LoopCounts> {
  const loop = new BarLoop(parts, stream, startTs);
  let interrupted = false;
  // synchronous bar after bar; back here only to wait for a hook that returned a promise, or for a
  // turn of the event loop
  while (loop.run()) {
    if (loop.turnDue) {
      loop.turnDue = false;
      await new Promise<void>((resolve) => setImmediate(resolve));
      // a promise a strategy left rejected is reported at a turn (`watchStrayFailures`): the bar
      // taken is not started
      if (parts.runtime.failure !== null) break;
    } else await parts.runtime.settle();
    if (signal?.aborted === true) {
      interrupted = true;
      // "after the current bar": the strategies it has not reached yet get it first
      while (loop.deliverRest()) await parts.runtime.settle();
      loop.interrupt();
      break;
    }
  }
  loop.finish();
  return { bars: loop.bars, warmupBars: loop.warmupBars, interrupted };
}

/** Where {@link BarLoop.run} stands within a bar (and resumes after waiting for a hook). */
const Phase = {
  /** Take the next bar. */
  NEXT: 0,
  /** The timers due before the bar fired: stop if one failed, else go on with the bar. */
  AFTER_TIMERS: 1,
  /** Move the clock, match the working orders, mark the symbol. */
  MATCH: 2,
  /** Deliver the bar to the hosts from `hostIndex` on. */
  HOSTS: 3,
  /** Start the bar taken (after the turn of the event loop due before it). */
  BEGIN: 4,
} as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/**
 * The loop's state between bars, in fields rather than in the locals of an async function: the
 * locals of an async function live in a heap context, where every number that is not a small
 * integer (a bar's close time) is boxed anew on each write, 16 bytes per write and bar.
 */
class BarLoop {
  bars = 0;
  warmupBars = 0;
  private readonly routes = new Map<string, SymbolRoute>();
  /** Routes by the stream's series index, when it tells one. */
  private readonly routesBySeries: (SymbolRoute | undefined)[] = [];
  private day = Number.NaN;
  private lastTime = Number.NaN;
  private phase: Phase = Phase.NEXT;
  private bar: Bar | null = null;
  private route: SymbolRoute | null = null;
  private warm = false;
  /** Close time of the current bar. */
  private t = 0;
  private hostIndex = 0;
  /** Bars left before the next turn of the event loop. */
  private untilTurn = BARS_PER_TURN;
  /** The trading day of the last turn of the event loop (a turn is due before another day's first bar). */
  private turnDay = Number.NaN;
  /** Whether {@link BarLoop.run} returned for a turn of the event loop (between two bars). */
  turnDue = false;
  /** Warm-up bars handed over so far, by symbol (warm-up bars only). */
  private readonly warmSeen = new Map<string, number>();
  /** The current warm-up bar's place from the symbol's run start (1: its last warm-up bar; NaN: not known). */
  private warmLeft = Number.NaN;

  constructor(
    private readonly parts: BacktestLoopParts,
    private readonly stream: BarStream,
    private readonly startTs: (symbol: string) => number,
  ) {
    this.runStart = parts.clock.nowMs();
    // a strategy's bars subscribed to or ended after onStart: the symbol's route is made again at
    // its next bar (before, a second strategy's later subscription to bars another had loaded got
    // none once the first of them was delivered)
    this.unlisten = parts.runtime.subscriptionBook.listen((_, s) => {
      if (s.kind === 'bars') this.forget(s.symbol);
    });
  }

  /** Stops following the subscriptions. */
  private readonly unlisten: () => void;

  /** Drops the symbol's route: made again from the subscriptions at its next bar. */
  private forget(symbol: string): void {
    const route = this.routes.get(symbol);
    if (route === undefined) return;
    this.routes.delete(symbol);
    for (let i = 0; i < this.routesBySeries.length; i++)
      if (this.routesBySeries[i] === route) this.routesBySeries[i] = undefined;
  }

  /** The run's start (the clock when the loop begins): timers fire from there on, warm-up bars or not. */
  private readonly runStart: number;

  /**
   * Runs bars until the stream ends or a strategy fails (false), or until a hook returned a promise
   * the caller must wait for before calling again, or a turn of the event loop is due
   * ({@link BarLoop.turnDue}) (true).
   */
  run(): boolean {
    const { runtime, clock, venue, marks, dayPnl } = this.parts;
    const stream = this.stream;
    for (;;) {
      if (this.phase === Phase.NEXT) {
        if (!stream.next()) return false;
        const day = Math.floor((stream.current.closeTime + DAY_ROLL_SHIFT) / DAY_MS);
        if (--this.untilTurn === 0 || day !== this.turnDay) {
          this.untilTurn = BARS_PER_TURN;
          this.turnDay = day;
          this.turnDue = true;
          this.phase = Phase.BEGIN;
          return true;
        }
        if (!this.begin(stream.current)) continue;
      } else if (this.phase === Phase.BEGIN && !this.begin(stream.current)) continue;
      if (this.phase === Phase.AFTER_TIMERS) {
        if (runtime.busy) return true;
        if (this.stoppedByTimer()) return false;
        this.phase = Phase.MATCH;
      }
      const bar = this.bar as Bar;
      const route = this.route as SymbolRoute;
      const warm = this.warm;
      if (this.phase === Phase.MATCH) {
        // the DAY orders (of any symbol) whose trading day ended before this bar end there, the
        // clock at their end while the strategies hear of it
        if (!warm) venue.expireDayOrdersBefore(this.t, clock);
        clock.set(this.t);
        // marked before its fills: at the bar's close, where they are stamped, its close is the
        // symbol's last price (before, a fill's hooks valued the positions at the previous close)
        marks.values[route.slot] = bar.close;
        if (!warm && route.working.length > 0) {
          venue.onMarket(bar.symbol, bar, Math.floor((this.t + route.sessionShift) / DAY_MS));
        }
        dayPnl?.moved(route.slot, bar.close);
        this.hostIndex = 0;
        this.phase = Phase.HOSTS;
      }
      if (this.deliverFrom(warm ? route.warmupHosts : route.hosts, bar, warm)) return true;
      // the bar was matched and marked even when a hook failed on it: the clock and the last equity
      // point stay at its time (they went back to the bar before, valuing this bar's fills)
      if (!warm) this.lastTime = this.t;
      this.phase = Phase.NEXT;
      if (runtime.failure !== null) return false;
    }
  }

  /**
   * Starts a bar: its route, the reference prices, the counts, the day's equity point and the timers
   * due before it (the phase is then `AFTER_TIMERS`, else `MATCH`). False when the bar is skipped
   * (warm-up nobody asked for).
   */
  private begin(bar: Bar): boolean {
    const { runtime, clock, portfolio } = this.parts;
    const t = bar.closeTime;
    const series = this.stream.seriesIndex ?? -1;
    let route = series >= 0 ? this.routesBySeries[series] : this.routes.get(bar.symbol);
    if (route === undefined) {
      route = this.routes.get(bar.symbol) ?? routeOf(this.parts, bar, this.startTs(bar.symbol));
      this.routes.set(bar.symbol, route);
      if (series >= 0) this.routesBySeries[series] = route;
    }
    // observed before matching (warm-up bars too): `of(bar)` answers an earlier day's regular
    // close whether or not the bar itself was observed
    route.reference?.observe(bar);
    const warm = bar.ts < route.startTs;
    this.bar = bar;
    this.route = route;
    this.warm = warm;
    this.t = t;
    this.phase = Phase.MATCH;
    if (warm) {
      const seen = (this.warmSeen.get(bar.symbol) ?? 0) + 1;
      this.warmSeen.set(bar.symbol, seen);
      this.warmLeft = (this.stream.warmupLengthOf?.(series) ?? Number.NaN) - seen + 1;
      // A warm-up bar closing after the run's start (a US symbol's bars of the previous New York
      // day, in a run whose KR day began at 00:00 KST) fires the timers due by then first, at their
      // time: before, such bars moved the clock past them, and they fired hours late, at once.
      const timersDue = t > this.runStart && runtime.timers.nextDue <= t;
      if (route.warmupHosts.length > 0) this.warmupBars++;
      else if (!timersDue) {
        this.phase = Phase.NEXT;
        return false;
      }
      if (timersDue) {
        fireTimers(runtime, clock, t, this.parts.venue);
        this.phase = Phase.AFTER_TIMERS;
      }
      return true;
    }
    this.bars++;
    // the daily loss limits as the last bar time left them (a new day is counted from its first close)
    this.parts.dayPnl?.time(t);
    // End of a trading day: one equity point. The day rolls at 23:00:30 UTC, after the US
    // after-market's last minute (18:00 New York is 23:00 UTC in winter) and before the KR
    // pre-market's first (08:01 KST is 23:01 UTC): the key is the trading date in both markets.
    const d = Math.floor((t + DAY_ROLL_SHIFT) / DAY_MS);
    if (d !== this.day) {
      if (!Number.isNaN(this.lastTime)) portfolio.recordEquity();
      this.day = d;
    }
    if (runtime.timers.nextDue <= t) {
      fireTimers(runtime, clock, t, this.parts.venue);
      this.phase = Phase.AFTER_TIMERS;
    }
    return true;
  }

  /**
   * After the timers before the bar: a failed one ends the run at the timer, with nothing matched
   * (the bar, counted when it began, was not delivered: it is not counted).
   */
  private stoppedByTimer(): boolean {
    if (this.parts.runtime.failure === null) return false;
    this.endAtTimer();
    return true;
  }

  /** Ends the run at the timers before the bar: the bar, counted when it began, is not counted. */
  private endAtTimer(): void {
    if (!this.warm) this.bars--;
    else if ((this.route?.warmupHosts.length ?? 0) > 0) this.warmupBars--;
    this.lastTime = this.parts.clock.nowMs();
    this.phase = Phase.NEXT;
  }

  /**
   * Hands `bar` to `hosts` from `hostIndex` on (a failed hook stops the others: `runtime.call`
   * calls none after it); true while a hook's promise is awaited.
   */
  private deliverFrom(hosts: readonly StrategyHost[], bar: Bar, warm: boolean): boolean {
    const runtime = this.parts.runtime;
    while (this.hostIndex < hosts.length) {
      const host = hosts[this.hostIndex++] as StrategyHost;
      // each strategy gets the last `warmupBars` warm-up bars it asked for, not the most any
      // strategy of the run asked for (before, its warm-up changed when another joined the run)
      if (warm && (host.strategyClass.warmupBars ?? 0) < this.warmLeft) continue;
      host.isWarmingUp = warm;
      runtime.call(host, 'onBar', bar);
      if (runtime.busy) return true;
    }
    return false;
  }

  /** The bar under way to the strategies it has not reached; true while a hook's promise is awaited. */
  deliverRest(): boolean {
    if (this.phase !== Phase.HOSTS) return false;
    const route = this.route as SymbolRoute;
    return this.deliverFrom(this.warm ? route.warmupHosts : route.hosts, this.bar as Bar, this.warm);
  }

  /**
   * An abort after an awaited hook: a bar delivered (matched, its fills at its close) ends the run at
   * its close (before: at the bar before, the clock going back); one whose timers fired, not delivered,
   * is not counted, as in {@link stoppedByTimer}.
   */
  interrupt(): void {
    if (this.phase === Phase.AFTER_TIMERS) {
      this.endAtTimer();
      return;
    }
    if (this.phase === Phase.HOSTS && !this.warm) this.lastTime = this.t;
    this.phase = Phase.NEXT;
  }

  /** The last equity point, at the last bar's time (or the failed timer's), and warm-up off. */
  finish(): void {
    this.unlisten();
    const { runtime, clock, portfolio } = this.parts;
    if (!Number.isNaN(this.lastTime)) {
      clock.set(this.lastTime);
      portfolio.recordEquity();
    }
    for (const host of runtime.hosts) host.isWarmingUp = false;
  }
}

function fireTimers(
  runtime: EngineRuntime,
  clock: VirtualClock,
  upTo: number,
  venue: SimulatedVenue<Bar>,
): void {
  // the run has started: a timer's hook is not warm-up (before, one due right after the last
  // warm-up bar saw `isWarmingUp` still true, and its orders were denied `warm-up`)
  for (const host of runtime.hosts) host.isWarmingUp = false;
  for (let timer = runtime.timers.takeDue(upTo); timer !== undefined; timer = runtime.timers.takeDue(upTo)) {
    // a timer after the end of a DAY order's trading day sees it ended, as paper and live do (the
    // strategies hear of it with the clock at its end)
    venue.expireDayOrdersBefore(timer.due, clock);
    clock.set(Math.max(timer.due, clock.nowMs()));
    runtime.fireTimer(timer.owner, timer.name, timer.due);
    if (runtime.failure !== null) return;
  }
}
