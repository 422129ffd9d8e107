/**
 * The broker model's simulated venue: takes order commands, keeps working orders, and fills them
 * against market views through a {@link FillModel} (bars in backtests, order books in paper),
 * booking every fill on a {@link Ledger} with the broker's fees, tax and rounding. Events are
 * emitted synchronously, in the order they happen, with deterministic ids. How an order is built
 * from its intent and admitted on arrival is in `order-admission.ts`, what a modify or cancel does
 * to it in `venue-changes.ts`, its options in `simulated-venue-options.ts`.
 *
 * @module
 */
import { checkLimitPrice, type Ledger, minOrderAmountRejection, tradeCharges } from '@hoga/broker-model';
import {
  type BrokerOrderId,
  type Decimal,
  exactIntOf,
  isTerminalOrderState,
  type OrderEvent,
  type OrderIntent,
  OrderSide,
} from '@hoga/core';
import type { Observable } from 'rxjs';
import type { OrderCommand, SubmitOrder } from '../commands/order-commands.js';
import { DayOrderEnds } from './day-order-end.js';
import type { ExecutionVenue } from './execution-venue.js';
import { admissionRefusal, buildOrder } from './order-admission.js';
import { countSlice, fillOf, isWorking, type SimulatedOrder } from './simulated-order.js';
import type { SimulatedVenueOptions, VenueOrderRules } from './simulated-venue-options.js';
import { VenueChanges } from './venue-changes.js';
import { VenueEvents } from './venue-events.js';
import { VenueOrders } from './venue-orders.js';

export type { SimulatedVenueOptions, VenueOrderRules } from './simulated-venue-options.js';

const CODE_BUYING_POWER = 'insufficient-buying-power';
/** What `execute` resolves with: the venue's work is done synchronously. */
const DONE: Promise<void> = Promise.resolve();

/**
 * A venue over the broker model, generic over the market view `M` its fill model matches against.
 *
 * @typeParam M - the market view (`Bar` for backtests, an order book for paper trading)
 */
export class SimulatedVenue<M> implements ExecutionVenue {
  private readonly orders = new VenueOrders();
  private readonly events: VenueEvents;
  private readonly dayEnds = new DayOrderEnds();
  /** What a modify or cancel does to an order. */
  private readonly changes: VenueChanges;
  /** The broker's rules a new order is judged by as the venue takes it (none: the risk module judges them). */
  private orderRules: VenueOrderRules | undefined;

  /** Every order event, synchronously as it happens. */
  readonly events$: Observable<OrderEvent>;

  /** @param options - fill model, ledger, clock, price source */
  constructor(private readonly options: SimulatedVenueOptions<M>) {
    this.events = new VenueEvents(options.idPrefix ?? 'sim');
    this.events$ = this.events.events$;
    this.changes = new VenueChanges({
      orders: this.orders,
      events: this.events,
      ledger: options.ledger,
      clock: options.clock,
      closeCanceled: (order) => this.close(order, 'CANCELED'),
      rules: () => this.orderRules,
    });
  }

  /** The account's books. */
  get ledger(): Ledger {
    return this.options.ledger;
  }

  /**
   * Judges each new order by the broker's `rules` as the venue takes it, as the broker does live:
   * an order they refuse is told `OrderSubmitted`, then `OrderRejected` with the broker's code and
   * message, and ends REJECTED (before, paper and backtests denied it before the venue, and the
   * strategy heard `OrderDenied`, never the `OrderRejected` live's strategy hears). A modify or
   * cancel of a working order they refuse is told `OrderModifyRequested` / `OrderCancelRequested`,
   * then `OrderModifyRejected` / `OrderCancelRejected` with the broker's code and `sent: true`, the
   * order working on as it was, as live's strategy hears a change the broker refuses (before, they
   * were refused before the venue: the rejection alone, `sent: false`). Given only while the risk
   * module is disabled: on, the risk module judges the same rules before the venue and denies
   * (`OrderDenied`, `sent: false`) in every mode, and the venue does no extra work per order.
   */
  judgeOrdersBy(rules: VenueOrderRules | undefined): void {
    this.orderRules = rules;
  }

