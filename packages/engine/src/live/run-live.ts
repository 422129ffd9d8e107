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
import { Ledger, type OrderBook } from '@hoga/broker-model';
import {
  type BrokerClient,
  BrokerStreams,
  type CandleInterval,
  candleToBar,
  type StreamIntervals,
} from '@hoga/connector';
import {
  type Bar,
  type ClientOrderId,
  type Clock,
  type Currency,
  type Decimal,
  type Instrument,
  instrumentOf,
  type Logger,
  type OrderEvent,
  type StrategyId,
} from '@hoga/core';
import { type HogaDatabase, orderFromIntent } from '@hoga/store';
import { Container } from 'inversify';
import { filter, type Subscription } from 'rxjs';
import type { StrategyHookError } from '../engine-error.js';
import { OrderManager, type OrderManagerOptions } from '../orders/order-manager.js';
import type { OrderManagerAlert } from '../orders/order-requests.js';
import { AccountViewToken, LedgerAccountView } from '../portfolio/account-view.js';
import { FxRates } from '../portfolio/fx-rates.js';
import { MarkBook } from '../portfolio/mark-book.js';
import { Portfolio, portfolioTotals, StrategyPortfolio } from '../portfolio/portfolio.js';
import { logPriorCloses } from '../risk/prior-closes.js';
import { RiskGate } from '../risk/risk-gate.js';
import { createRiskGateBinding } from '../risk/risk-gate-factory.js';
import { allocateCash } from '../runtime/cash-allocation.js';
import { EngineRuntime, type StrategySpec } from '../runtime/engine-runtime.js';
import { OrderIdFactory, RandomOrderIds } from '../runtime/order-ids.js';
import { RefusalTally } from '../runtime/refusal-tally.js';
import { TimerQueue } from '../runtime/timer-queue.js';
import { ClockToken, DatabaseToken, InstrumentsToken, LoggerToken, RunSettings } from '../runtime/tokens.js';
import { EventRecorder, JournalRecorder } from '../store/event-recorder.js';
import { DatabaseStrategyStateStore, StrategyStateStore } from '../store/strategy-state-store.js';
import { ExecutionVenue } from '../venue/execution-venue.js';
import { DailyBarGate } from './daily-bar-gate.js';
import { haltable } from './haltable-broker.js';
import { LiveVenue } from './live-venue.js';
import { MarketSubscriptions } from './market-subscriptions.js';
import { PaperAccount } from './paper-account.js';
import { paperBrokerView } from './paper-broker-view.js';
import { type RunLease, takeRunLease } from './run-lease.js';
import { SessionRecord } from './session-record.js';
import { bookStoredFills } from './stored-fills.js';
import { retrackStoredOrders, warnOfAbsentStrategies } from './stored-orders.js';

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
  readonly fx: FxRates;
  /** Real ms between order polls (live; default 1000). */
  readonly pollIntervalMs?: number;
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
  /** Realized PnL (before charges) and charges per currency, all strategies. */
  readonly pnl: Readonly<Record<Currency, { realized: Decimal; charges: Decimal }>>;
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
   * Cancels the open orders of the run's strategies (`--cancel-on-stop`): live, every open order of
   * the store's own (not external) orders through the order manager; paper, every open order of
   * the paper venue. Call before {@link LiveRunHandle.stop}; resolves once the cancels were handed over.
   */
  cancelOpenOrders(): Promise<number>;
  /**
   * Resolves with the first failure of a strategy hook (a throw in `onBar`, …): from then on no
   * strategy is called, so the caller stops the run (nothing resolves it while the hooks succeed).
   */
  readonly failed: Promise<StrategyHookError>;
  /**
   * Stops the strategies and streams (the bars not yet handed over are dropped, the risk gate's
   * background reads still queued are aborted; the bar being handled finishes), settles the venue,
   * saves paper state.
   */
  stop(): Promise<void>;
}

