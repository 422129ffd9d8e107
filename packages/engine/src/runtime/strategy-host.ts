/**
 * One running strategy: its instance, its context, its orders and subscriptions. The host is the
 * strategy's side of the runtime: it turns context calls into order commands and keeps the
 * strategy's view of its orders up to date from order events.
 *
 * @module
 */
import {
  AMOUNT_ORDER_CUTOFF_MS,
  type BarInterval,
  type ClientOrderId,
  type Clock,
  Decimal,
  type Logger,
  type Market,
  marketOfSymbol,
  newClientOrderId,
  type OrderEvent,
  type OrderIntent,
  type StrategyId,
} from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import type { StrategyBook } from '../portfolio/strategy-book.js';
import type { Strategy, StrategyClass } from '../strategy/strategy.js';
import type {
  AccountView,
  DecimalInput,
  OrderRequest,
  OrderView,
  PositionView,
  StrategyContext,
  StrategyState,
  TimerSpec,
  Universe,
} from '../strategy/strategy-context.js';
import type { HostServices } from './host-services.js';
import { currencyOf, symbolOf } from './intent-input.js';
import {
  judgesSessionRules,
  MarketOrderHours,
  type OrderHours,
  type RegularSession,
} from './market-order-hours.js';
import { StrategyOrderViews } from './strategy-order-views.js';

/** A lower-case letter: a symbol with one is upper-cased (`ctx.marketOrderAllowed`). */
const LOWER_CASE = /[a-z]/;

const ZERO = new Decimal(0);

/** A strategy instance with its context. */
export class StrategyHost implements StrategyContext {
  /** The strategy (set once constructed). */
  strategy!: Strategy<unknown>;
  /** Whether warm-up bars are being delivered. */
  isWarmingUp = false;
  /** Whether the run ended (`onStop` ran): the calls that act do nothing (see {@link StrategyHost.end}). */
  private ended = false;
  /** Its view of its orders, moved by their events. */
  private readonly views: StrategyOrderViews;
  /**
   * The hours orders are judged by (the run's, by the broker's calendar, in paper and live; the
   * broker model's in a backtest), or null in a run that judges no session rule (a daily backtest);
   * undefined until first asked.
   */
  private marketHours: OrderHours | null | undefined;
  /** The run's hours (the broker's calendar in paper and live), else the broker model's, made once. */
  private hours: OrderHours | undefined;

  /**
   * @param strategyId - the instance's id
   * @param strategyClass - its class
   * @param services - the runtime
   * @param log - a child logger `{component: 'strategy', strategyId}`
   * @param state - persistent state
   * @param book - the strategy's books
   * @param config - the config it runs with: as given, parsed by the class's schema (defaults applied)
   */
  constructor(
    readonly strategyId: StrategyId,
    readonly strategyClass: StrategyClass,
    private readonly services: HostServices,
    readonly log: Logger,
    readonly state: StrategyState,
    readonly book: StrategyBook,
    readonly config: unknown,
  ) {
    this.views = new StrategyOrderViews(log);
  }

  get mode(): TradingMode {
    return this.services.mode;
  }

  get universe(): Universe {
    return this.services.universe;
  }

  get clock(): Clock {
    return this.services.clock;
  }

  get account(): AccountView {
    return this.services.account;
  }

  now(): number {
    return this.services.clock.nowMs();
  }

  marketOrderAllowed(symbol: string): boolean {
    const hours = this.sessionRuleHours();
    const market = this.marketOf(symbol, 'marketOrderAllowed');
    return hours === null || hours.allowed(market, this.services.clock.nowMs());
  }

  amountOrderAllowed(symbol: string): boolean {
    const market = this.marketOf(symbol, 'amountOrderAllowed');
    if (market !== 'US') return false;
    const hours = this.sessionRuleHours();
    if (hours === null) return true;
    const now = this.services.clock.nowMs();
    const session = hours.regularSession(market, now);
    return (
      session !== null &&
      session !== undefined &&
      now >= session.open &&
      now < session.close - AMOUNT_ORDER_CUTOFF_MS
    );
  }

  regularSession(symbol: string): RegularSession | null | undefined {
    const market = this.marketOf(symbol, 'regularSession');
    return this.runHours().regularSession(market, this.services.clock.nowMs());
  }

