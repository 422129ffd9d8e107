/**
 * The backtest mode as one container module: a virtual clock, the broker model's simulated venue
 * over the bar fill model (with the account's ledger; KR fills inside the daily price limits of
 * the previous close, see {@link ReferencePrices}), the risk module's guards, journal
 * recording, per-run strategy state. Paper and live bind the same tokens to other classes.
 *
 * @module
 */
import 'reflect-metadata';
import { BarFillModel, Ledger } from '@hoga/broker-model';
import {
  type Bar,
  type Clock,
  decimalOfNumber,
  type Instrument,
  instrumentOf,
  isTerminalOrderState,
  type Logger,
  VirtualClock,
} from '@hoga/core';
import { backtestOrderIdPrefix, type HogaDatabase, type RunJournalWriter } from '@hoga/store';
import { ContainerModule } from 'inversify';
import { type OrderCommand, unsendableModify } from '../commands/order-commands.js';
import { ReferencePrices } from '../market-data/reference-prices.js';
import { AccountViewToken, LedgerAccountView } from '../portfolio/account-view.js';
import { FxRates } from '../portfolio/fx-rates.js';
import { MarkBook } from '../portfolio/mark-book.js';
import { Portfolio, StrategyPortfolio } from '../portfolio/portfolio.js';
import { BarDayPnl } from '../risk/bar-day-pnl.js';
import type { MarkSource } from '../risk/risk-engine-options.js';
import { RiskGate, type RiskVerdict } from '../risk/risk-gate.js';
import { createRiskGateBinding } from '../risk/risk-gate-factory.js';
import { EngineRuntime } from '../runtime/engine-runtime.js';
import { judgesSessionRules } from '../runtime/market-order-hours.js';
import { OrderIdFactory, SequentialOrderIds } from '../runtime/order-ids.js';
import { TimerQueue } from '../runtime/timer-queue.js';
import {
  ClockToken,
  DatabaseToken,
  InstrumentsToken,
  LoggerToken,
  PriceLimitsToken,
  RunSettings,
} from '../runtime/tokens.js';
import { EventRecorder } from '../store/event-recorder.js';
import { OrderSummaryRecorder } from '../store/order-summary-recorder.js';
import { DatabaseStrategyStateStore, StrategyStateStore } from '../store/strategy-state-store.js';
import { ExecutionVenue } from '../venue/execution-venue.js';
import { SimulatedVenue } from '../venue/simulated-venue.js';
import { notWorkingRefusal } from '../venue/venue-events.js';
import { BacktestBrokerRules } from './backtest-broker-rules.js';
import { BacktestHalts } from './backtest-halts.js';
import { BarPriceLimits } from './bar-price-limits.js';

/** Token of the backtest's simulated venue (the same object as `ExecutionVenue`). */
export const BacktestVenue = Symbol.for('hoga.engine.BacktestVenue');

/**
 * The symbols that have bars in a backtest (the universe's and those the strategies subscribed to
 * in `onStart`), set once the bars are opened; null before. While `onStart` runs, `starting` says
 * whether a symbol has bars so far (the universe's, or subscribed to before the order), so an order
 * placed there for another is denied too (before, nothing was refused then: a known symbol's order
 * worked the whole run with nothing to fill it, an unknown one's met an unrelated session rule).
 */
export class BacktestSymbols {
  known: ReadonlySet<string> | null = null;
  starting: ((symbol: string) => boolean) | null = null;
  /**
   * While `onStart` runs: whether a symbol's last close before the run is known by now (the
   * universe's are read before `onStart`); an order there for one subscribed to in `onStart` waits
   * for {@link BacktestSymbols.pricesSeeded}, and is then judged at that close as the universe's are.
   */
  priced: ((symbol: string) => boolean) | null = null;
  private seeded: Promise<void> | null = null;
  private seed: () => void = () => undefined;

