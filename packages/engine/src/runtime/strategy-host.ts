/**
 * One running strategy: its instance, its context, its orders and subscriptions. The host is the
 * strategy's side of the runtime: it turns context calls into order commands and keeps the
 * strategy's view of its orders up to date from order events.
 *
 * @module
 */
import {
  type BarInterval,
  type ClientOrderId,
  type Clock,
  Decimal,
  isTerminalOrderState,
  type Logger,
  newClientOrderId,
  type OrderEvent,
  type OrderIntent,
  type OrderState,
  type StrategyId,
  transitionOrder,
} from '@hoga/core';
import type { TradingMode } from '@hoga/store';
import { PendingChanges } from '../pending-changes.js';
import type { StrategyBook } from '../portfolio/strategy-book.js';
import { RecentRing } from '../recent-ring.js';
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
import { copyOf, type MutableOrderView, trackedOrderOf } from './order-views.js';

const OPEN: ReadonlySet<OrderState> = new Set([
  'INITIALIZED',
  'SUBMITTED',
  'ACCEPTED',
  'PARTIALLY_FILLED',
  'PENDING_CANCEL',
  'PENDING_MODIFY',
]);

const ZERO = new Decimal(0);
/** The two contexts of a transition (made once, not per event). */
const HAS_FILLS = { hasFills: true } as const;
const NO_FILLS = { hasFills: false } as const;

/** How many closed orders a strategy can still look up with `ctx.order(id)`. */
const KEPT_CLOSED_ORDERS = 1_000;