  /** The hours the run's orders are judged by, or null in a run that judges no session rule (a daily backtest); worked out once. */
  private sessionRuleHours(): OrderHours | null {
    if (this.marketHours === undefined) {
      const { mode, universe } = this.services;
      this.marketHours = judgesSessionRules(mode, universe.interval) ? this.runHours() : null;
    }
    return this.marketHours;
  }

  /** The run's order hours: the broker's calendar in paper and live, else the broker model's. */
  private runHours(): OrderHours {
    this.hours ??= this.services.orderHours ?? new MarketOrderHours();
    return this.hours;
  }

  /**
   * The market of a symbol given to `ctx.<call>`. A symbol that is no string is named as the other
   * calls name it (before, a cyclic object threw a bare `TypeError` from JSON); one in capitals is
   * taken as it is (no allocation per call), one with a lower-case letter upper-cased as the other
   * calls take it (before, `0088m0` was judged by New York's hours).
   */
  private marketOf(symbol: string, call: string): Market {
    const given =
      typeof symbol === 'string' && symbol !== '' && !LOWER_CASE.test(symbol)
        ? symbol
        : symbolOf(symbol, call);
    return marketOfSymbol(given);
  }

  subscribeBars(symbol: string, interval?: BarInterval): void {
    if (this.ended) {
      this.ignoreEnded('subscribeBars');
      return;
    }
    this.services.subscribe(this, 'bars', symbol, interval);
  }

  subscribePrices(symbol: string): void {
    if (this.ended) {
      this.ignoreEnded('subscribePrices');
      return;
    }
    this.services.subscribe(this, 'prices', symbol);
  }

  subscribeOrderbook(symbol: string): void {
    if (this.ended) {
      this.ignoreEnded('subscribeOrderbook');
      return;
    }
    this.services.subscribe(this, 'orderbook', symbol);
  }

  subscribeTrades(symbol: string): void {
    if (this.ended) {
      this.ignoreEnded('subscribeTrades');
      return;
    }
    this.services.subscribe(this, 'trades', symbol);
  }

  unsubscribeBars(symbol: string, interval?: BarInterval): void {
    if (!this.ended) this.services.unsubscribe(this, 'bars', symbol, interval);
  }

  unsubscribePrices(symbol: string): void {
    if (!this.ended) this.services.unsubscribe(this, 'prices', symbol);
  }

  unsubscribeOrderbook(symbol: string): void {
    if (!this.ended) this.services.unsubscribe(this, 'orderbook', symbol);
  }

  unsubscribeTrades(symbol: string): void {
    if (!this.ended) this.services.unsubscribe(this, 'trades', symbol);
  }

  buy(symbol: string, quantity: DecimalInput, price?: DecimalInput): ClientOrderId {
    if (this.ended) return this.ignoreOrderEnded('buy');
    return this.services.submit(this, { symbol, side: 'BUY', quantity, price });
  }

  sell(symbol: string, quantity: DecimalInput, price?: DecimalInput): ClientOrderId {
    if (this.ended) return this.ignoreOrderEnded('sell');
    return this.services.submit(this, { symbol, side: 'SELL', quantity, price });
  }

  buyAmount(symbol: string, amount: DecimalInput): ClientOrderId {
    if (this.ended) return this.ignoreOrderEnded('buyAmount');
    return this.services.submit(this, { symbol, side: 'BUY', amount });
  }

  submit(request: OrderRequest): ClientOrderId {
    if (this.ended) return this.ignoreOrderEnded('submit');
    return this.services.submit(this, request);
  }

  modify(
    clientOrderId: ClientOrderId,
    change: { price?: DecimalInput; quantity?: DecimalInput; confirmHighValue?: boolean },
  ): void {
    if (this.ended) {
      this.ignoreEnded('modify');
      return;
    }
    this.services.modify(this, clientOrderId, change);
  }

  cancel(clientOrderId: ClientOrderId): void {
    if (this.ended) {
      this.ignoreEnded('cancel');
      return;
    }
    this.services.cancel(this, clientOrderId);
  }

  position(symbol: string): PositionView | undefined {
    const held = this.book.position(symbol);
    if (held !== undefined) return held;
    // `aapl` is AAPL, as in an order (upper-cased only when not found: this is asked every bar)
    const upper = symbolOf(symbol, 'position');
    return upper === symbol ? undefined : this.book.position(upper);
  }

