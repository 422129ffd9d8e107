/**
 * One backtest run: a container with the backtest module, the strategies added (configs validated
 * first), `onStart`, the bar loop, `onStop`, and the run's trades, equity curve, totals and
 * statistics. What the run stores (its journal of orders and, when asked, the run with its trades,
 * equity curve and statistics) goes through the store's `RunJournalWriter`: a worker thread writes
 * it while the bars go on, and the run ends once every row is committed.
 *
 * @module
 */
import 'reflect-metadata';
import type { Bar, Currency, Decimal, Instrument, Logger, OrderSide, VirtualClock } from '@hoga/core';
import { type HogaDatabase, RunJournalWriter } from '@hoga/store';
import { Container } from 'inversify';
import type { StrategyHookError } from '../engine-error.js';
import { ReferencePrices } from '../market-data/reference-prices.js';
import type { FxRates } from '../portfolio/fx-rates.js';
import { MarkBook } from '../portfolio/mark-book.js';
import { type EquityPoint, Portfolio, portfolioTotals } from '../portfolio/portfolio.js';
import type { CurrencyTotals } from '../portfolio/strategy-book.js';
import { BarDayPnl } from '../risk/bar-day-pnl.js';
import { allocateCash, unallocatedCash } from '../runtime/cash-allocation.js';
import { EngineRuntime, type StrategySpec, type Subscription } from '../runtime/engine-runtime.js';
import { watchStrayFailures } from '../runtime/stray-failures.js';
import { ClockToken, type RunSettings } from '../runtime/tokens.js';
import { type PerformanceStats, performanceStats } from '../stats/performance-stats.js';
import { type StrategyStats, strategyStats } from '../stats/strategy-stats.js';
import { usdCashFx } from '../stats/usd-cash-fx.js';
import { OrderSummaryRecorder } from '../store/order-summary-recorder.js';
import type { SimulatedVenue } from '../venue/simulated-venue.js';
import { BacktestHalts } from './backtest-halts.js';
import { type BarStream, runBacktestLoop } from './backtest-loop.js';
import { BacktestSymbols, BacktestVenue, backtestModule } from './backtest-module.js';
import { BacktestRunStore } from './backtest-run-store.js';
import { sayOpenAtEnd } from './open-at-end.js';
import { TradeLog } from './trade-log.js';

/** One fill of a backtest, as reported and stored. */
export interface BacktestTrade {
  /** Execution time, epoch ms. */
  readonly time: number;
  readonly strategyId: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly currency: Currency;
  readonly commission: Decimal;
  readonly tax: Decimal;
}

/** What {@link runBacktest} needs. */
export interface BacktestOptions {
  readonly settings: RunSettings;
  readonly strategies: readonly StrategySpec[];
  /** The run's first instant (epoch ms): the clock's start and the equity curve's first point. */
  readonly startMs: number;
  /** A symbol's first candle stamp of the run (bars stamped earlier are warm-up); default `startMs`. */
  readonly startTs?: ((symbol: string) => number) | undefined;
  /**
   * The run's virtual clock, when the caller reads it too (a logger stamping records with the
   * backtest's time); default: a new one. It is set to `startMs` before the first hook.
   */
  readonly clock?: VirtualClock | undefined;
  readonly db: HogaDatabase;
  readonly logger: Logger;
  readonly fx: FxRates;
  /** Share of a bar's volume one order may fill (the bar model's default when omitted). */
  readonly volumeFraction?: number | undefined;
  /**
   * The instruments of the symbols with their real security type (KR ETF/ETN: 5-won ticks, no sell
   * tax); a symbol missing here is taken for a stock.
   */
  readonly instruments?: ReadonlyMap<string, Instrument> | undefined;
  /**
   * The risk configuration (JSON as `riskConfigSchema` reads it, or parsed), as live and paper
   * runs take it; the defaults when absent.
   */
  readonly risk?: unknown;
  /**
   * Store the run under its run id (`hoga db runs`): its row is written before the first hook
   * (status `running`), each fill as it happens, and at the end its equity curve, statistics and
   * status (`completed`, `failed` or `stopped`). Without it only the journal of orders is stored.
   */
  readonly record?: BacktestRecord | undefined;
  /**
   * Stops the run before its next bar (Ctrl-C): the strategies' `onStop` runs, and the run ends
   * with status `stopped` and what it did so far (stored so when it has a record).
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Each symbol's last daily bar closed by the run's start (`priorDailyBars` of the candle cache),
   * asked for the run's symbols before `onStart` and for those whose bars the strategies subscribed
   * to in `onStart` once the stream opened: the symbol's last price before its first bar, as paper
   * and live read the broker's at their start. Its close marks the symbol (an order placed in
   * `onStart` is valued at it, a market buy's funds and a strategy's own cash too), and a KR one's is
   * the first day's reference for the daily price limits. Without it, a symbol has no price until
   * its first bar, and no limits on its first day.
   */
  readonly priorBars?: ((symbols: readonly string[]) => readonly Bar[]) | undefined;
  /**
   * Opens the bars once the strategies have started (so bars they subscribed to in `onStart` can
   * be loaded too). Called with the extra subscriptions, the most warm-up bars any asked for, and
   * {@link BacktestOptions.signal}: a download it aborts (rejecting) stops the run before its first
   * bar, as `stopped`.
   */
  openStream(extra: readonly Subscription[], warmupBars: number, signal?: AbortSignal): Promise<BarStream>;
}

