/**
 * Live and paper runs: the same runtime, portfolio and strategies as a backtest, fed by the
 * connector's streams in (engine-clock) real time. Live sends orders to the broker through the
 * order manager ({@link LiveVenue}); paper sends them to the broker model's simulated venue with
 * the book fill model on the live order books, so no order request ever reaches the broker; both
 * put every command through the broker's rules first (paper: funds from its own ledger). Paper
 * state (cash and holdings) is kept in the store and picked up by the next paper run.
 *
 * @module
 */
import 'reflect-metadata';
import type { OrderBook } from '@hoga/broker-model';
import type { BrokerClient, StreamIntervals } from '@hoga/connector';
import type { Bar, Clock, Currency, Decimal, Logger, OrderEvent } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import type { Subscription } from 'rxjs';
import { BacktestHalts } from '../backtest/backtest-halts.js';
import type { StrategyHookError } from '../engine-error.js';
import type { OrderManager, OrderManagerOptions } from '../orders/order-manager.js';
import type { OrderManagerAlert } from '../orders/order-requests.js';
import { snapshotPositions } from '../orders/reconciliation.js';
import type { FxRates } from '../portfolio/fx-rates.js';
import { MarkBook } from '../portfolio/mark-book.js';
import { forgetOldCalendars } from '../risk/market-calendars.js';
import type { EngineRuntime, StrategySpec } from '../runtime/engine-runtime.js';
import { watchStrayFailures } from '../runtime/stray-failures.js';
import type { RunSettings } from '../runtime/tokens.js';
import { BarDelivery } from './bar-delivery.js';
import { brokerFxRates, type ReadFxRate } from './broker-fx.js';
import { type CancelOnStopResult, cancelOpenOrders } from './cancel-open-orders.js';
import { booksPnl, liveStatus } from './live-status.js';
import { bindModeVenue } from './mode-venue.js';
import { type RunLease, takeRunLease } from './run-lease.js';
import { assembleRunRuntime } from './run-runtime.js';
import { SessionRecord } from './session-record.js';
import { sayFirstReads, sayWarmUp } from './start-progress.js';
import { tellUntoldEvents } from './stored-fills.js';
import { retrackStoredOrders, trackStoredOpenOrders, warnOfAbsentStrategies } from './stored-orders.js';
import { warmUpStrategies } from './warm-up.js';

