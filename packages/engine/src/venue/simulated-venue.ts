/**
 * The broker model's simulated venue: takes order commands, keeps working orders, and fills them
 * against market views through a {@link FillModel} (bars in backtests, order books in paper),
 * booking every fill on a {@link Ledger} with the broker's fees, tax and rounding. Events are
 * emitted synchronously, in the order they happen, with deterministic ids.
 *
 * @module
 */
import { checkLimitPrice, type FillModel, type Ledger, reservedCash, tradeCharges } from '@hoga/broker-model';
import {
  type BrokerOrderId,
  type Clock,
  Decimal,
  decimalOfNumber,
  exactIntOf,
  type Fill,
  type Instrument,
  isTerminalOrderState,
  Money,
  type OrderEvent,
  OrderSide,
  OrderType,
  TimeInForce,
} from '@hoga/core';
import type { Observable } from 'rxjs';
import type { CancelOrder, ModifyOrder, OrderCommand, SubmitOrder } from '../commands/order-commands.js';
import { EventHub } from './event-hub.js';
import type { ExecutionVenue } from './execution-venue.js';
import { isWorking, ofStrategy, type SimulatedOrder, zeroMoney } from './simulated-order.js';
import { VenueOrders } from './venue-orders.js';

const ZERO = new Decimal(0);
const CODE_BUYING_POWER = 'insufficient-buying-power';
/** What `execute` resolves with: the venue's work is done synchronously. */
const DONE: Promise<void> = Promise.resolve();

/** Options of {@link SimulatedVenue}. */
export interface SimulatedVenueOptions<M> {
  /** How orders fill against a market view. */
  readonly fillModel: FillModel<M>;
  /** The account's books (starting cash and holdings). */
  readonly ledger: Ledger;
  /** The engine clock (acceptance and event times). */
  readonly clock: Clock;
  /** The last known price of a symbol (market buys reserve cash at it), or undefined. */
  readonly lastPrice: (symbol: string) => number | undefined;
  /** Prefix of broker order ids and event ids (default `sim`). */
  readonly idPrefix?: string;
  /**
   * The venue's own instrument of a symbol (its real security type: ETF/ETN ticks and taxes), or
   * undefined to keep the intent's; default: the intent's.
   */
  readonly instrument?: ((symbol: string) => Instrument | undefined) | undefined;
}

/**
 * A venue over the broker model, generic over the market view `M` its fill model matches against.
 *
 * @typeParam M - the market view (`Bar` for backtests, an order book for paper trading)
 */
export class SimulatedVenue<M> implements ExecutionVenue {
  private readonly hub = new EventHub<OrderEvent>();
  private readonly orders = new VenueOrders();
  private readonly prefix: string;
  private sequence = 0;
  private eventSequence = 0;

  /** Every order event, synchronously as it happens. */
  readonly events$: Observable<OrderEvent> = this.hub.events$;

  /** @param options - fill model, ledger, clock, price source */
  constructor(private readonly options: SimulatedVenueOptions<M>) {
    this.prefix = options.idPrefix ?? 'sim';
  }

