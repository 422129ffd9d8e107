/**
 * A strategy's view of its orders (`ctx.order`, `ctx.openOrders`): each one tracked from its
 * placing (or, at a restart, as the store holds it), moved by its events through core's order
 * states, its fills averaged; the last {@link KEPT_CLOSED_ORDERS} closed ones still found.
 *
 * @module
 */
import {
  type ClientOrderId,
  Decimal,
  isTerminalOrderState,
  type Logger,
  type OrderEvent,
  type OrderIntent,
  type OrderState,
  transitionOrder,
} from '@hoga/core';
import { PendingChanges } from '../pending-changes.js';
import { RecentRing } from '../recent-ring.js';
import type { OrderView } from '../strategy/strategy-context.js';
import { symbolOf } from './intent-input.js';
import { copyOf, type MutableOrderView, trackedOrderOf } from './order-views.js';

const OPEN: ReadonlySet<OrderState> = new Set([
  'INITIALIZED',
  'SUBMITTED',
  'ACCEPTED',
  'PARTIALLY_FILLED',
  'PENDING_CANCEL',
  'PENDING_MODIFY',
]);

/** The two contexts of a transition (made once, not per event). */
const HAS_FILLS = { hasFills: true } as const;
const NO_FILLS = { hasFills: false } as const;

/** How many closed orders a strategy can still look up with `ctx.order(id)`. */
const KEPT_CLOSED_ORDERS = 1_000;

const ZERO = new Decimal(0);

/** See the module description. */
export class StrategyOrderViews {
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

  /** @param log - the strategy's logger (an event that does not apply to an order's state is warned of) */
  constructor(private readonly log: Logger) {}

  /** Copies of the open orders, of `symbol` only when given (upper-cased, checked). */
  openOrders(symbol: string | undefined): OrderView[] {
    const out: OrderView[] = [];
    if (this.open.size === 0) return out;
    const wanted = symbol === undefined ? undefined : symbolOf(symbol, 'openOrders');
    for (const o of this.open.values()) {
      if (wanted === undefined || o.symbol === wanted) out.push(copyOf(o));
    }
    return out;
  }

  /** What the open sells of `symbol` other than `exceptId` still sell. */
  openSellRest(symbol: string, exceptId: string): Decimal {
    let rest = ZERO;
    for (const o of this.open.values()) {
      if (o.side !== 'SELL' || o.symbol !== symbol || o.clientOrderId === exceptId || o.quantity === null)
        continue;
      rest = rest.plus(o.quantity.minus(o.filledQuantity));
    }
    return rest;
  }

  /** A copy of the order's view, while it is open or among the last closed. */
  order(clientOrderId: ClientOrderId): OrderView | undefined {
    const o = this.orders.get(clientOrderId);
    return o === undefined ? undefined : copyOf(o);
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
