/**
 * The runtime of a live or paper run, assembled in its container over the mode's venue: the run's
 * settings, clock, store and last prices; the risk gate, started (its first reads of the broker
 * done); the instruments as the broker lists them; the strategies' portfolio, the venue, the
 * account's books, the run's event recorder and the strategies' stored state; then the strategies,
 * each with its books as its stored fills left them.
 *
 * @module
 */
import 'reflect-metadata';
import { type Instrument, instrumentOf } from '@hoga/core';
import { Container } from 'inversify';
import { AccountViewToken } from '../portfolio/account-view.js';
import { FxRates } from '../portfolio/fx-rates.js';
import { MarkBook } from '../portfolio/mark-book.js';
import { Portfolio } from '../portfolio/portfolio.js';
import { logPriorCloses } from '../risk/prior-closes.js';
import { RiskGate } from '../risk/risk-gate.js';
import { createRiskGateBinding, type RiskGateBinding } from '../risk/risk-gate-factory.js';
import { CalendarOrderHours } from '../runtime/calendar-order-hours.js';
import { allocateCash, unallocatedCash } from '../runtime/cash-allocation.js';
import { EngineRuntime } from '../runtime/engine-runtime.js';
import { OrderIdFactory, RandomOrderIds } from '../runtime/order-ids.js';
import { TimerQueue } from '../runtime/timer-queue.js';
import {
  ClockToken,
  DatabaseToken,
  type InstrumentLookup,
  InstrumentsToken,
  LastPriceToken,
  LoggerToken,
  OrderHoursToken,
  PriceLimitsToken,
  RunSettings,
} from '../runtime/tokens.js';
import { EventRecorder } from '../store/event-recorder.js';
import { DatabaseStrategyStateStore, StrategyStateStore } from '../store/strategy-state-store.js';
import { ExecutionVenue } from '../venue/execution-venue.js';
import type { ReadFxRate } from './broker-fx.js';
import { haltable } from './haltable-broker.js';
import type { ModeVenue } from './mode-venue.js';
import { paperBrokerView } from './paper-broker-view.js';
import { livePendingCreates, type PendingCreates } from './pending-creates.js';
import { PendingCreatesGate } from './pending-creates-gate.js';
import { RunEventRecorder } from './run-event-recorder.js';
import type { LiveRunOptions } from './run-live.js';
import { RunPortfolio } from './run-portfolio.js';
import { bookStoredFills } from './stored-fills.js';
import { storedOpenOrdersReader } from './stored-orders.js';

/** What a run's runtime is assembled over. */
export interface RunRuntimeParts {
  /** The run's last prices. */
  readonly marks: MarkBook;
  /** The venue of the run's mode (`bindModeVenue`). */
  readonly mode: ModeVenue;
  /** Aborted when the run stops: the risk gate's background reads still queued end at once. */
  readonly halt: AbortSignal;
  /** USD/KRW rates: the caller's (`LiveRunOptions.fx`), else the broker's followed. */
  readonly fx: FxRates;
  /**
   * The broker's rate read at the start for {@link RunRuntimeParts.fx}, with the end of its
   * validity: the risk checks take it (and then the run's exchange-rate stream's) instead of
   * reading it again, and read it themselves once it is stale as they do a stream's rate
   * (`followed-fx.ts`).
   */
  readonly startRate?: ReadFxRate;
}

/** A run's runtime and what the run keeps of its assembly. */
export interface RunRuntime {
  readonly runtime: EngineRuntime;
  readonly portfolio: Portfolio;
  /** The risk gate (started) and the risk module behind it. */
  readonly risk: RiskGateBinding;
  readonly recorder: RunEventRecorder;
  /**
   * Live: tells each strategy, once, of the creates an earlier run of it gave and ended before it
   * judged (`OrderDenied`, `run-ended`: {@link PendingCreates.settle}). Call after the order
   * manager's reconciliation and before `onStart`. Paper: nothing (the paper account settles its own).
   */
  settleCreates(): void;
}