/** Store states of an order that may still be working at the broker. */
const OPEN_STATES = new Set(['SUBMITTED', 'ACCEPTED', 'PARTIALLY_FILLED']);
/**
 * Starts a live or paper run: binds the mode's venue, starts the strategies, and feeds them the
 * completed candles of the run's symbols (paper: and the order books to the fill model).
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
    return await startRun(o, lease);
  } catch (error) {
    lease.release();
    throw error;
  }
}

async function startRun(o: LiveRunOptions, lease: RunLease): Promise<LiveRunHandle> {
  const paper = o.settings.mode === 'paper';
  const marks = new MarkBook();
  let manager: OrderManager | null = null;
  let venue: ExecutionVenue;
  let liveVenue: LiveVenue | null = null;
  let paperAccount: PaperAccount | null = null;
  let ledger: Ledger;
  /** Set once the risk gate exists: successful order polls keep its stale-data monitor fresh. */
  let pollSucceeded: () => void = () => undefined;
  if (paper) {
    paperAccount = await PaperAccount.open(o, marks);
    ledger = paperAccount.ledger;
    venue = paperAccount.venue;
  } else {
    manager = new OrderManager(o.client, o.db, o.clock, {
      ...o.orderManager,
      onCheckpointError: (e) => o.onError?.(e, 'store-checkpoint'),
    });
    liveVenue = new LiveVenue(manager, {
      ...(o.pollIntervalMs === undefined ? {} : { pollIntervalMs: o.pollIntervalMs }),
      onPollError: (e) => o.onError?.(e, 'order-poll'),
      onPollSuccess: () => pollSucceeded(),
    });
    if (o.onAlert !== undefined) manager.alerts$.subscribe(o.onAlert);
    const holdings = await o.client.getHoldings();
    ledger = new Ledger(
      {},
      new Map(
        holdings.items.map((i) => [i.symbol, { quantity: i.quantity, averagePrice: i.averagePurchasePrice }]),
      ),
    );
    venue = liveVenue;
  }

  /** Aborted when the run stops: the risk gate's background reads still queued end at once. */
  const halt = new AbortController();
  const container = new Container();
  container.bind(RunSettings).toConstantValue(o.settings);
  container.bind(ClockToken).toConstantValue(o.clock);
  container.bind(LoggerToken).toConstantValue(o.logger);
  container.bind(DatabaseToken).toConstantValue(o.db);
  container.bind(FxRates).toConstantValue(o.fx);
  container.bind(MarkBook).toConstantValue(marks);
  container.bind(TimerQueue).toSelf().inSingletonScope();
  // The risk module judges the broker's rules against the broker's market data and, for funds,
  // the broker's account (live) or the paper ledger (paper), so paper refuses what live would.
  const risk = createRiskGateBinding({
    clock: o.clock,
    config: o.risk,
    db: o.db,
    mode: o.settings.mode,
    venue,
    broker: haltable(paper ? paperBrokerView(o.client, ledger) : o.client, halt.signal),
    symbols: o.settings.symbols,
    watchStaleness: !paper,
  });
  pollSucceeded = () => risk.module.staleness?.noteOrderPoll();
  logPriorCloses(o.logger, await risk.start());
  container.bind(RiskGate).toConstantValue(risk.gate);
  // the intents name the instruments as the broker lists them (the risk gate read their stock info)
  const listed = new Map<string, Instrument>();
  container.bind(InstrumentsToken).toConstantValue((symbol: string) => {
    const type = risk.module.market?.instrument(symbol)?.securityType;
    if (type === undefined) return undefined;
    let instrument = listed.get(symbol);
    if (instrument?.securityType !== type) {
      instrument = instrumentOf(symbol, type);
      listed.set(symbol, instrument);
    }
    return instrument;
  });
  container.bind(Portfolio).to(StrategyPortfolio).inSingletonScope();
  container.bind(OrderIdFactory).toConstantValue(new RandomOrderIds());
  container.bind(ExecutionVenue).toConstantValue(venue);
  container.bind(AccountViewToken).toConstantValue(new LedgerAccountView(ledger));
  // Every event the runtime routes to the strategies (the venue's, and the risk gate's denials,
  // which never reach the venue) is journalled and handed to `onEvent`.
  const journal = new JournalRecorder(o.db, o.settings.mode);
  const refusals = new RefusalTally();
  const recorder: EventRecorder = {
    record(event) {
      journal.record(event);
      refusals.note(event);
      o.onEvent?.(event);
    },
    flush: () => journal.flush(),
    // an order the risk gate denied is an order of this run too (`hoga db orders` shows it, DENIED)
    recordDenied(intent, event) {
      const mode = o.settings.mode;
      try {
        o.db.orders.recordIntent({
          ...orderFromIntent(intent, { mode, state: 'DENIED', createdAt: event.tsEvent }),
          strategyId: event.strategyId ?? null,
        });
        o.db.orders.updateState(event.clientOrderId, {
          state: 'DENIED',
          updatedAt: event.tsEvent,
          rejectReason: `${event.code}: ${event.reason}`,
        });
      } catch (error) {
        // nothing was sent: the denial still reaches the strategy and the journal
        o.logger.error({ err: error, clientOrderId: event.clientOrderId }, 'could not store a denied order');
      }
    },
  };
  container.bind(EventRecorder).toConstantValue(recorder);
  container
    .bind(StrategyStateStore)
    .toConstantValue(new DatabaseStrategyStateStore(o.db, paper ? 'paper/' : ''));
  container.bind(EngineRuntime).toSelf().inSingletonScope();
  const runtime = container.get(EngineRuntime);
  const portfolio = container.get<Portfolio>(Portfolio);
  for (const spec of allocateCash(o.settings.cash, o.strategies)) {
    const host = runtime.addStrategy(spec);
    // its books as its stored fills left them (earlier runs of this strategy id, this mode), and
    // the risk module's with them: its position limits hold across restarts, and so does the loss
    // its earlier runs made today
    const book = portfolio.book(host.strategyId);
    bookStoredFills(o.db, o.settings.mode, host.strategyId, book, (fill, currency) =>
      risk.module.book.bookStoredFill(host.strategyId, currency, fill),
    );
    // its daily loss is watched from the start (the positions it carries move with the prices)
    risk.module.engine.watch(host.strategyId);
  }

  // the session as a stored run (hoga db runs), its fills appended as they are routed
  const record = new SessionRecord({ ...o, runtime, portfolio, now: () => o.clock.nowMs() });
  let fills = 0;
  let bars = 0;
  const subscriptions: Subscription[] = [];
  subscriptions.push(
    venue.events$.subscribe((event) => {
      if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') fills++;
      paperAccount?.onEvent(event);
    }),
  );

  // Reconcile once the runtime listens: what filled or closed while the engine was down reaches
  // the portfolio and the strategies like any other event.
  if (liveVenue !== null) {
    await liveVenue.start();
    retrackStoredOrders(o.db, runtime, risk.module.book);
  }
  // Paper: the open orders of the last run go back on the venue (their unfilled part).
  await paperAccount?.restoreOrders(runtime);
  warnOfAbsentStrategies(o.db, paper ? 'paper' : 'live', runtime, o.logger);

  runtime.callAll('onStart');
  await runtime.settle();

  const streams = new BrokerStreams(o.client, {
    ...(o.streamIntervals === undefined ? {} : { intervals: o.streamIntervals }),
    onError: (e, key) => o.onError?.(e, key),
  });
  const interval = o.settings.interval;
  // Bars are handed over one at a time, in the order they complete; once the run stops, the bars
  // still queued are dropped (only the one being handled finishes).
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const enqueue = (task: () => Promise<void>): void => {
    chain = chain.then(async () => {
      if (!stopped) await task();
    });
  };
  // daily bars wait for their market's regular session (a market order placed on one goes in at
  // the open, as a backtest fills it at the next bar's open)
  const dailyBars = new DailyBarGate({ clock: o.clock, calendar: (m) => risk.module.market?.calendar(m) });
  // what the strategies subscribed to besides the universe's bars (in onStart, and later)
  const market = new MarketSubscriptions({
    runtime,
    streams,
    clock: o.clock,
    symbols: o.settings.symbols,
    interval: o.settings.interval,
    enqueue,
    holdBar: (bar, hand) => dailyBars.offer(bar, hand),
  });
  market.sync();
  const deliver = (bar: Bar): void => {
    chain = chain.then(async () => {
      if (stopped) return;
      marks.values[marks.slot(bar.symbol)] = bar.close;
      // A completed candle is market data as of its close: the stale-price watch counts from
      // there (the background price reads run on a real-time timer, which against a fast
      // simulator spans more engine time than the staleness limit).
      risk.module.staleness?.notePrice(bar.symbol, bar.closeTime);
      bars++;
      o.onBar?.(bar);
      for (const host of runtime.hosts) {
        if (typeof host.strategy.onBar !== 'function') continue;
        runtime.call(host, 'onBar', bar);
        if (runtime.busy) await runtime.settle();
      }
      market.sync();
    });
  };
  for (const symbol of o.settings.symbols) {
    subscriptions.push(
      streams
        .candles$(symbol, interval as CandleInterval)
        .pipe(filter((u) => u.complete))
        .subscribe((u) => dailyBars.offer(candleToBar(u.candle, symbol, interval), deliver)),
    );
  }
  paperAccount?.attach(streams);
  // Timers run on the engine clock.
  const timerTick = setInterval(() => {
    dailyBars.release();
    paperAccount?.auctionAtClose();
    const now = o.clock.nowMs();
    for (let t = runtime.timers.takeDue(now); t !== undefined; t = runtime.timers.takeDue(now))
      runtime.fireTimer(t.owner, t.name, t.due);
    market.sync();
  }, 100);

  const failed = new Promise<StrategyHookError>((resolve) => runtime.onFailure(resolve));
  return {
    runtime,
    manager,
    failed,
    status(): LiveStatus {
      const totals = (c: Currency) => {
        const t = portfolioTotals(portfolio, c);
        return { realized: t.realizedPnl, charges: t.commissions.plus(t.taxes) };
      };
      const positions = new Map<string, Decimal>();
      if (manager !== null) {
        for (const [s, q] of manager.store.positions()) if (!q.isZero()) positions.set(s, q);
      } else {
        for (const [s, h] of ledger.holdings()) positions.set(s, h.quantity);
      }
      return {
        positions,
        openOrders:
          manager !== null ? manager.store.openExecutions().length : (paperAccount?.venue.workingCount ?? 0),
        fills,
        bars,
        barsWaiting: dailyBars.waiting,
        refused: refusals.counts(),
        pnl: { KRW: totals('KRW'), USD: totals('USD') },
        requests: o.client.executor.stats.requests,
        rateLimited: o.client.executor.stats.rateLimited,
        risk: risk.gate.gateway.statusLine(),
      };
    },
    async cancelOpenOrders(): Promise<number> {
      const open: { clientOrderId: string; strategyId: string }[] = [];
      if (manager !== null) {
        for (const order of o.db.orders.list({ mode: 'live' })) {
          if (order.clientOrderId.startsWith('ext-') || order.strategyId === null) continue;
          if (!OPEN_STATES.has(order.state)) continue;
          open.push({ clientOrderId: order.clientOrderId, strategyId: order.strategyId });
        }
      } else if (paperAccount !== null) {
        open.push(...paperAccount.openOrders());
      }
      for (const { clientOrderId, strategyId } of open) {
        await venue.execute({
          type: 'CancelOrder',
          commandId: `stop-${clientOrderId}`,
          strategyId: strategyId as StrategyId,
          tsInit: o.clock.nowMs(),
          clientOrderId: clientOrderId as ClientOrderId,
        });
      }
      await runtime.settle();
      return open.length;
    },
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      // the background reads queued at the rate limits end now; what is in flight is answered
      halt.abort();
      clearInterval(timerTick);
      dailyBars.clear();
      market.dispose();
      streams.dispose();
      await chain;
      await runtime.stop(); // onStop, then the venue settles (live: last poll)
      for (const s of subscriptions) s.unsubscribe();
      risk.dispose();
      paperAccount?.detach();
      paperAccount?.save();
      lease.release();
      if (manager !== null) manager.store.snapshotPositions(o.clock.nowMs());
      record.finish();
    },
  };
}