  /** What an order waiting for its symbol's last close before the run waits for. */
  untilPriced(): Promise<void> {
    this.seeded ??= new Promise<void>((resolve) => {
      this.seed = resolve;
    });
    return this.seeded;
  }

  /** The last closes of the symbols subscribed to in `onStart` are known (or the run ends): judge the orders waiting. */
  pricesSeeded(): void {
    this.priced = null;
    this.seed();
  }
}

/**
 * The risk module's gate, and before it the backtest's own rule: an order for a symbol that has no
 * bars in the run is denied (`no-market-data`), as nothing could ever fill it. The broker's rules
 * the backtest judges before its venue ({@link BacktestBrokerRules}: the value rules, the KR
 * opposite side, and on minute bars the session rules) are the risk module's, judged where live
 * judges the broker's: after the trading states, before the strategy's limits (a REDUCING
 * strategy's buy while its sell works is denied `risk-reducing` in every mode).
 */
class BarSymbolsGate implements RiskGate {
  readonly prepare: (command: OrderCommand) => Promise<void> | undefined;
  /** Orders placed in `onStart` for a symbol with no bars then, judged later behind one that waited. */
  private readonly noBarsAtStart = new WeakSet<OrderCommand>();

  constructor(
    private readonly inner: RiskGate,
    private readonly symbols: BacktestSymbols,
  ) {
    const prepare = inner.prepare;
    this.prepare = (command) => this.untilPriced(command) ?? prepare?.call(inner, command);
  }

  /**
   * An order placed in `onStart` for a symbol subscribed to there waits until the symbol's last
   * close before the run is known (its bars are opened after `onStart`): it is then judged at it,
   * as an order for a universe symbol is at once (before, it was judged with no price: a market buy
   * was taken unvalued, past the high-value confirmation and the strategy's cash, and cancelled at
   * the first bar for the buying power, the summary counting no refusal).
   */
  private untilPriced(command: OrderCommand): Promise<void> | undefined {
    const symbols = this.symbols;
    if (symbols.priced === null || command.type !== 'SubmitOrder') return undefined;
    const symbol = command.intent.instrument.symbol;
    if (symbols.starting?.(symbol) === false) {
      // (judged now, unless an order before it waits: then by what was subscribed to by now)
      this.noBarsAtStart.add(command);
      return undefined;
    }
    return symbols.priced(symbol) ? undefined : symbols.untilPriced();
  }

  check(command: OrderCommand): RiskVerdict {
    const known = this.symbols.known;
    if (command.type === 'SubmitOrder' && (known !== null || this.symbols.starting !== null)) {
      const symbol = command.intent.instrument.symbol;
      const noBars =
        this.noBarsAtStart.has(command) ||
        (known !== null ? !known.has(symbol) : this.symbols.starting?.(symbol) === false);
      if (noBars) {
        return {
          accepted: false,
          code: 'no-market-data',
          reason: `${symbol} has no bars in this backtest: add it to --symbols, or subscribe to its bars in onStart`,
        };
      }
    }
    return this.inner.check(command);
  }
}

/** The risk module's last prices and rate in a backtest: the bars' closes and the run's USD/KRW. */
function barMarks(marks: MarkBook, fx: FxRates, clock: Clock): MarkSource {
  return {
    lastPrice(symbol) {
      const close = marks.get(symbol);
      return close === undefined ? undefined : decimalOfNumber(close);
    },
    usdKrw: () => decimalOfNumber(fx.usdKrwAt(clock.nowMs())),
  };
}

/**
 * A modify or cancel of an order the venue no longer works (filled, cancelled, expired, rejected:
 * a second `ctx.cancel` in the hook of the first), refused before the venue with the broker's code
 * for its end (`already-canceled`, …), as the risk module of paper and live refuses it by its book:
 * `sent: false` (before, it was sent and refused by the venue, `sent: true`).
 */