/** What a stored backtest run is stored with (see {@link BacktestOptions.record}). */
export interface BacktestRecord {
  /** The strategy file, when loaded from one. */
  readonly strategyPath: string | null;
  readonly strategyName: string;
  /** The run's parameters (config, symbols, interval, range, cash …), JSON-serialisable. */
  readonly params: unknown;
  /** Wall-clock start and end of the run, epoch ms (the engine reads no wall clock itself). */
  readonly startedAt: number;
  readonly endedAt: () => number;
}

/** What a backtest produced. */
export interface BacktestOutcome {
  readonly runId: string;
  /**
   * `completed`; `failed` when a strategy hook threw, or its code left a promise rejected with no
   * handler or threw in a callback of its own (see {@link BacktestOutcome.failure}); `stopped`
   * when {@link BacktestOptions.signal} aborted it before the bars ended.
   */
  readonly status: 'completed' | 'failed' | 'stopped';
  readonly failure: StrategyHookError | null;
  /** Bars delivered from the start (warm-up excluded). */
  readonly bars: number;
  readonly warmupBars: number;
  /** Every fill, in the order they happened. */
  readonly trades: readonly BacktestTrade[];
  /** The orders refused, denied before the venue or rejected by it, by the refusal's code (codes sorted). */
  readonly refused: Readonly<Record<string, number>>;
  /** The daily loss limit's halts, by scope (`strategy:<id>`, `account`; scopes sorted). */
  readonly halts: Readonly<Record<string, number>>;
  /** Total equity in KRW: the start, then one point per trading day. */
  readonly equity: readonly EquityPoint[];
  /**
   * Of the net profit (end equity less start equity), what the USD/KRW rate's moves made on the
   * USD cash, in KRW (not rounded; 0 with `--usd-krw` or no dollars): `usdCashFx` of
   * `stats/usd-cash-fx.ts`.
   */
  readonly fxOnUsdCash: number;
  /** Per currency: cash, realized PnL (before charges), commissions and taxes of all strategies. */
  readonly totals: Readonly<Record<Currency, CurrencyTotals>>;
  /** The run's statistics (from its equity curve and trades). */
  readonly stats: PerformanceStats;
  /**
   * Each strategy's part (its fills, round trips and win rate; its book's realized PnL,
   * commissions and taxes in each currency of the run's trades), in the order the strategies were
   * given. No equity per strategy: the cash is the account's.
   */
  readonly byStrategy: readonly StrategyStats[];
}

