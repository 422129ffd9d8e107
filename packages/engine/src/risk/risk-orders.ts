/**
 * The risk book's orders: the open ones (with their count per strategy and the count of those
 * with a limit price or an amount) and the last closed ones, moved by the order events' statuses.
 * Fills are booked by the {@link RiskBook}, which then settles the order here.
 *
 * @module
 */
import { Decimal, type KnownBrokerOrderStatus, type OrderEvent } from '@hoga/core';
import { PendingChanges } from '../pending-changes.js';
import { RecentRing } from '../recent-ring.js';
import type { RawIntentFields } from './intent-fields.js';
import {
  cachedView,
  isPositive,
  isPriced,
  type MutableOrder,
  OpenCounts,
  restoredOrder,
} from './risk-book-records.js';
import type { OpenOrderView, RestoredRiskOrder, RiskOrder } from './risk-types.js';

const ZERO = new Decimal(0);

const CLOSED: ReadonlySet<KnownBrokerOrderStatus> = new Set(['FILLED', 'CANCELED', 'REJECTED']);

/**
 * Closed orders the book still knows (for events and commands naming one, such as a cancel that
 * raced a fill; the strategies' view keeps 1,000): a long run's book does not grow with every order.
 */
export const KEPT_CLOSED_ORDERS = 4_096;

/** See the module description. */
export class RiskOrders {
  /**
   * The last {@link KEPT_CLOSED_ORDERS} orders closed, searched newest first only when an event or a
   * command names an order that is not open (a backtest never searches it).
   */
  private readonly closed = new RecentRing<MutableOrder>(KEPT_CLOSED_ORDERS);
  /** Ids of the orders still open (the checks walk these, not every order ever seen). */
  private readonly open = new Map<string, MutableOrder>();
  /** Open orders per strategy (the entries of `open` by their strategy). */
  private readonly openCounts = new OpenCounts();
  /** Open orders with a limit price or an amount (the others are worth 0 until a price is known). */
  private pricedOpen = 0;
  /** The open orders' views since the last order event. */
  private openCache: readonly OpenOrderView[] | null = null;
  /** The modifies and cancels not yet answered: an answer while another is pending keeps the order pending. */
  private readonly changes = new PendingChanges();

  /** A submitted order: open, nothing filled (`PENDING`). */
  submit(event: Extract<OrderEvent, { type: 'OrderSubmitted' }>): void {
    const i = event.intent;
    // the intent's fields read as they are (see intentFields), with no object made for them
    const fields = i as unknown as RawIntentFields;
    const strategyId = event.strategyId ?? i.strategyId ?? 'manual';
    const order: MutableOrder = {
      clientOrderId: event.clientOrderId,
      strategyId,
      symbol: i.instrument.symbol,
      market: i.instrument.market,
      currency: i.instrument.currency,
      side: i.side,
      orderType: i.orderType,
      timeInForce: fields.timeInForce ?? 'DAY',
      price: fields.price ?? null,
      quantity: fields.quantity ?? null,
      amount: fields.amount ?? null,
      filledQuantity: ZERO,
      filledAmount: ZERO,
      status: 'PENDING',
      view: undefined,
      openCount: this.openCounts.of(strategyId),
    };
    this.putOpen(order);
  }

  /**
   * An order still open from before this process (an earlier run's, restored from the store as the
   * broker left it): open as if submitted, with its fills so far.
   */
  restore(order: RestoredRiskOrder): void {
    this.putOpen(restoredOrder(order, this.openCounts.of(order.strategyId)));
  }