  /** The account's books. */
  get ledger(): Ledger {
    return this.options.ledger;
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
        this.modify(command);
        break;
      case 'CancelOrder':
        this.cancel(command);
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

  /** The order `clientOrderId` while the venue knows it (working, or ended this run), else undefined. */
  order(clientOrderId: string): SimulatedOrder | undefined {
    return this.orders.get(clientOrderId);
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

  private match(order: SimulatedOrder, view: M, sessionKey: number, now: number): void {
    if (order.sessionKey === undefined) order.sessionKey = sessionKey;
    else if (order.sessionKey !== sessionKey) {
      this.close(order, 'EXPIRED');
      this.emit({ type: 'OrderExpired', ...this.base(order, now) });
      return;
    }
    const slices = this.options.fillModel.match(order, view, now);
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i] as (typeof slices)[number];
      if (!this.fill(order, slice.quantity, slice.price, slice.time)) break;
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
    this.emit({
      type: 'OrderCanceled',
      ...this.base(order, this.options.clock.nowMs(), time),
      brokerOrderId: order.brokerOrderId,
      reason: 'close',
    });
  }

  /** @inheritdoc */
  dispose(): Promise<void> {
    this.hub.complete();
    return Promise.resolve();
  }

  private submit(command: SubmitOrder): void {
    const intent = command.intent;
    const now = this.options.clock.nowMs();
    const instrument = this.options.instrument?.(intent.instrument.symbol) ?? intent.instrument;
    const isAmount = intent.sizing === 'AMOUNT';
    const limit = intent.sizing === 'QUANTITY' && intent.orderType === OrderType.LIMIT ? intent.price : null;
    const last = this.options.lastPrice(instrument.symbol);
    const reservePrice = limit ?? (last === undefined ? ZERO : decimalOfNumber(last));
    const order: SimulatedOrder = {
      clientOrderId: intent.clientOrderId,
      brokerOrderId: this.nextBrokerId(),
      strategyId: intent.strategyId,
      instrument,
      symbol: instrument.symbol,
      currency: instrument.currency,
      side: intent.side,
      orderType: intent.orderType,
      timeInForce: intent.sizing === 'AMOUNT' ? TimeInForce.DAY : intent.timeInForce,
      price: limit,
      quantity: isAmount ? null : intent.quantity,
      orderAmount: isAmount ? intent.amount : null,
      filledQuantity: ZERO,
      filledAmount: ZERO,
      acceptedAt: now,
      reservePrice,
      state: 'SUBMITTED',
      sessionKey: undefined,
      fills: 0,
    };
    this.orders.add(order);
    this.emit(
      ofStrategy(
        {
          type: 'OrderSubmitted',
          eventId: this.nextEventId(),
          clientOrderId: order.clientOrderId,
          tsEvent: now,
          tsInit: now,
          intent,
        },
        order,
      ),
    );
    // the broker's price grid (a backtest's gate applies the owner's guards only): a KR price off
    // its ticks is refused, a US price truncated onto its grid, as the broker does
    if (limit !== null) {
      const grid = checkLimitPrice(instrument, limit);
      if (!grid.accepted) {
        order.state = 'REJECTED';
        this.orders.end(order);
        this.emit({ type: 'OrderRejected', ...this.base(order, now), code: grid.code, reason: grid.message });
        return;
      }
      if (grid.price !== null && !grid.price.eq(limit)) {
        order.price = grid.price;
        order.reservePrice = grid.price;
      }
    }
    const refusal = this.admission(order);
    if (refusal !== null) {
      order.state = 'REJECTED';
      this.orders.end(order);
      this.emit({
        type: 'OrderRejected',
        ...this.base(order, now),
        code: CODE_BUYING_POWER,
        reason: refusal,
      });
      return;
    }
    this.options.ledger.reserve(order.clientOrderId, order);
    order.state = 'ACCEPTED';
    this.orders.work(order);
    this.emit(
      ofStrategy(
        {
          type: 'OrderAccepted',
          eventId: this.nextEventId(),
          clientOrderId: order.clientOrderId,
          tsEvent: now,
          tsInit: now,
          brokerOrderId: order.brokerOrderId,
        },
        order,
      ),
    );
  }

  /** Null when the account can take the order, else why not (the broker's buying-power check). */
  private admission(order: SimulatedOrder): string | null {
    const ledger = this.options.ledger;
    if (order.side === OrderSide.SELL) {
      const sellable = ledger.sellableQuantity(order.symbol);
      const wanted = order.quantity ?? ZERO;
      return wanted.gt(sellable) ? `only ${sellable.toFixed()} ${order.symbol} can be sold` : null;
    }
    const needed = reservedCash(order);
    if (ledger.affords(order.currency, needed)) return null;
    const power = ledger.buyingPower(order.currency);
    return `buying power ${power.toFixed()} ${order.currency} is below the ${needed.toFixed()} ${order.currency} this order needs`;
  }

  /** The working order a modify or cancel addresses, or undefined after emitting its rejection. */
  private workingOrRejected(
    command: ModifyOrder | CancelOrder,
    type: 'OrderModifyRejected' | 'OrderCancelRejected',
  ): SimulatedOrder | undefined {
    const order = this.orders.get(command.clientOrderId);
    if (order !== undefined && isWorking(order)) return order;
    const now = this.options.clock.nowMs();
    const known = order !== undefined || this.orders.endedRecently(command.clientOrderId);
    this.emit({
      type,
      eventId: this.nextEventId(),
      clientOrderId: command.clientOrderId,
      strategyId: command.strategyId,
      tsEvent: now,
      tsInit: now,
      code: known ? 'already-filled' : 'order-not-found',
      reason: `order ${command.clientOrderId} is not working`,
    });
    return undefined;
  }

  private modify(command: ModifyOrder): void {
    const order = this.workingOrRejected(command, 'OrderModifyRejected');
    if (order === undefined) return;
    const now = this.options.clock.nowMs();
    let price = command.price;
    if (price !== undefined) {
      const grid = checkLimitPrice(order.instrument, price);
      if (!grid.accepted) {
        this.emit({
          type: 'OrderModifyRejected',
          ...this.base(order, now),
          code: grid.code,
          reason: grid.message,
        });
        return;
      }
      if (grid.price !== null) price = grid.price;
    }
    const previous = order.brokerOrderId;
    // as live reports it: the modify asked for (the order pending), then done
    this.emit({
      type: 'OrderModifyRequested',
      ...this.base(order, now),
      brokerOrderId: previous,
      ...(price === undefined ? {} : { price }),
      ...(command.quantity === undefined ? {} : { quantity: command.quantity }),
    });
    if (price !== undefined) order.price = price;
    // a KR modify's quantity replaces the unfilled rest (as the broker's new order does)
    if (command.quantity !== undefined) order.quantity = order.filledQuantity.plus(command.quantity);
    order.brokerOrderId = this.nextBrokerId();
    this.options.ledger.reserve(order.clientOrderId, order);
    this.emit({
      type: 'OrderModified',
      ...this.base(order, now),
      brokerOrderId: order.brokerOrderId,
      previousBrokerOrderId: previous,
      ...(price === undefined ? {} : { price }),
      ...(command.quantity === undefined || order.quantity === null ? {} : { quantity: order.quantity }),
    });
  }

  private cancel(command: CancelOrder): void {
    const order = this.workingOrRejected(command, 'OrderCancelRejected');
    if (order === undefined) return;
    const now = this.options.clock.nowMs();
    // as live reports it: the cancel asked for (the order pending), then done
    this.emit({ type: 'OrderCancelRequested', ...this.base(order, now), brokerOrderId: order.brokerOrderId });
    this.close(order, 'CANCELED');
    this.emit({
      type: 'OrderCanceled',
      ...this.base(order, now),
      brokerOrderId: order.brokerOrderId,
      reason: 'user',
    });
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
        this.emit({
          type: 'OrderCanceled',
          ...this.base(order, now),
          brokerOrderId: order.brokerOrderId,
          reason: CODE_BUYING_POWER,
        });
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
    // the first slice's figures are the filled ones (0 + x is x)
    const first = order.fills === 0;
    order.filledQuantity = first ? quantity : order.filledQuantity.plus(quantity);
    order.filledAmount = first ? charges.amount : order.filledAmount.plus(charges.amount);
    order.fills++;
    const done =
      order.quantity !== null
        ? order.filledQuantity === order.quantity || order.filledQuantity.gte(order.quantity)
        : (order.orderAmount ?? ZERO).minus(order.filledAmount).lt(price.times('0.000001'));
    const fill: Fill = {
      fillId: `${order.clientOrderId}-${order.fills}`,
      clientOrderId: order.clientOrderId,
      brokerOrderId: order.brokerOrderId,
      symbol: order.symbol,
      side: order.side,
      quantity,
      price,
      commission: Money.of(charges.commission, order.currency),
      // always stated, 0 on a buy, as the live order manager's fills state it
      tax: charges.tax.isZero() ? zeroMoney(order.currency) : Money.of(charges.tax, order.currency),
      cumulativeQuantity: order.filledQuantity,
      tsEvent: time,
    };
    if (done) this.close(order, 'FILLED');
    else {
      order.state = 'PARTIALLY_FILLED';
      ledger.reserve(order.clientOrderId, order);
    }
    this.emit(
      ofStrategy(
        {
          type: done ? 'OrderFilled' : 'OrderPartiallyFilled',
          eventId: this.nextEventId(),
          clientOrderId: order.clientOrderId,
          tsEvent: time,
          tsInit: now,
          fill,
        },
        order,
      ),
    );
    return !done;
  }

  private close(order: SimulatedOrder, state: 'FILLED' | 'CANCELED' | 'EXPIRED'): void {
    order.state = state;
    this.options.ledger.release(order.clientOrderId);
    this.orders.end(order);
  }

  private base(order: SimulatedOrder, now: number, tsEvent = now) {
    return {
      eventId: this.nextEventId(),
      clientOrderId: order.clientOrderId,
      ...(order.strategyId === undefined ? {} : { strategyId: order.strategyId }),
      tsEvent,
      tsInit: now,
    };
  }

  private emit(event: OrderEvent): void {
    this.hub.emit(event);
  }

  private nextBrokerId(): BrokerOrderId {
    this.sequence++;
    return `${this.prefix}-${this.sequence}` as BrokerOrderId;
  }

  private nextEventId(): string {
    this.eventSequence++;
    return `${this.prefix}-e${this.eventSequence}`;
  }
}