function endedRefusal(venue: SimulatedVenue<Bar>, command: OrderCommand): RiskVerdict | undefined {
  if (command.type === 'SubmitOrder') return undefined;
  const order = venue.order(command.clientOrderId);
  if (order === undefined || !isTerminalOrderState(order.state)) return undefined;
  return { accepted: false, ...notWorkingRefusal(command.clientOrderId, order.state) };
}

/**
 * Whether a risk configuration (raw or parsed) disables the risk module: `enabled: false` (it
 * defaults to true; a configuration the schema refuses fails when the risk module parses it).
 */
function riskDisabled(config: unknown): boolean {
  return typeof config === 'object' && config !== null && (config as { enabled?: unknown }).enabled === false;
}

/** A refusal of the broker's rules as the venue reports it, else null. */
function refusalOf(verdict: RiskVerdict | null): { code: string; reason: string } | null {
  return verdict === null || verdict.accepted ? null : verdict;
}

/** What the backtest module needs from its caller. */
export interface BacktestBindings {
  readonly settings: RunSettings;
  readonly db: HogaDatabase;
  /** Where the journal's records go (the run's owner closes it). */
  readonly writer: RunJournalWriter;
  readonly logger: Logger;
  readonly fx: FxRates;
  /** Share of a bar's volume one order may fill (the bar model's default when omitted). */
  readonly volumeFraction?: number | undefined;
  /** Start of the virtual clock, epoch ms. */
  readonly start: number;
  /** The virtual clock to bind (set to `start`), when the caller keeps one; default: a new one. */
  readonly clock?: VirtualClock | undefined;
  /** The risk configuration (JSON, `riskConfigSchema`); the defaults when absent. */
  readonly risk?: unknown;
  /**
   * The instruments of the run's symbols with their real security type (ETF/ETN have their own KR
   * tick size and no sell tax); a symbol missing here is taken for a stock (core's `instrumentOf`).
   */
  readonly instruments?: ReadonlyMap<string, Instrument> | undefined;
}

/**
 * The backtest container module.
 *
 * @param b - run settings, store, logger, FX rates
 */