  /**
   * Moves an order's status by an event other than a submit or a fill.
   *
   * @returns whether anything of the order changed
   */
  transition(order: MutableOrder, event: OrderEvent): boolean {
    const before = order.status;
    switch (event.type) {
      case 'OrderDenied':
      case 'OrderRejected':
        order.status = 'REJECTED';
        break;
      case 'OrderCanceled':
      case 'OrderExpired':
        order.status = 'CANCELED';
        break;
      case 'OrderCancelRequested':
        this.changes.note(event, 'PENDING_CANCEL');
        order.status = 'PENDING_CANCEL';
        break;
      case 'OrderModifyRequested':
        this.changes.note(event, 'PENDING_MODIFY');
        // a cancel pending outranks it (as in core's order states)
        if (order.status !== 'PENDING_CANCEL') order.status = 'PENDING_REPLACE';
        break;
      case 'OrderModified':
        if (event.price !== undefined && this.open.get(order.clientOrderId) === order) {
          // a market order made a limit order (or back) is counted again
          this.pricedOpen += (event.price === null ? 0 : 1) - (order.price === null ? 0 : 1);
        }
        if (event.price !== undefined) order.price = event.price;
        if (event.quantity !== undefined) order.quantity = event.quantity;
        this.answered(order, event);
        break;
      case 'OrderCancelRejected':
      case 'OrderModifyRejected':
        if (!CLOSED.has(order.status)) this.answered(order, event);
        // only the status can have changed
        return order.status !== before;
      case 'OrderAccepted':
        if (!CLOSED.has(order.status))
          order.status = isPositive(order.filledQuantity) ? 'PARTIAL_FILLED' : 'PENDING';
        // only the status can have changed (an accept of a pending order changes nothing)
        return order.status !== before;
    }
    return true;
  }

  /**
   * A modify or cancel of an open order answered (done or refused): the order stays pending while
   * another change of it is unanswered, or when the refusal is of a change never sent; a modify's
   * answer leaves a pending cancel pending; else it is working again.
   */
  private answered(order: MutableOrder, event: OrderEvent): void {
    const state =
      order.status === 'PENDING_CANCEL'
        ? 'PENDING_CANCEL'
        : order.status === 'PENDING_REPLACE'
          ? 'PENDING_MODIFY'
          : 'ACCEPTED';
    const still = this.changes.note(event, state)?.stillPending;
    if (
      still === 'PENDING_CANCEL' ||
      (still === undefined && state === 'PENDING_CANCEL' && event.type !== 'OrderCancelRejected')
    )
      order.status = 'PENDING_CANCEL';
    else if (still === 'PENDING_MODIFY') order.status = 'PENDING_REPLACE';
    else order.status = isPositive(order.filledQuantity) ? 'PARTIAL_FILLED' : 'PENDING';
  }

  /**
   * After an event moved `order`: its view and the open orders' list are rebuilt when next asked
   * for (when it `changed`), and a closed order leaves the open ones.
   */
  settle(order: MutableOrder, changed: boolean): void {
    if (changed) {
      order.view = undefined;
      this.openCache = null;
    }
    if (CLOSED.has(order.status) && this.open.delete(order.clientOrderId)) {
      this.changes.forget(order.clientOrderId);
      order.openCount.n -= 1;
      if (isPriced(order)) this.pricedOpen -= 1;
      this.closed.add(order);
    }
  }

  /** The last order submitted with an id: the open one (every submit puts its order there), else the last closed. */
  known(clientOrderId: string): MutableOrder | undefined {
    const open = this.open.get(clientOrderId);
    return open ?? this.closedOrder(clientOrderId);
  }

  /** The open orders' views (one list until the next order event). */
  openOrders(): readonly OpenOrderView[] {
    if (this.openCache !== null) return this.openCache;
    const out: OpenOrderView[] = [];
    for (const o of this.open.values()) out.push(cachedView(o));
    this.openCache = out;
    return out;
  }

  /** Open orders with a limit price or an amount. */
  pricedOpenOrderCount(): number {
    return this.pricedOpen;
  }

  /** A strategy's open orders. */
  openOrderCount(strategyId: string): number {
    return this.openCounts.count(strategyId);
  }

  /** The view of an order the book knows (open, or among the last closed). */
  order(clientOrderId: string): RiskOrder | undefined {
    const o = this.known(clientOrderId);
    return o === undefined ? undefined : cachedView(o);
  }

  /** Puts an order in the open map (in place of an open one of the same id). */
  private putOpen(order: MutableOrder): void {
    this.openCache = null;
    const replaced = this.open.get(order.clientOrderId);
    if (replaced !== undefined) {
      replaced.openCount.n -= 1;
      if (isPriced(replaced)) this.pricedOpen -= 1;
    }
    this.open.set(order.clientOrderId, order);
    order.openCount.n += 1;
    if (isPriced(order)) this.pricedOpen += 1;
  }

  /**
   * The newest recently closed order with an id (a method of its own: the closure in `known`
   * would make V8 allocate a context on every call, once per order event).
   */
  private closedOrder(clientOrderId: string): MutableOrder | undefined {
    return this.closed.findNewest((o) => o.clientOrderId === clientOrderId);
  }
}