/** A strategy instance with its context. */
export class StrategyHost implements StrategyContext {
  /** The strategy (set once constructed). */
  strategy!: Strategy<unknown>;
  /** Whether warm-up bars are being delivered. */
  isWarmingUp = false;
  /** Whether the run ended (`onStop` ran): the calls that act do nothing (see {@link StrategyHost.end}). */
  private ended = false;
  private readonly orders = new Map<string, MutableOrderView>();
  private readonly filledAmount = new Map<string, Decimal>();
  /**
   * The ids of the last {@link KEPT_CLOSED_ORDERS} orders closed: each close drops the order it
   * displaces from `orders`.
   */
  private readonly closed = new RecentRing<string>(KEPT_CLOSED_ORDERS);
  /** The orders still open (a strategy asks for them on every decision). */
  private readonly open = new Map<string, MutableOrderView>();
  /** The modifies and cancels of its orders not yet answered (a second one keeps the order pending). */
  private readonly changes = new PendingChanges();

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
  ) {}

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
    const out: OrderView[] = [];
    if (this.open.size === 0) return out;
    const wanted = symbol === undefined ? undefined : symbolOf(symbol, 'openOrders');
    for (const o of this.open.values()) {
      if (wanted === undefined || o.symbol === wanted) out.push(copyOf(o));
    }
    return out;
  }

  /** The strategy's own position in `symbol` (0 when flat), as its sells are judged. */
  heldQuantity(symbol: string): Decimal {
    return this.book.position(symbol)?.quantity ?? ZERO;
  }

  /** What the strategy's open sells of `symbol` other than `exceptId` still sell. */
  openSellRest(symbol: string, exceptId: string): Decimal {
    let rest = ZERO;
    for (const o of this.open.values()) {
      if (o.side !== 'SELL' || o.symbol !== symbol || o.clientOrderId === exceptId || o.quantity === null)
        continue;
      rest = rest.plus(o.quantity.minus(o.filledQuantity));
    }
    return rest;
  }

  order(clientOrderId: ClientOrderId): OrderView | undefined {
    const o = this.orders.get(clientOrderId);
    return o === undefined ? undefined : copyOf(o);
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
    // a fresh view of the same shape as a copy: kept as it is
    const order = trackedOrderOf(intent) as MutableOrderView;
    this.orders.set(order.clientOrderId, order);
    this.open.set(order.clientOrderId, order);
  }

  /**
   * Registers an order of this strategy: a new one (state `INITIALIZED`), or one of an earlier run
   * with its state and fills so far: one still open (its next fills average on from them), or one
   * that ended meanwhile (a restart tells its events: known to `order(id)` among the closed ones).
   */
  track(view: OrderView): void {
    const order = copyOf(view);
    this.orders.set(view.clientOrderId, order);
    if (!OPEN.has(view.state)) {
      const oldest = this.closed.add(view.clientOrderId);
      if (oldest !== undefined) this.orders.delete(oldest);
      return;
    }
    this.open.set(view.clientOrderId, order);
    if (!view.filledQuantity.isZero() && view.averageFillPrice !== null)
      this.filledAmount.set(view.clientOrderId, view.filledQuantity.times(view.averageFillPrice));
  }

  /**
   * A new order denied (its `OrderDenied` is on its way to the strategy): no longer counted open by
   * the orders placed after it in the same hook, and `DENIED` at once, so that a modify or cancel of
   * it in the same hook is refused `order-closed` (before, it went on to the risk gate, which
   * answered `order-not-found: No order … is known`).
   */
  deniedNow(clientOrderId: string): void {
    this.open.delete(clientOrderId);
    const o = this.orders.get(clientOrderId);
    if (o !== undefined && OPEN.has(o.state)) o.state = 'DENIED';
  }

  /** Whether `clientOrderId` is one of this strategy's orders. */
  owns(clientOrderId: string): boolean {
    return this.orders.has(clientOrderId);
  }

  /** Moves this strategy's view of an order by one of its events. */
  apply(event: OrderEvent): void {
    const o = this.orders.get(event.clientOrderId);
    if (o === undefined) return;
    // a modify or cancel answered after the order ended (it raced the fill, the expiry): nothing changes
    if (
      isTerminalOrderState(o.state) &&
      (event.type === 'OrderModifyRejected' || event.type === 'OrderCancelRejected')
    ) {
      return;
    }
    const context = this.changes.note(event, o.state) ?? (o.filledQuantity.isZero() ? NO_FILLS : HAS_FILLS);
    // (an order denied is DENIED from the denial on: see `deniedNow`)
    if (event.type !== 'OrderDenied' || o.state !== 'DENIED') {
      try {
        o.state = transitionOrder(o.state, event.type, context);
      } catch {
        this.log.warn({ state: o.state, event: event.type }, 'order event does not apply to the order state');
      }
    }
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
      const f = event.fill;
      const previous = this.filledAmount.get(o.clientOrderId);
      if (
        previous === undefined &&
        (f.cumulativeQuantity === f.quantity || f.cumulativeQuantity.eq(f.quantity))
      ) {
        // The first fill: its price is the average (no division on the common, one-fill path); its
        // amount, price × quantity, is made only when another fill comes (below)
        o.averageFillPrice = f.price;
      } else {
        // before: the amount kept, else the first fill's (its average × its quantity), else none
        const before =
          previous ??
          (o.averageFillPrice === null || o.filledQuantity.isZero()
            ? undefined
            : o.averageFillPrice.times(o.filledQuantity));
        const value = f.quantity.times(f.price);
        const amount = before === undefined ? value : before.plus(value);
        this.filledAmount.set(o.clientOrderId, amount);
        o.averageFillPrice = amount.dividedBy(f.cumulativeQuantity);
      }
      o.filledQuantity = f.cumulativeQuantity;
    } else if (event.type === 'OrderModified') {
      if (event.price !== undefined) o.price = event.price;
      if (event.quantity !== undefined) o.quantity = event.quantity;
    }
    if (!OPEN.has(o.state)) {
      this.open.delete(o.clientOrderId);
      this.filledAmount.delete(o.clientOrderId);
      this.changes.forget(o.clientOrderId);
      const oldest = this.closed.add(o.clientOrderId);
      if (oldest !== undefined) this.orders.delete(oldest);
    }
  }
}