  /** Number of working orders. */
  get workingCount(): number {
    return this.orders.workingCount;
  }

  /** @inheritdoc */
  execute(command: OrderCommand): Promise<void> {
    this.executeNow(command);
    return DONE;
  }

  /** @inheritdoc */
  executeNow(command: OrderCommand): void {
    switch (command.type) {
      case 'SubmitOrder':
        this.submit(command);
        break;
      case 'ModifyOrder':
        this.changes.modify(command);
        break;
      case 'CancelOrder':
        this.changes.cancel(command);
        break;
      default:
        throw new Error(`unknown command ${String((command satisfies never as { type: string }).type)}`);
    }
  }

  /**
   * The working orders of `symbol`, as a list the venue keeps up to date in place (the same array
   * for the venue's life): a caller walking many market views of a symbol keeps it at hand and
   * asks for a match only when it is not empty.
   */
  workingOf(symbol: string): readonly SimulatedOrder[] {
    return this.orders.workingOf(symbol);
  }

  /** The order `clientOrderId` while the venue knows it (working, or one of the last ended), else undefined. */
  order(clientOrderId: string): SimulatedOrder | undefined {
    return this.orders.get(clientOrderId) ?? this.orders.endedRecently(clientOrderId);
  }

  /** Whether `symbol` has working orders. */
  hasWorking(symbol: string): boolean {
    return this.orders.workingOf(symbol).length > 0;
  }

  /** The symbols with working orders (the market views the venue needs). */
  workingSymbols(): string[] {
    return this.orders.workingSymbols();
  }

  /**
   * Matches the working orders of `symbol` against a market view. A DAY order ends (expires) when a
   * view of a later session arrives than the first one it was matched against.
   *
   * @param symbol - the view's symbol
   * @param view - a bar or a book
   * @param sessionKey - identifies the trading session of the view (e.g. the trading date)
   */
  onMarket(symbol: string, view: M, sessionKey: number): void {
    const list = this.orders.workingOf(symbol);
    if (list.length === 0) return;
    const now = this.options.clock.nowMs();
    // a fill or an expiry takes the order out of `list`: walk a copy (none needed for one order)
    if (list.length === 1) this.match(list[0] as SimulatedOrder, view, sessionKey, now);
    else for (const order of list.slice()) this.match(order, view, sessionKey, now);
  }

  /**
   * Ends a working order as its trading day ended (a DAY order at the broker's end of day), with
   * its `OrderExpired` stamped `at` (default now); an order not working is left alone.
   *
   * @param clientOrderId - the order
   * @param at - when it ended (the end of its trading day)
   * @returns whether it was working and has now expired
   */
  expire(clientOrderId: string, at?: number): boolean {
    const order = this.orders.get(clientOrderId);
    if (order === undefined || !isWorking(order)) return false;
    this.close(order, 'EXPIRED');
    const now = this.options.clock.nowMs();
    this.events.expired(order, now, at ?? now);
    return true;
  }

  /**
   * Ends every working DAY order whose trading day ended before `time` (any symbol), each with its
   * `OrderExpired` stamped at that end, as the broker cancels it then: a backtest calls it before
   * each timer and bar, so nothing after the end of the day sees the order working (before, it
   * worked on until the first bar of its own symbol in a later session). A bar closing at the end
   * itself (KR 20:00) is still matched: the order ends after it.
   *
   * (An index loop: an iterator a bar was the daily bench's largest allocation, about 50 MB.)
   *
   * A backtest gives its clock (`clock`), set to each order's end before its `OrderExpired` goes
   * out: the strategy hears of the expiry at 20:00, as paper and live do, and an order it places in
   * answer is an order of then (on daily bars, for the next open). Before, the clock stood at the
   * bar or timer about to be handled: on daily bars the next day's close, where a market order
   * placed in answer met that bar as one placed on its close, did not fill, and expired itself.
   *
   * @param time - the instant about to be handled (a timer's due time, a bar's close)
   * @param clock - the backtest's clock, moved (forward only) to each order's end as it expires
   */
  expireDayOrdersBefore(time: number, clock?: { nowMs(): number; set(at: number): void }): void {
    const due = this.dayEnds.due(time, this.orders);
    for (let i = 0; i < due.length; i++) {
      const order = due[i] as SimulatedOrder;
      if (clock !== undefined && order.dayEnd > clock.nowMs()) clock.set(order.dayEnd);
      this.expire(order.clientOrderId, order.dayEnd);
    }
  }

