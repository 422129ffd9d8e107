/**
 * The risk module assembled: gateway, book, market and funds views, the risk engine, and a sender
 * that puts every command through the engine before a venue (the live order manager, a simulated
 * venue). A denial is an `OrderDenied` event (stored with the order and in the journal) and nothing
 * is sent; a modify or cancel denial is the matching `…Rejected` event with the same code.
 *
 * @module
 */
import { type Clock, newEventId, type OrderEvent, type TradingMode } from '@hoga/core';
import { type HogaDatabase, orderFromIntent } from '@hoga/store';
import { merge, type Observable, Subject, type Subscription } from 'rxjs';
import type { OrderCommand } from '../commands/order-commands.js';
import { AccountInfoProvider, type AccountInfoSource } from './account-info-provider.js';
import type { BarDayPnl } from './bar-day-pnl.js';
import { BrokerMarketView } from './broker-market-view.js';
import { storedCalendarsOf } from './market-calendars.js';
import type { MarketInfoSource } from './market-info-source.js';
import { RiskBook } from './risk-book.js';
import { parseRiskConfig, type RiskConfig } from './risk-config.js';
import { RiskEngine } from './risk-engine.js';
import type { MarkSource, RiskEngineOptions } from './risk-engine-options.js';
import type { RiskVerdict } from './risk-gate.js';
import { StaleDataMonitor } from './stale-data-monitor.js';
import { TradingStateGateway } from './trading-state-gateway.js';
import {
  MemoryTradingStatePersistence,
  StoreTradingStatePersistence,
  type TradingStatePersistence,
} from './trading-state-persistence.js';
import { BAR_CLOSE_DAY_SHIFT_MS } from './valuation.js';

/** Where commands go once accepted (the order manager, a venue). */
export interface OrderSink {
  execute(command: OrderCommand): Promise<void>;
  readonly events$: Observable<OrderEvent>;
}

/** What {@link createRiskModule} builds the module from. */
export interface RiskModuleOptions {
  readonly clock: Clock;
  /** The risk configuration (raw, parsed here), or a parsed one. */
  readonly config?: unknown;
  /** The store: trading states survive restarts, changes and denials are journalled. */
  readonly db?: HogaDatabase | undefined;
  readonly mode: TradingMode;
  /** The broker (a `BrokerClient`): the broker's rules run against its data when given. */
  readonly broker?: (MarketInfoSource & AccountInfoSource) | undefined;
  /**
   * The broker's address (its base URL): with `db`, the market calendars the broker answers are
   * shared with other processes on the database (the store's `marketCalendars`), under it.
   */
  readonly brokerUrl?: string | undefined;
  /** Where accepted commands go. */
  readonly sink: OrderSink;
  /** Watch order-history polls and prices for staleness (live). */
  readonly watchStaleness?: boolean;
  /** Apply the abuse throttles (default true; backtests leave them out). */
  readonly throttles?: boolean;
  /** Last prices and the rate where no broker gives them (a backtest's closes and rates). */
  readonly marks?: MarkSource | undefined;
  /**
   * A backtest's positions valued at its bars' closes: today's PnL counts their unrealised PnL, and
   * the limits are evaluated at each new bar time (the bar loop drives it).
   */
  readonly barPnl?: BarDayPnl | undefined;
  /** The broker's rules where no broker judges them (see the risk engine's `brokerRules`). */
  readonly brokerRules?: RiskEngineOptions['brokerRules'];
  /** The account's open orders as the store lists them (live; see the risk engine's `outsideOrders`). */
  readonly outsideOrders?: RiskEngineOptions['outsideOrders'];
}

/** The assembled module. */
export interface RiskModule {
  readonly config: RiskConfig;
  readonly gateway: TradingStateGateway;
  readonly book: RiskBook;
  readonly engine: RiskEngine;
  readonly market: BrokerMarketView | undefined;
  readonly funds: AccountInfoProvider | undefined;
  readonly staleness: StaleDataMonitor | undefined;
  readonly sender: RiskedOrderSender;
}