export function backtestModule(b: BacktestBindings): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RunSettings).toConstantValue(b.settings);
    const clock = b.clock ?? new VirtualClock(b.start);
    clock.set(b.start);
    bind(ClockToken).toConstantValue(clock);
    bind(LoggerToken).toConstantValue(b.logger);
    bind(DatabaseToken).toConstantValue(b.db);
    bind(FxRates).toConstantValue(b.fx);
    const marks = new MarkBook();
    bind(MarkBook).toConstantValue(marks);
    // positions valued at the bars' closes for the daily loss limits (the bar loop moves it)
    bind(BarDayPnl).toConstantValue(new BarDayPnl(marks));
    bind(BacktestHalts).toConstantValue(new BacktestHalts(b.logger));
    // the previous regular close of each symbol (fed by the bar loop): KR fills stay inside the
    // daily price limits
    const references = new ReferencePrices();
    bind(ReferencePrices).toConstantValue(references);
    // the KR limits of the day an order trades in, for the broker's rules (a limit price, a market buy's funds)
    const limits = new BarPriceLimits(references, clock, b.settings.interval === '1d');
    // and for a strategy's budget, which holds a KR market buy at the upper one as the broker does
    bind(PriceLimitsToken).toConstantValue((symbol: string) =>
      limits.of(b.instruments?.get(symbol) ?? instrumentOf(symbol)),
    );
    bind(TimerQueue).toSelf().inSingletonScope();
    // The risk module's owner guards (limits, throttles, daily loss, trading states, kept in memory);
    // the broker's rules by BacktestBrokerRules before the venue, the rest by the venue's broker model.
    bind(BacktestSymbols).toConstantValue(new BacktestSymbols());
    bind(RiskGate)
      .toDynamicValue((ctx) => {
        const venue = ctx.get<SimulatedVenue<Bar>>(BacktestVenue);
        const brokerRules = new BacktestBrokerRules({
          marks: ctx.get(MarkBook),
          fx: b.fx,
          clock: ctx.get(ClockToken),
          venue,
          // minute bars: an order is placed at a bar's close; daily bars: for the next open
          sessionRules: judgesSessionRules('backtest', b.settings.interval),
          limits,
        });
        // The risk module on judges the broker's rules before the venue and denies (`OrderDenied`),
        // as in paper and live. Off, the venue judges a new order, a modify and a cancel by them as
        // it takes them (`OrderSubmitted`, then `OrderRejected`; `OrderModifyRequested`, then
        // `OrderModifyRejected`, `sent: true`), as live's broker answers them; before the venue, the
        // risk module refuses only a modify live's connector would not send (`unsendableModify`:
        // `sent: false`). On, the venue has no rules to consult (no extra work per order).
        const off = riskDisabled(b.risk);
        if (off) venue.judgeOrdersBy((command) => refusalOf(brokerRules.check(command)));
        const risk = createRiskGateBinding({
          clock: ctx.get(ClockToken),
          config: b.risk,
          mode: 'backtest',
          venue,
          // an order's value at its symbol's last close and the run's rate, as live values it
          // at the last price (made a Decimal per order, never per bar)
          marks: barMarks(ctx.get(MarkBook), b.fx, ctx.get(ClockToken)),
          barPnl: ctx.get(BarDayPnl),
          brokerRules: off
            ? (command) =>
                command.type === 'ModifyOrder' ? (unsendableModify(command) ?? undefined) : undefined
            : (command) => endedRefusal(venue, command) ?? brokerRules.check(command) ?? undefined,
        });
        // the kill switch's halts, told to the user (the run's logger)
        const halts = ctx.get(BacktestHalts);
        risk.module.gateway.changes$.subscribe((change) => halts.note(change));
        return new BarSymbolsGate(risk.gate, ctx.get(BacktestSymbols));
      })
      .inSingletonScope();
    bind(Portfolio).to(StrategyPortfolio).inSingletonScope();
    // ids the store finds the run's orders by (`hoga db orders --mode backtest --run`)
    bind(OrderIdFactory).toConstantValue(new SequentialOrderIds(backtestOrderIdPrefix(b.settings.runId)));
    bind(BacktestVenue)
      .toDynamicValue((ctx) => {
        const marks = ctx.get(MarkBook);
        const references = ctx.get(ReferencePrices);
        const known = b.instruments;
        return new SimulatedVenue<Bar>({
          fillModel: new BarFillModel({
            ...(b.volumeFraction === undefined ? {} : { volumeFraction: b.volumeFraction }),
            referencePrice: (bar) => references.of(bar),
            // the bar model caches what this returns per symbol: the hot path stays number-only
            instrument: (symbol) => known?.get(symbol) ?? instrumentOf(symbol),
          }),
          instrument: known === undefined ? undefined : (symbol) => known.get(symbol),
          ledger: new Ledger(b.settings.cash),
          clock: ctx.get(ClockToken),
          lastPrice: (symbol) => marks.get(symbol),
          idPrefix: 'bt',
        });
      })
      .inSingletonScope();
    bind(ExecutionVenue).toService(BacktestVenue);
    // the intents name the instruments' real types too (the venue already fills and charges by them)
    const known = b.instruments;
    if (known !== undefined) bind(InstrumentsToken).toConstantValue((symbol: string) => known.get(symbol));
    bind(AccountViewToken)
      .toDynamicValue((ctx) => new LedgerAccountView(ctx.get<SimulatedVenue<Bar>>(BacktestVenue).ledger))
      .inSingletonScope();
    const recorder = new OrderSummaryRecorder(b.writer);
    bind(OrderSummaryRecorder).toConstantValue(recorder);
    bind(EventRecorder).toConstantValue(recorder);
    bind(StrategyStateStore).toConstantValue(
      new DatabaseStrategyStateStore(b.db, `backtest/${b.settings.runId}/`),
    );
    bind(EngineRuntime).toSelf().inSingletonScope();
  });
}