  /**
   * Says that an order this venue never worked (one an earlier run left working) ended with its
   * trading day at `at`: its `OrderExpired` goes out like the venue's own events, to the runtime,
   * the strategy and the journal.
   */
  expireEarlier(order: Pick<SimulatedOrder, 'clientOrderId' | 'strategyId'>, at: number): void {
    this.events.expired(order, this.options.clock.nowMs(), at);
  }

  private match(order: SimulatedOrder, view: M, sessionKey: number, now: number): void {
    const first = order.sessionKey === undefined;
    if (first) order.sessionKey = sessionKey;
    else if (order.sessionKey !== sessionKey) {
      this.close(order, 'EXPIRED');
      this.events.expired(order, now);
      return;
    }
    const slices = this.options.fillModel.match(order, view, now);
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i] as (typeof slices)[number];
      if (!this.fill(order, slice.quantity, slice.price, slice.time)) break;
    }
    // its trading day is the one of the first bar it meets; its end is looked up only when it works
    // on past that bar (a backtest's market orders fill on it: the calendar is not read for them)
    if (first && order.dayEnd === Number.POSITIVE_INFINITY && !isTerminalOrderState(order.state)) {
      order.dayEnd = this.dayEnds.of(order.symbol, order.timeInForce, now);
      this.dayEnds.note(order);
    }
  }

  /**
   * The closing auction of a working order at the close (`CLS`, which the book fill model leaves
   * alone during the session): what its limit allows of it fills at `price` (the day's closing
   * price), as far as cash or shares allow, and the rest is canceled (`reason: 'close'`), as the
   * broker ends a CLS order at the close. An order the venue no longer works is left alone.
   *
   * @param clientOrderId - the order
   * @param price - the closing price
   * @param time - the close (the fill's and the cancel's time)
   */
  closeAuction(clientOrderId: string, price: Decimal, time: number): void {
    const order = this.orders.get(clientOrderId);
    if (order === undefined || isTerminalOrderState(order.state) || order.quantity === null) return;
    const limit = order.price;
    const crosses = limit === null || (order.side === OrderSide.BUY ? price.lte(limit) : price.gte(limit));
    const left = order.quantity.minus(order.filledQuantity);
    if (crosses && left.gt(0) && !this.fill(order, left, price, time)) return;
    if (isTerminalOrderState(order.state)) return;
    this.close(order, 'CANCELED');
    this.events.canceled(order, this.options.clock.nowMs(), 'close', time);
  }

  /** @inheritdoc */
  dispose(): Promise<void> {
    this.events.complete();
    return Promise.resolve();
  }

  /**
   * Works again an order an earlier run left working (paper's restart), as it stood: its whole
   * quantity (or amount) with what filled of it so far, the rest reserved anew, under the broker id
   * it had (the one its strategy was told), or a new one when `brokerOrderId` is not given; no
   * event, as live tracks an earlier run's order again (its later fills count on from what
   * filled). Its trading day is the restart's.
   *
   * @param fills - how many fills it had (its fill ids go on from there)
   * @param brokerOrderId - its current broker id, kept (an earlier run's, not of this venue's prefix)
   * @returns its broker order id: `brokerOrderId`, or the new one
   */
  restore(
    intent: OrderIntent,
    filledQuantity: Decimal,
    filledAmount: Decimal,
    fills: number,
    brokerOrderId?: BrokerOrderId,
  ): BrokerOrderId {
    const now = this.options.clock.nowMs();
    // a kept id takes no number of this venue's sequence
    const ids = brokerOrderId === undefined ? this.events : { nextBrokerId: () => brokerOrderId };
    const order = buildOrder(intent, now, this.options, ids, this.dayEnds);
    order.filledQuantity = filledQuantity;
    order.filledAmount = filledAmount;
    // a fill counts on from what filled (countSlice takes a first slice's figures as the order's)
    order.fills = Math.max(fills, filledQuantity.isZero() && filledAmount.isZero() ? 0 : 1);
    order.state = filledQuantity.isZero() ? 'ACCEPTED' : 'PARTIALLY_FILLED';
    this.orders.add(order);
    this.options.ledger.reserve(order.clientOrderId, order);
    this.orders.work(order);
    this.dayEnds.note(order);
    return order.brokerOrderId;
  }

  private submit(command: SubmitOrder): void {
    const intent = command.intent;
    const now = this.options.clock.nowMs();
    const order = buildOrder(intent, now, this.options, this.events, this.dayEnds);
    const instrument = order.instrument;
    const limit = order.price;
    // the broker's rules with the risk module disabled, judged on the account before this order
    const rules = this.orderRules;
    const broker = rules === undefined ? null : rules(command);
    this.orders.add(order);
    this.events.submitted(order, intent, now);
    if (broker !== null) {
      order.state = 'REJECTED';
      this.orders.end(order);
      this.events.rejected(order, now, broker.code, broker.reason);
      return;
    }
    // the broker's price grid (a backtest's gate applies the owner's guards only): a KR price off
    // its ticks is refused, a US price truncated onto its grid, as the broker does
    if (limit !== null) {
      const grid = checkLimitPrice(instrument, limit);
      if (!grid.accepted) {
        order.state = 'REJECTED';
        this.orders.end(order);
        this.events.rejected(order, now, grid.code, grid.message);
        return;
      }
      if (grid.price !== null && !grid.price.eq(limit)) {
        order.price = grid.price;
        order.reservePrice = grid.price;
      }
    }
    // the broker takes an amount order under its minimum and its record then shows REJECTED
    const belowMinimum = minOrderAmountRejection(order.orderAmount);
    if (belowMinimum !== null) {
      order.state = 'REJECTED';
      this.orders.end(order);
      this.events.rejected(order, now, 'broker-rejected', belowMinimum);
      return;
    }
    const refusal = admissionRefusal(order, this.options.ledger);
    if (refusal !== null) {
      order.state = 'REJECTED';
      this.orders.end(order);
      this.events.rejected(order, now, CODE_BUYING_POWER, refusal);
      return;
    }
    this.options.ledger.reserve(order.clientOrderId, order);
    order.state = 'ACCEPTED';
    this.orders.work(order);
    this.dayEnds.note(order);
    this.events.accepted(order, now);
  }

  /** Books one slice; false when the order stopped (cash ran out). */
  private fill(order: SimulatedOrder, quantity: Decimal, price: Decimal, time: number): boolean {
    const ledger = this.options.ledger;
    const charges = tradeCharges({
      market: order.instrument.market,
      currency: order.currency,
      securityType: order.instrument.securityType,
      side: order.side,
      quantity,
      price,
    });
    const now = this.options.clock.nowMs();
    if (order.side === OrderSide.BUY) {
      // amount + commission, in numbers when both are safe integers (NaN fails isSafeInteger)
      const costInt = exactIntOf(charges.amount) + exactIntOf(charges.commission);
      const cost = Number.isSafeInteger(costInt) ? costInt : charges.amount.plus(charges.commission);
      ledger.release(order.clientOrderId);
      if (!ledger.affords(order.currency, cost)) {
        this.close(order, 'CANCELED');
        this.events.canceled(order, now, CODE_BUYING_POWER);
        return false;
      }
    }
    ledger.apply({
      symbol: order.symbol,
      currency: order.currency,
      side: order.side,
      quantity,
      amount: charges.amount,
      commission: charges.commission,
      tax: charges.tax,
    });
    const done = countSlice(order, quantity, charges.amount, price);
    const fill = fillOf(order, quantity, price, charges, time);
    if (done) this.close(order, 'FILLED');
    else {
      order.state = 'PARTIALLY_FILLED';
      ledger.reserve(order.clientOrderId, order);
    }
    this.events.filled(order, fill, done, now);
    return !done;
  }

  private close(order: SimulatedOrder, state: 'FILLED' | 'CANCELED' | 'EXPIRED'): void {
    order.state = state;
    this.options.ledger.release(order.clientOrderId);
    this.orders.end(order);
  }
}