/** Builds the risk module around a sink. */
export function createRiskModule(options: RiskModuleOptions): RiskModule {
  const config = isParsed(options.config) ? options.config : parseRiskConfig(options.config ?? {});
  const persistence: TradingStatePersistence =
    options.db === undefined
      ? new MemoryTradingStatePersistence()
      : new StoreTradingStatePersistence(options.db, options.mode);
  const gateway = new TradingStateGateway(options.clock, persistence);
  const book = new RiskBook(config.tradingDayStartHourKst);
  // a backtest's USD PnL in KRW at the run's rate of the moment, not at a fixed one
  const marks = options.marks;
  if (marks !== undefined) book.followUsdKrw(() => marks.usdKrw());
  const storedCalendars =
    options.db === undefined || options.brokerUrl === undefined
      ? undefined
      : storedCalendarsOf(options.db, options.brokerUrl);
  const market =
    options.broker === undefined
      ? undefined
      : new BrokerMarketView(options.broker, options.clock, {}, storedCalendars);
  const funds =
    options.broker === undefined
      ? undefined
      : new AccountInfoProvider(options.broker, options.clock, config.accountInfoMaxAgeMs);
  const staleness =
    options.watchStaleness === true ? new StaleDataMonitor(options.clock, config, gateway) : undefined;
  const engine = new RiskEngine({
    clock: options.clock,
    mode: options.mode,
    config,
    gateway,
    view: book,
    market,
    funds,
    staleness,
    marks,
    throttles: options.throttles !== false,
    brokerRules: options.brokerRules,
    outsideOrders: options.outsideOrders,
    cancel: (command) => options.sink.execute(command),
  });
  const barPnl = options.barPnl;
  if (barPnl !== undefined && config.enabled) {
    barPnl.tradingDayStartHourKst = config.tradingDayStartHourKst;
    book.followBarCloses(barPnl);
    // a bar stamped at a day's start closes the day before: so do the states' ends at its stamp
    gateway.dayShiftMs = BAR_CLOSE_DAY_SHIFT_MS;
    // as live evaluates them when prices move: a loss past the limit halts and cancels at once
    barPnl.onTime = () => engine.evaluate();
  }
  const sender = new RiskedOrderSender(engine, options.sink, options.clock, options.db, options.mode);
  return { config, gateway, book, engine, market, funds, staleness, sender };
}

function isParsed(config: unknown): config is RiskConfig {
  return (
    typeof config === 'object' &&
    config !== null &&
    'throttle' in config &&
    'account' in config &&
    'enabled' in config
  );
}

/** Sends commands through the risk engine to a sink; feeds the sink's events back to the engine. */
export class RiskedOrderSender {
  private readonly denials = new Subject<OrderEvent>();
  private readonly subscription: Subscription;
  /** The sink's events and the denials, as they happen. */
  readonly events$: Observable<OrderEvent>;

  /**
   * @param engine - the risk engine
   * @param sink - where accepted commands go
   * @param clock - engine clock
   * @param db - the store (denials are stored with the order and journalled)
   * @param mode - the session's mode
   */
  constructor(
    readonly engine: RiskEngine,
    private readonly sink: OrderSink,
    private readonly clock: Clock,
    private readonly db: HogaDatabase | undefined,
    private readonly mode: TradingMode,
  ) {
    this.subscription = sink.events$.subscribe((event) => engine.onEvent(event));
    this.events$ = merge(sink.events$, this.denials.asObservable());
  }

  /**
   * Checks a command (refreshing the view first) and, when accepted, hands it to the sink.
   *
   * @param checkOnly - judge only: nothing is sent or recorded (`hoga order --check`)
   * @returns the verdict
   */
  async send(command: OrderCommand, checkOnly = false): Promise<RiskVerdict> {
    await this.engine.prepare(command);
    const verdict = this.engine.check(command);
    if (checkOnly) return verdict;
    if (!verdict.accepted) {
      this.deny(command, verdict);
      return verdict;
    }
    await this.sink.execute(command);
    return verdict;
  }

  /** Stops feeding events to the engine. */
  dispose(): void {
    this.subscription.unsubscribe();
    this.denials.complete();
  }

  private deny(command: OrderCommand, verdict: Extract<RiskVerdict, { accepted: false }>): void {
    const nowMs = this.clock.nowMs();
    let event: OrderEvent;
    if (command.type === 'SubmitOrder') {
      event = this.engine.deniedEvent(command, verdict);
      this.db?.orders.recordIntent(
        {
          ...orderFromIntent(command.intent, { mode: this.mode, state: 'DENIED', createdAt: nowMs }),
          strategyId: command.strategyId,
        },
        {
          type: event.type,
          tsEvent: event.tsEvent,
          tsInit: event.tsInit,
          mode: this.mode,
          strategyId: command.strategyId,
          clientOrderId: event.clientOrderId,
          payload: event,
        },
      );
      this.db?.orders.updateState(event.clientOrderId, {
        state: 'DENIED',
        updatedAt: nowMs,
        rejectReason: `${verdict.code}: ${verdict.reason}`,
      });
    } else {
      event = {
        type: command.type === 'CancelOrder' ? 'OrderCancelRejected' : 'OrderModifyRejected',
        eventId: newEventId(),
        clientOrderId: command.clientOrderId,
        strategyId: command.strategyId,
        tsEvent: nowMs,
        tsInit: nowMs,
        code: verdict.code,
        reason: verdict.reason,
        sent: false,
      };
      this.db?.journal.appendEvent(event, this.mode);
    }
    this.engine.onEvent(event);
    this.denials.next(event);
  }
}