/**
 * Assembles the runtime of a live or paper run (see the module documentation) and adds the run's
 * strategies; resolves once the risk gate's first reads are done. No strategy is started. When a
 * step fails (a strategy's config or constructor, the gate's first reads), the gate is disposed
 * before the error is thrown: nothing of the assembly keeps running.
 *
 * @param o - the run's options
 * @param parts - the last prices, the mode's venue, the run's stop signal, the USD/KRW rates
 */
export async function assembleRunRuntime(o: LiveRunOptions, parts: RunRuntimeParts): Promise<RunRuntime> {
  const { marks, halt } = parts;
  const { venue, ledger, account } = parts.mode;
  const paper = o.settings.mode === 'paper';
  const container = new Container();
  // the symbols the strategies' books hold outside the run's, once the books are restored
  let held: () => readonly string[] = () => [];
  let heldFailed = false;
  container.bind(RunSettings).toConstantValue(o.settings);
  container.bind(ClockToken).toConstantValue(o.clock);
  container.bind(LoggerToken).toConstantValue(o.logger);
  container.bind(DatabaseToken).toConstantValue(o.db);
  container.bind(FxRates).toConstantValue(parts.fx);
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
    broker: haltable(paper && ledger !== undefined ? paperBrokerView(o.client, ledger) : o.client, halt),
    brokerUrl: o.client.config.baseUrl,
    symbols: o.settings.symbols,
    watchStaleness: !paper,
    // The broker's last prices it reads at the start and every few seconds value the positions
    // (the marks keep a price until one of a later moment comes). Before, the marks were empty
    // until a symbol's first bar or fill: a position of an earlier session was valued at its
    // average price in the session's first equity point and in `onStart`, so that what it had
    // gained before counted as this session's return; and a daily run valued its positions at the
    // day before's close, or its fill, all session long.
    onPrice: (symbol, price, atMs) => marks.setAt(symbol, price.toNumber(), atMs),
    // and those of the positions carried in symbols outside the run's (before, valued at their
    // average price until a bar, a tick or a fill of them, which the session might never have)
    held: () => held(),
    onHeldReadFailed: (symbols, error, unlisted) => {
      const err = error instanceof Error ? error.message : String(error);
      const held = `${symbols.join(', ')} (held outside the run's symbols)`;
      // not asked again: said once each
      if (unlisted) {
        o.logger.warn(
          { symbols, err },
          `the last price of ${held} could not be read: the broker does not list it: that position keeps its last known price`,
        );
        return;
      }
      // said once a run: the next reads are tried all the same
      if (heldFailed) return;
      heldFailed = true;
      o.logger.warn(
        { symbols, err },
        `the last prices of ${held} could not be read: those positions keep their last known prices`,
      );
    },
    // live: the account's open orders that are not the run's count in the broker's rules
    ...(paper ? {} : { outsideOrders: storedOpenOrdersReader(o.db) }),
  });
  if (parts.startRate !== undefined) {
    risk.module.market?.followFx(parts.startRate.rate, parts.startRate.validUntilMs);
  }
  try {
    logPriorCloses(o.logger, await risk.start());
    // paper: no new order or modify while the store refuses writes (see PaperStoreGate); both: each
    // create noted in the store as it is given, until it is judged (pending-creates.ts)
    const paperAccount = parts.mode.paperAccount;
    let creates: PendingCreates | null = null;
    let gate: RiskGate;
    if (paperAccount !== null) gate = paperAccount.guard(risk.gate, risk.module);
    else {
      creates = livePendingCreates(o.db, o.logger, (e, where) => o.onError?.(e, where));
      gate = new PendingCreatesGate(risk.gate, creates);
    }
    container.bind(RiskGate).toConstantValue(gate);
    container.bind(InstrumentsToken).toConstantValue(listedInstruments(risk));
    // ctx.marketOrderAllowed answers from the calendars the risk module judges orders by
    const market = risk.module.market;
    if (market !== undefined) {
      container.bind(OrderHoursToken).toConstantValue(new CalendarOrderHours(market));
      // a strategy's budget holds a KR market buy at the day's upper limit, as the broker does
      container.bind(PriceLimitsToken).toConstantValue((symbol: string) => market.priceLimits(symbol));
      // and values a market buy of a symbol the portfolio has no price of yet at the one last read
      container.bind(LastPriceToken).toConstantValue((symbol: string) => market.lastPrice(symbol));
    }
    // a fill marks its symbol at its price (a daily bar's close is the day before's)
    container.bind(Portfolio).to(RunPortfolio).inSingletonScope();
    container.bind(OrderIdFactory).toConstantValue(new RandomOrderIds());
    container.bind(ExecutionVenue).toConstantValue(venue);
    container.bind(AccountViewToken).toConstantValue(account);
    // Every event the runtime routes to the strategies (the venue's, and the risk gate's denials,
    // which never reach the venue) is journalled and handed to `onEvent`.
    const recorder = new RunEventRecorder(
      o,
      paperAccount === null ? undefined : () => paperAccount.storeRefusing,
    );
    container.bind(EventRecorder).toConstantValue(recorder);
    container
      .bind(StrategyStateStore)
      .toConstantValue(new DatabaseStrategyStateStore(o.db, paper ? 'paper/' : ''));
    container.bind(EngineRuntime).toSelf().inSingletonScope();
    const runtime = container.get(EngineRuntime);
    const portfolio = container.get<Portfolio>(Portfolio);
    addStrategies(o, runtime, portfolio, risk);
    held = () => heldSymbols(portfolio);
    await risk.refreshHeld();
    const settleCreates = (): void => {
      if (creates !== null) settleLiveCreates(o, creates, runtime, recorder);
    };
    return { runtime, portfolio, risk, recorder, settleCreates };
  } catch (error) {
    // the gate's background refresh would keep the process alive after a failed start (a
    // strategy's bad config or throwing constructor, a failed first read): stopped here
    risk.dispose();
    throw error;
  }
}