/**
 * Runs a backtest.
 *
 * @param options - settings, strategies, store, bars
 * @throws {@link StrategyConfigError} before anything runs when a config is invalid
 * @throws {@link StoreError} when the run's rows could not be stored (a stored run is then `failed`)
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestOutcome> {
  const writer = RunJournalWriter.open(options.db, {
    mode: 'backtest',
    runId: options.record === undefined ? null : options.settings.runId,
    // the rows wait for the engine's thread, the run's critical path, and are all written at the end
    background: true,
  });
  let outcome: BacktestOutcome;
  try {
    outcome = await runWith(options, writer);
  } catch (error) {
    await writer.close().catch(() => undefined);
    throw error;
  }
  // every row committed (or the writer's failure thrown) before the run is reported
  await writer.close();
  return outcome;
}

async function runWith(options: BacktestOptions, writer: RunJournalWriter): Promise<BacktestOutcome> {
  const container = new Container();
  container.load(
    backtestModule({
      settings: options.settings,
      db: options.db,
      writer,
      logger: options.logger,
      fx: options.fx,
      volumeFraction: options.volumeFraction,
      start: options.startMs,
      clock: options.clock,
      instruments: options.instruments,
      risk: options.risk,
    }),
  );
  const runtime = container.get(EngineRuntime);
  const clock = container.get<VirtualClock>(ClockToken);
  const portfolio = container.get<Portfolio>(Portfolio);
  const venue = container.get<SimulatedVenue<Bar>>(BacktestVenue);
  const marks = container.get(MarkBook);
  const references = container.get(ReferencePrices);
  const allocated = allocateCash(options.settings.cash, options.strategies);
  for (const spec of allocated) runtime.addStrategy(spec);
  // the won or cent the strategies' shares leave over is the account's, and in its equity
  const unallocated = unallocatedCash(options.settings.cash, allocated);
  portfolio.holdUnallocatedCash(unallocated);

  const runId = options.settings.runId;
  const stored =
    options.record === undefined ? null : new BacktestRunStore(options.db, writer, runId, options.record);
  // the stored run's trades are written by the journal writer from the fills it journals
  const log = new TradeLog();
  runtime.onFillRouted((fill, event) => log.add(fill, event.strategyId ?? ''));

  let bars = 0;
  let warmupBars = 0;
  let interrupted = false;
  // a promise the strategies leave rejected (or a throw in a callback of theirs) fails the run as a
  // hook's throw does, where Node would end the process
  const release = watchStrayFailures(runtime);
  try {
    try {
      // orders placed in onStart for a symbol with no bars so far are denied as later ones are
      const universe = new Set(options.settings.symbols);
      const backtestSymbols = container.get(BacktestSymbols);
      backtestSymbols.starting = (symbol) =>
        universe.has(symbol) ||
        runtime.subscriptionBook.list.some((s) => s.kind === 'bars' && s.symbol === symbol);
      // the symbols' last prices before their first bars, as paper and live have the broker's
      seedPriorBars(options.priorBars?.(options.settings.symbols) ?? [], marks, references);
      // an order placed in onStart for a symbol subscribed to there waits for its last close
      if (options.priorBars !== undefined) backtestSymbols.priced = (symbol) => universe.has(symbol);
      runtime.callAll('onStart');
      await runtime.settleHooks();
      if (runtime.failure === null) {
        const warmup = Math.max(0, ...runtime.hosts.map((h) => h.strategyClass.warmupBars ?? 0));
        let stream: BarStream | null = null;
        try {
          stream = await options.openStream([...runtime.subscriptionBook.list], warmup, options.signal);
        } catch (error) {
          // Ctrl-C while the bars subscribed to in onStart download: stopped before the first bar
          if (options.signal?.aborted !== true) throw error;
          interrupted = true;
        }
        // orders for symbols with no bars are denied from here on (nothing could fill them)
        const known = new Set([
          ...options.settings.symbols,
          ...runtime.subscriptionBook.list.filter((s) => s.kind === 'bars').map((s) => s.symbol),
        ]);
        container.get(BacktestSymbols).known = known;
        const subscribed = [...known].filter((symbol) => !universe.has(symbol));
        if (subscribed.length > 0) seedPriorBars(options.priorBars?.(subscribed) ?? [], marks, references);
        // a later subscription to the bars of another symbol delivers none: said at the call
        runtime.barsLoaded = known;
        clock.set(options.startMs);
        // the orders onStart placed for the symbols it subscribed to, judged at their last closes
        backtestSymbols.pricesSeeded();
        await runtime.settle();
        portfolio.recordEquity();
        // (a stray failure of onStart is reported while the bars download)
        if (stream !== null && runtime.failure === null) {
          const counts = await runBacktestLoop(
            { runtime, clock, venue, marks, portfolio, references, dayPnl: container.get(BarDayPnl) },
            stream,
            options.startTs ?? (() => options.startMs),
            options.signal,
          );
          bars = counts.bars;
          warmupBars = counts.warmupBars;
          interrupted = counts.interrupted;
          // a DAY order whose day ended with the last bar (a KR minute run to 20:00) ends there,
          // before onStop: no later bar comes to end it (before, it was left "still working")
          if (runtime.failure === null) {
            // the daily loss limits after the last bar, before its DAY orders end (a halt cancels them)
            container.get(BarDayPnl).end();
            venue.expireDayOrdersBefore(clock.nowMs() + 1, clock);
            await runtime.settle();
          }
        }
      }
    } finally {
      // (a run that ends before its bars open judges them too: runtime.stop waits for them)
      container.get(BacktestSymbols).pricesSeeded();
      await runtime.stop();
      // what the last bars or onStop left unhandled is still the run's
      await release();
      container.get(BacktestHalts).summarise();
    }
  } catch (error) {
    await release();
    await stored?.abandon(error);
    throw error;
  }
  sayOpenAtEnd(
    options.logger,
    venue
      .workingSymbols()
      .flatMap((symbol) => venue.workingOf(symbol))
      .sort((a, b) => a.acceptedAt - b.acceptedAt),
  );
  // nothing is recorded after the stop: the writer commits its last rows while the trades and
  // statistics are made here (`finish` and the caller wait for the same close)
  writer.close().catch(() => undefined);
  const equity = portfolio.equityCurve();
  const trades = log.trades();
  const stats = performanceStats(equity, trades);
  const outcome: BacktestOutcome = {
    runId,
    status: runtime.failure !== null ? 'failed' : interrupted ? 'stopped' : 'completed',
    failure: runtime.failure,
    bars,
    warmupBars,
    trades,
    refused: container.get(OrderSummaryRecorder).refusals.counts(),
    halts: container.get(BacktestHalts).counts(),
    equity,
    // once, at the end, from the fills and the rates the curve valued the dollars at
    fxOnUsdCash:
      equity.length === 0
        ? 0
        : usdCashFx(
            // the USD cash the books start with: every strategy's and the account's
            [...allocated.map((s) => (s.cash ?? options.settings.cash).USD), unallocated.USD],
            trades,
            (equity[0] as EquityPoint).time,
            (equity[equity.length - 1] as EquityPoint).time,
            options.fx,
          ),
    totals: {
      KRW: portfolioTotals(portfolio, 'KRW'),
      USD: portfolioTotals(portfolio, 'USD'),
    },
    stats,
    // once, at the end: the run's currencies, each strategy's fills and book
    byStrategy: strategyStats(
      runtime.hosts.map((h) => h.strategyId),
      trades,
      Object.keys(stats.commissions).sort(),
      (id, currency) => ({
        ...portfolio.book(id).totals(currency as Currency),
        unrealizedPnl: portfolio.unrealizedPnl(id, currency as Currency),
      }),
      stats,
    ),
  };
  await stored?.finish({
    status: outcome.status,
    equity,
    stats: outcome.stats,
    fxOnUsdCash: outcome.fxOnUsdCash,
    byStrategy: outcome.byStrategy,
    refused: outcome.refused,
    halts: outcome.halts,
    bars,
    failure: outcome.failure === null ? null : outcome.failure.message,
  });
  return outcome;
}

/** Marks each bar's symbol at its close and records it as the symbol's last day (KR: its reference). */
function seedPriorBars(bars: readonly Bar[], marks: MarkBook, references: ReferencePrices): void {
  for (const bar of bars) {
    marks.set(bar.symbol, bar.close);
    references.observe(bar);
  }
}