/** What a live or paper run needs. */
export interface LiveRunOptions {
  /** Mode `live` or `paper`, symbols, interval, paper cash. */
  readonly settings: RunSettings;
  readonly strategies: readonly StrategySpec[];
  readonly client: BrokerClient;
  readonly db: HogaDatabase;
  /** The engine clock (follows the broker's; a scaled clock against a fast simulator). */
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * USD/KRW rates valuing USD in KRW (`ctx.equity()`, the stored session's equity); by default the
   * broker's display rate valid now: read at the start, then followed on the exchange-rate stream
   * (as `LatestFxRates` given here are).
   */
  readonly fx?: FxRates;
  /** Real ms between order polls (live; default 1000). */
  readonly pollIntervalMs?: number;
  /** Real ms between two reads of the broker's account (live; default 10 s; tests set less). */
  readonly accountRefreshMs?: number;
  /** Stream poll intervals (candles, books). */
  readonly streamIntervals?: Partial<StreamIntervals>;
  /** Paper: start from a copy of the real account's holdings and cash (default: `settings.cash`). */
  readonly paperFromAccount?: boolean;
  /** Order manager tunables (live). */
  readonly orderManager?: OrderManagerOptions;
  /** The risk configuration (JSON, `riskConfigSchema`); the defaults when absent. */
  readonly risk?: unknown;
  /** Each order event as the strategies receive it: the venue's, and the risk gate's denials. */
  readonly onEvent?: (event: OrderEvent) => void;
  readonly onAlert?: (alert: OrderManagerAlert) => void;
  readonly onBar?: (bar: Bar) => void;
  /** Paper: each order book handed to the simulated venue, before its working orders match against it. */
  readonly onBook?: (symbol: string, book: OrderBook) => void;
  /** Failed polls and hooks. */
  readonly onError?: (error: unknown, where: string) => void;
  /** The strategy file(s), for the session's stored run. */
  readonly strategyPath?: string | null;
}

/** What the status line shows. */
export interface LiveStatus {
  readonly positions: ReadonlyMap<string, Decimal>;
  readonly openOrders: number;
  readonly fills: number;
  readonly bars: number;
  /** Daily bars completed and waiting for their market's regular open (see `DailyBarGate`). */
  readonly barsWaiting: number;
  /** The orders refused so far (denied by the risk module or rejected by the broker), by code. */
  readonly refused: Readonly<Record<string, number>>;
  /**
   * Per currency, all strategies: the realized PnL (before charges) and the charges of this run, and
   * the unrealized PnL of the strategies' positions now, at the last prices the run saw (a position
   * bought in an earlier run included; one with no price yet counts zero).
   */
  readonly pnl: Readonly<Record<Currency, { realized: Decimal; unrealized: Decimal; charges: Decimal }>>;
  /** The same, of each strategy (by id, in the run's order). */
  readonly pnlByStrategy: ReadonlyMap<
    string,
    Readonly<Record<Currency, { realized: Decimal; unrealized: Decimal; charges: Decimal }>>
  >;
  /** Requests the client made so far and how many were rate-limited (429). */
  readonly requests: number;
  readonly rateLimited: number;
  /** The risk module's trading states (`risk: all ACTIVE`, or each restricted scope with its reason). */
  readonly risk?: string;
}

/** A running live or paper run. */
export interface LiveRunHandle {
  readonly runtime: EngineRuntime;
  /** The order manager (live), or null (paper). */
  readonly manager: OrderManager | null;
  status(): LiveStatus;
  /**
   * Cancels the open orders of the run's strategies (`--cancel-on-stop`): live, every open order
   * the store has of them (not external or manual orders, not another live run's); paper, every
   * open order of the paper venue; each through the risk module as a strategy's `ctx.cancel`, so a
   * cancel the broker's rules refuse (`cancel-restricted`, `order-hours-closed`) is refused in
   * paper too and never sent live. Call before {@link LiveRunHandle.stop}; resolves once the
   * cancels were answered, with what they achieved.
   */
  cancelOpenOrders(): Promise<CancelOnStopResult>;
  /**
   * Resolves with the first failure of a strategy hook (a throw in `onBar`, …, or a promise its
   * code left rejected with no handler, a throw in a callback of its own): from then on no strategy
   * is called, so the caller stops the run (nothing resolves it while the hooks succeed).
   */
  readonly failed: Promise<StrategyHookError>;
  /**
   * Stops the strategies and streams (the bars not yet handed over are dropped, the risk gate's
   * background reads still queued are aborted; the bar being handled finishes), settles the venue,
   * saves paper state.
   */
  stop(): Promise<void>;
  /**
   * Paper: null when the store took all of the account at the stop, else how many order events of
   * the run it is left without (0: the ledger and the open orders only) as it refused the writes
   * to the end (`onError` said why, `paper-store`). Live: null.
   */
  unstoredAtStop(): number | null;
  /**
   * Paper: the paper account's cash in `currency` now, its whole cash (what its open buys hold
   * back included, as a strategy's `ctx.cash` counts its own), to be set beside the strategies'
   * budget: an account an earlier paper run left with less than they were given refuses their buys
   * past it. Live: null.
   */
  paperCash(currency: Currency): Decimal | null;
}

/**
 * Starts a live or paper run: binds the mode's venue, starts the strategies, and feeds them the
 * completed candles of the run's symbols (paper: and the order books to the fill model). A start
 * that fails (a strategy's config or constructor, a failed read of the broker) gives the lease
 * back and stops what it had started before it rejects, so that nothing of it keeps running.
 *
 * @param o - settings, strategies, client, store, clock
 */
export async function startLiveRun(o: LiveRunOptions): Promise<LiveRunHandle> {
  // paper: one run at a time per store; live: each strategy in one process (run-lease.ts); given
  // back when the run stops or fails to start
  const lease = takeRunLease(
    o.db,
    o.settings.mode === 'paper' ? 'paper' : 'live',
    o.strategies.map((s) => s.id ?? s.strategyClass.name),
    o.clock.nowMs(),
  );
  try {
    // the store's calendar rows of days over a year back: read by no run
    forgetOldCalendars(o.db);
    return await startRun(o, lease);
  } catch (error) {
    lease.release();
    throw error;
  }
}

async function startRun(o: LiveRunOptions, lease: RunLease): Promise<LiveRunHandle> {
  const paper = o.settings.mode === 'paper';
  const marks = new MarkBook();
  /** Set once the risk gate exists: successful order polls keep its stale-data monitor fresh. */
  let pollSucceeded: () => void = () => undefined;
  const mode = await bindModeVenue(o, marks, () => pollSucceeded());
  const { manager, liveVenue, paperAccount, brokerAccount } = mode;

  /** Aborted when the run stops: the risk gate's background reads still queued end at once. */
  const halt = new AbortController();
  // the broker's rate valid now unless the caller gave rates; the bar delivery keeps it current,
  // and the risk checks take the same rate (read once, not once more for them)
  let startRate: ReadFxRate | undefined;
  // many symbols take a while to read: said first
  sayFirstReads(o.logger, o.client, o.settings.symbols.length);
  const fx =
    o.fx ??
    (await brokerFxRates(o.client, o.logger, (read) => {
      startRate = read;
    }));
  const { runtime, portfolio, risk, recorder, settleCreates } = await assembleRunRuntime(o, {
    marks,
    mode,
    halt: halt.signal,
    fx,
    ...(startRate === undefined ? {} : { startRate }),
  });
  pollSucceeded = () => risk.module.staleness?.noteOrderPoll();
  // the books open with the fills of earlier runs: the status counts this run's PnL from here
  const atStart = booksPnl(portfolio);

  // the session as a stored run (hoga db runs), its fills appended as they are routed
  let bars: BarDelivery;
  // the daily loss limit's halts of this session, counted as a backtest counts them
  const halts = new BacktestHalts();
  const record = new SessionRecord({
    ...o,
    runtime,
    portfolio,
    now: () => o.clock.nowMs(),
    // read when the session ends: the bar delivery exists by then
    counts: () => ({ refused: recorder.refusals.counts(), halts: halts.counts(), bars: bars.bars }),
  });
  // the session's figures are of its own strategies' orders (its order polls count other
  // strategies' too): its refusals counted by the record's set, as its trades and fills are
  recorder.countOnly(record.own);
  const subscriptions: Subscription[] = [];
  subscriptions.push(risk.module.gateway.changes$.subscribe((change) => halts.note(change)));

  let stopped = false;
  let unstored: number | null = null;
  // a promise the strategies leave rejected (or a throw in a callback of theirs) fails the run as a
  // hook's throw does (`failed` below), where Node would end the process mid-run
  let release: () => Promise<void> = () => Promise.resolve();
  try {
    // Reconcile once the runtime listens: what filled or closed while the engine was down reaches
    // the portfolio and the strategies like any other event.
    if (liveVenue !== null) {
      // its open orders known to each strategy as they stood, so that the events told move them
      trackStoredOpenOrders(o.db, runtime);
      // fills and ends another process made while a strategy was down (its books hold them): told first
      tellUntoldEvents(o.db, runtime, recorder);
      await liveVenue.start();
      retrackStoredOrders(o.db, runtime, risk.module.book);
      // the creates a killed run gave and never sent (their checks still reading): denied, told once
      settleCreates();
    }
    // Paper: the open orders of the last run are worked again, as they stood; the fills a killed
    // run stored and never told, told
    await paperAccount?.restoreOrders(runtime, risk.module.book, () =>
      tellUntoldEvents(o.db, runtime, recorder, 'paper'),
    );
    warnOfAbsentStrategies(o.db, paper ? 'paper' : 'live', runtime, o.logger);

    await brokerAccount?.start();
    release = watchStrayFailures(runtime);
    runtime.callAll('onStart');
    await runtime.settle();
    // the bars before the run's first, to the strategies with `warmupBars` (as a backtest's warm-up)
    const warmUpBars = Math.max(0, ...runtime.hosts.map((h) => h.strategyClass.warmupBars ?? 0));
    sayWarmUp(o.logger, o.client, warmUpBars, o.settings.symbols.length);
    const warmedThrough = await warmUpStrategies(runtime, {
      client: o.client,
      clock: o.clock,
      symbols: o.settings.symbols,
      interval: o.settings.interval,
    });

    bars = new BarDelivery(o, {
      runtime,
      warmedThrough,
      fx,
      marks,
      risk,
      paperAccount,
      subscriptions,
      stopped: () => stopped,
    });
  } catch (error) {
    // a start that fails stops what it set going (the order polls, the risk gate's refresh and
    // reads, the streams): nothing of it keeps the process alive
    halt.abort();
    liveVenue?.stopPolling();
    brokerAccount?.dispose();
    for (const s of subscriptions) s.unsubscribe();
    paperAccount?.detach();
    risk.dispose();
    record.stopDayCheck();
    await release();
    throw error;
  }

  const failed = new Promise<StrategyHookError>((resolve) => runtime.onFailure(resolve));
  return {
    runtime,
    manager,
    failed,
    status: (): LiveStatus =>
      liveStatus(o, {
        mode,
        portfolio,
        fills: record.fills,
        bars,
        refusals: recorder.refusals,
        risk,
        atStart,
      }),
    cancelOpenOrders: (): Promise<CancelOnStopResult> => cancelOpenOrders(o, mode, runtime),
    unstoredAtStop: () => unstored,
    paperCash: (currency) => paperAccount?.ledger.cash(currency) ?? null,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      // the background reads queued at the rate limits end now; what is in flight is answered
      halt.abort();
      await bars.close(); // the timer, daily bars waiting, streams; then the bar being handled
      // paper: what waits for the store, tried once more while the strategies still hear of it
      paperAccount?.flush();
      await runtime.stop(); // onStop, then the venue settles (live: last poll)
      await release(); // what onStop left unhandled is still the run's failure
      for (const s of subscriptions) s.unsubscribe();
      risk.dispose();
      brokerAccount?.dispose();
      paperAccount?.detach();
      unstored = paperAccount?.close() ?? null; // the ledger stored, unless events wait (then said)
      lease.release();
      if (manager !== null) await snapshotPositions(manager);
      record.finish();
    },
  };
}