/** The symbols of the strategies' open positions. */
function heldSymbols(portfolio: Portfolio): string[] {
  return portfolio.strategies().flatMap((id) =>
    portfolio
      .book(id)
      .positions()
      .map((p) => p.symbol),
  );
}

/**
 * Settles the creates an earlier live run of the strategies left unjudged: each denial told to its
 * strategy at once (its view moved to DENIED, then `onOrderEvent`) and journalled, as the events of
 * the time it was down are (`tellUntoldEvents`); a store that refuses the rows is said (`onError`)
 * and the creates are left for the next start.
 */
function settleLiveCreates(
  o: LiveRunOptions,
  creates: PendingCreates,
  runtime: EngineRuntime,
  recorder: RunEventRecorder,
): void {
  try {
    creates.settle(runtime, o.clock.nowMs(), (event, host) => {
      host?.apply(event);
      recorder.recordTold(event);
      if (host !== undefined) runtime.call(host, 'onOrderEvent', event);
    });
  } catch (error) {
    o.onError?.(error, 'pending-creates');
  }
}

/**
 * The intents name the instruments as the broker lists them (the risk gate read their stock info).
 *
 * @param risk - the risk gate, whose market view knows the symbols' security types
 */
function listedInstruments(risk: RiskGateBinding): InstrumentLookup {
  const listed = new Map<string, Instrument>();
  return (symbol: string) => {
    const type = risk.module.market?.instrument(symbol)?.securityType;
    if (type === undefined) return undefined;
    let instrument = listed.get(symbol);
    if (instrument?.securityType !== type) {
      instrument = instrumentOf(symbol, type);
      listed.set(symbol, instrument);
    }
    return instrument;
  };
}

/**
 * Adds the run's strategies, each with its share of the run's cash and its stored books; the won
 * or cent the shares leave over is the account's, in the run's equity as in a backtest's (before,
 * three strategies on 100,000,000 KRW and 100,000 USD at 1,400 started a paper or live session at
 * 239,999,985 KRW, and a backtest of the same account at 240,000,000).
 */
function addStrategies(
  o: LiveRunOptions,
  runtime: EngineRuntime,
  portfolio: Portfolio,
  risk: RiskGateBinding,
): void {
  const allocated = allocateCash(o.settings.cash, o.strategies);
  portfolio.holdUnallocatedCash(unallocatedCash(o.settings.cash, allocated));
  for (const spec of allocated) {
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
}