  positions(): readonly PositionView[] {
    return this.book.positions();
  }

  cash(currency: 'KRW' | 'USD'): Decimal {
    return this.book.cash(currencyOf(currency, 'cash'));
  }

  equity(): number {
    return this.services.portfolio.equityKrw(this.strategyId);
  }

  usdKrw(): number {
    return this.services.portfolio.usdKrw();
  }

  unrealizedPnl(currency: 'KRW' | 'USD'): Decimal {
    return this.services.portfolio.unrealizedPnl(this.strategyId, currencyOf(currency, 'unrealizedPnl'));
  }

  realizedPnl(currency: 'KRW' | 'USD'): Decimal {
    return this.book.totals(currencyOf(currency, 'realizedPnl')).realizedPnl;
  }

  commissions(currency: 'KRW' | 'USD'): Decimal {
    return this.book.totals(currencyOf(currency, 'commissions')).commissions;
  }

  taxes(currency: 'KRW' | 'USD'): Decimal {
    return this.book.totals(currencyOf(currency, 'taxes')).taxes;
  }

  openOrders(symbol?: string): readonly OrderView[] {
    return this.views.openOrders(symbol);
  }

  /** The strategy's own position in `symbol` (0 when flat), as its sells are judged. */
  heldQuantity(symbol: string): Decimal {
    return this.book.position(symbol)?.quantity ?? ZERO;
  }

  /** What the strategy's open sells of `symbol` other than `exceptId` still sell. */
  openSellRest(symbol: string, exceptId: string): Decimal {
    return this.views.openSellRest(symbol, exceptId);
  }

  order(clientOrderId: ClientOrderId): OrderView | undefined {
    return this.views.order(clientOrderId);
  }

  setTimer(name: string, spec: TimerSpec): void {
    if (this.ended) {
      this.ignoreEnded('setTimer');
      return;
    }
    this.services.setTimer(this, name, spec);
  }

  cancelTimer(name: string): boolean {
    return this.services.cancelTimer(this, name);
  }

  /**
   * The run ended (`onStop` ran and what it placed was routed): from now on a call that would place,
   * change or cancel an order, set a timer or subscribe does nothing and says so, once per call, on
   * the strategy's log. Before, `ctx.buy` from a callback the strategy left behind (a `setTimeout`
   * set in `onStop`) answered an order id and the order went nowhere without a word (not filled,
   * journalled or denied). Not a throw: nothing calls the context after the run but a callback of the
   * strategy's own, whose exception no run catches any more: it ended the process before `hoga
   * backtest` printed its report. Reads, the log and `cancelTimer` still answer.
   */
  end(): void {
    this.ended = true;
  }

  /** The calls already said to do nothing after the run ended. */
  private readonly ignoredAfterEnd = new Set<string>();

  /** Says, once per call, that `ctx.<call>` after the run ended does nothing. */
  private ignoreEnded(call: string): void {
    if (this.ignoredAfterEnd.has(call)) return;
    this.ignoredAfterEnd.add(call);
    this.log.warn(
      { call },
      `strategy ${this.strategyId}: ctx.${call} after the run ended (onStop has run): nothing is placed, set or subscribed`,
    );
  }

  /** {@link ignoreEnded} for an order call: the id answered is of an order that is never placed. */
  private ignoreOrderEnded(call: string): ClientOrderId {
    this.ignoreEnded(call);
    return newClientOrderId();
  }

  /** Registers a new order of this strategy (state `INITIALIZED`, nothing filled). */
  trackNew(intent: OrderIntent): void {
    this.views.trackNew(intent);
  }

  /** {@link StrategyOrderViews.track}: an order of an earlier run, open or ended meanwhile. */
  track(view: OrderView): void {
    this.views.track(view);
  }

  /** {@link StrategyOrderViews.deniedNow}: a new order denied, `DENIED` at once. */
  deniedNow(clientOrderId: string): void {
    this.views.deniedNow(clientOrderId);
  }

  /** Whether `clientOrderId` is one of this strategy's orders. */
  owns(clientOrderId: string): boolean {
    return this.views.owns(clientOrderId);
  }

  /** Moves this strategy's view of an order by one of its events. */
  apply(event: OrderEvent): void {
    this.views.apply(event);
  }
}
