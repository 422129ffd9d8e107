/**
 * Turns successive reports of the broker's order records into core order events: the fill's own
 * quantity and price are derived from the change of cumulative quantity and amount (or average
 * price), so each fill is emitted exactly once. An order the tracker does not know, seen while
 * order commands of this client are in flight, is held back until they end (or a bounded wait
 * runs out): it may be theirs, and its events must carry the caller's `clientOrderId` from the
 * first one on.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import {
  BrokerOrderStatus,
  brokerOrderId,
  type ClientOrderId,
  type Clock,
  clientOrderId,
  Decimal,
  type Fill,
  isCurrency,
  Money,
  newEventId,
  type OrderEvent,
  type OrderEventBase,
  type OrderSide,
  TERMINAL_BROKER_ORDER_STATUSES,
} from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';
import { endedAtDayEnd } from './order-day-end.js';

/** How an order id relates to the order the user placed. */
type Role = 'order' | 'replacement' | 'cancel';

interface Tracked {
  readonly clientOrderId: ClientOrderId;
  readonly role: Role;
  /** Filled quantity of earlier orders of the same chain (before a modify). */
  readonly baseQuantity: Decimal;
  /** The order this one replaced or cancels. */
  readonly originalOrderId: string | null;
  last: OrderRecord | null;
  /** Scheduler time of the first {@link OrderTracker.prune} that saw it in a final state (NaN: not yet). */
  endedAtMs: number;
}

/** An unknown order waiting for the commands that may have made it. */
interface Held {
  /** Sequence numbers of the commands in flight when the order was first seen. */
  readonly waitFor: ReadonlySet<number>;
  /** Scheduler time after which it is taken for an order placed elsewhere. */
  readonly until: number;
  /** Its first report, when it was listed by the first poll (it then becomes the baseline). */
  readonly baseline: OrderRecord | null;
}

const ZERO = new Decimal(0);

/** Default longest wait for the answer of an order command before an unknown order is released. */
export const DEFAULT_ORDER_HOLD_MS = 10_000;

/**
 * Default time an order is remembered after it reached a final state (a day): a late listing or
 * detail read of it is then taken for what it is, not for a new order placed elsewhere.
 */
export const DEFAULT_ENDED_ORDER_RETAIN_MS = 86_400_000;

/** Options of {@link OrderTracker}. */
export interface OrderTrackerOptions {
  /**
   * Longest wait (scheduler ms) for commands in flight before an unknown order is taken for one
   * placed elsewhere (default {@link DEFAULT_ORDER_HOLD_MS}); a command that never answers cannot
   * hold an order's events longer.
   */
  readonly holdMs?: number;
  /**
   * How long (scheduler ms) an order is remembered after {@link OrderTracker.prune} first saw it in
   * a final state (default {@link DEFAULT_ENDED_ORDER_RETAIN_MS}); a replaced order is also kept
   * while its replacement is working.
   */
  readonly retainEndedMs?: number;
}

/**
 * A stable client order id for an order placed elsewhere (app, another engine): `ext-` and 32 hex
 * digits of the SHA-256 of the broker's id (broker ids can be long and share prefixes).
 *
 * @param orderId - the broker's order id
 */
export function externalClientOrderId(orderId: string): ClientOrderId {
  return clientOrderId(`ext-${createHash('sha256').update(orderId).digest('hex').slice(0, 32)}`);
}

/** Keeps the last report of every live order and diffs new reports against it. */
export class OrderTracker {
  private readonly orders = new Map<string, Tracked>();
  private readonly replacementOf = new Map<string, string>();
  private readonly held = new Map<string, Held>();
  private readonly holdMs: number;
  private readonly retainEndedMs: number;

  /**
   * @param clock - stamps `tsInit` (and `tsEvent` when the broker gives no time)
   * @param options - how long unknown orders may be held
   */
  constructor(
    private readonly clock: Clock,
    options: OrderTrackerOptions = {},
  ) {
    this.holdMs = options.holdMs ?? DEFAULT_ORDER_HOLD_MS;
    this.retainEndedMs = options.retainEndedMs ?? DEFAULT_ENDED_ORDER_RETAIN_MS;
  }

  /** How many orders, replacement links and held unknown orders are kept (a long run's memory). */
  sizes(): { orders: number; replacements: number; held: number } {
    return { orders: this.orders.size, replacements: this.replacementOf.size, held: this.held.size };
  }

  /** Ids of unknown orders held back (to be decided on each poll, listed or not). */
  heldOrderIds(): string[] {
    return [...this.held.keys()];
  }

  /**
   * Decides whether the events of an order this tracker does not know must wait. While a create,
   * modify or cancel sent through the client is in flight, the order may be the one it made,
   * listed before the answer arrived: it is held until every command in flight when it was first
   * seen has ended, or `holdMs` has passed. Its events then carry the `clientOrderId` the command's
   * notice gave ({@link expectCreated}, {@link expectLinked}); if no notice claimed it, it is taken
   * for an order placed elsewhere (`ext-…`), or for part of the baseline if the first poll listed
   * it. Nothing is observed while it is held, so each fill is still emitted once.
   *
   * Once this answers false the order is tracked: diff it as usual.
   *
   * @param order - its row in the OPEN list, or its id when it is no longer listed
   * @param inFlight - sequence numbers of the commands in flight now
   * @param nowMs - scheduler time
   * @param atStart - listed by the stream's first poll (orders open at start form the baseline)
   */
  holdUnknown(
    order: OrderRecord | string,
    inFlight: readonly number[],
    nowMs: number,
    atStart = false,
  ): boolean {
    const orderId = typeof order === 'string' ? order : order.orderId;
    if (this.orders.has(orderId)) {
      this.held.delete(orderId);
      return false;
    }
    const held = this.held.get(orderId) ?? {
      waitFor: new Set(inFlight),
      until: nowMs + this.holdMs,
      baseline: atStart && typeof order !== 'string' ? order : null,
    };
    if (nowMs < held.until && inFlight.some((seq) => held.waitFor.has(seq))) {
      this.held.set(orderId, held);
      return true;
    }
    this.held.delete(orderId);
    if (held.baseline !== null) this.baseline(held.baseline);
    else this.expectCreated(orderId, null);
    return false;
  }

  /** Ids of orders not yet in a final state (to be read when they leave the OPEN list). */
  liveOrderIds(): string[] {
    return [...this.orders.entries()]
      .filter(([, t]) => t.last === null || !TERMINAL_BROKER_ORDER_STATUSES.has(t.last.status))
      .map(([id]) => id);
  }

  /**
   * Whether a list row shows something new about an order: unknown so far, or its status, filled
   * quantity, price or quantity changed since the last report.
   *
   * @param row - a row of the OPEN list
   */
  changed(row: OrderRecord): boolean {
    const last = this.orders.get(row.orderId)?.last;
    if (last === undefined || last === null) return true;
    return (
      last.status !== row.status ||
      !last.execution.filledQuantity.eq(row.execution.filledQuantity) ||
      !last.quantity.eq(row.quantity) ||
      (last.price === null ? row.price !== null : row.price === null || !last.price.eq(row.price))
    );
  }

  /** Whether an order id is tracked. */
  has(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /**
   * Registers an order created through this client (or, with a null id, one taken for placed
   * elsewhere); its next report is diffed against nothing, so it starts with `OrderAccepted`.
   * An order already tracked keeps its id: events never switch ids.
   *
   * @param orderId - broker order id
   * @param id - the client order id (null: one is derived from the order id)
   */
  expectCreated(orderId: string, id: string | null): void {
    this.held.delete(orderId);
    if (this.orders.has(orderId)) return;
    this.orders.set(orderId, {
      clientOrderId: id === null ? externalClientOrderId(orderId) : clientOrderId(id),
      role: 'order',
      baseQuantity: ZERO,
      originalOrderId: null,
      last: null,
      endedAtMs: Number.NaN,
    });
  }

  /**
   * Links the order a modify or cancel produced to the original order.
   *
   * @param orderId - the new order's id
   * @param originalOrderId - the order that was modified or cancelled
   * @param role - `replacement` (modify) or `cancel`
   */
  expectLinked(orderId: string, originalOrderId: string, role: 'replacement' | 'cancel'): void {
    const original = this.orders.get(originalOrderId);
    if (original === undefined || this.orders.has(orderId)) return;
    this.held.delete(orderId);
    const filled = original.last?.execution.filledQuantity ?? ZERO;
    this.orders.set(orderId, {
      clientOrderId: original.clientOrderId,
      role,
      baseQuantity: original.baseQuantity.plus(role === 'replacement' ? filled : ZERO),
      originalOrderId,
      last: null,
      endedAtMs: Number.NaN,
    });
    if (role === 'replacement') this.replacementOf.set(originalOrderId, orderId);
  }

  /**
   * Records orders seen before the stream started, without emitting events for their past.
   *
   * @param order - a report
   */
  baseline(order: OrderRecord): void {
    const tracked = this.orders.get(order.orderId);
    if (tracked !== undefined) {
      if (tracked.last === null) return;
      tracked.last = order;
      return;
    }
    this.orders.set(order.orderId, {
      clientOrderId: externalClientOrderId(order.orderId),
      role: 'order',
      baseQuantity: ZERO,
      originalOrderId: null,
      last: order,
      endedAtMs: Number.NaN,
    });
  }

  /**
   * Diffs a new report against the previous one and returns the events it implies.
   *
   * @param order - the latest report of an order
   */
  observe(order: OrderRecord): OrderEvent[] {
    let tracked = this.orders.get(order.orderId);
    if (tracked === undefined) {
      tracked = {
        clientOrderId: externalClientOrderId(order.orderId),
        role: 'order',
        baseQuantity: ZERO,
        originalOrderId: null,
        last: null,
        endedAtMs: Number.NaN,
      };
      this.orders.set(order.orderId, tracked);
    }
    const previous = tracked.last;
    tracked.last = order;
    const events: OrderEvent[] = [];
    const base = (tsEvent: number): OrderEventBase => ({
      eventId: newEventId(),
      clientOrderId: tracked.clientOrderId,
      tsEvent,
      tsInit: this.clock.nowMs(),
    });
    const now = this.clock.nowMs();
    const brokerId = brokerOrderId(order.orderId);
    if (tracked.role === 'cancel') {
      if (previous?.status !== order.status && order.status === BrokerOrderStatus.CANCEL_REJECTED) {
        events.push({
          ...base(now),
          type: 'OrderCancelRejected',
          reason: 'the broker rejected the cancel',
          sent: true,
        });
      }
      return events;
    }
    if (previous === null && tracked.role === 'order') {
      events.push({ ...base(order.orderedAt.toMillis()), type: 'OrderAccepted', brokerOrderId: brokerId });
    }
    const fill = this.fillBetween(tracked, previous, order);
    if (fill !== null) {
      const complete =
        order.status === BrokerOrderStatus.FILLED || order.execution.filledQuantity.gte(order.quantity);
      events.push({ ...base(fill.tsEvent), type: complete ? 'OrderFilled' : 'OrderPartiallyFilled', fill });
    }
    if (previous?.status === order.status) return events;
    switch (order.status) {
      case BrokerOrderStatus.CANCELED:
        // a DAY order the broker ended with its trading day (the wire has no EXPIRED)
        if (endedAtDayEnd(order))
          events.push({ ...base(order.canceledAt?.toMillis() ?? now), type: 'OrderExpired' });
        else
          events.push({
            ...base(order.canceledAt?.toMillis() ?? now),
            type: 'OrderCanceled',
            brokerOrderId: brokerId,
          });
        break;
      case BrokerOrderStatus.REJECTED:
        events.push({ ...base(now), type: 'OrderRejected', reason: 'rejected by the broker' });
        break;
      case BrokerOrderStatus.REPLACE_REJECTED:
        events.push({
          ...base(now),
          type: 'OrderModifyRejected',
          reason: 'the broker rejected the modification',
          sent: true,
        });
        break;
      case BrokerOrderStatus.REPLACED: {
        const next = this.replacementOf.get(order.orderId);
        const replacement = next === undefined ? undefined : this.orders.get(next)?.last;
        events.push({
          ...base(now),
          type: 'OrderModified',
          brokerOrderId: brokerOrderId(next ?? order.orderId),
          previousBrokerOrderId: brokerId,
          ...(replacement?.price ? { price: replacement.price } : {}),
          ...(replacement ? { quantity: replacement.quantity } : {}),
        });
        break;
      }
      default:
        break;
    }
    return events;
  }

  /**
   * Forgets orders that reached a final state (their events were emitted) at least `retainEndedMs`
   * ago, with their replacement links; a replaced order is kept while its replacement still works.
   * Until then a late report of an ended order (an OPEN list that lags, a detail read answered late)
   * is diffed against its last one, so it emits nothing and is never taken for a new order.
   *
   * @param nowMs - scheduler time (the same as {@link holdUnknown}'s)
   */
  prune(nowMs: number): void {
    for (const t of this.orders.values()) {
      // (a report answered late may show an ended order working again: then it is read on)
      if (t.last === null || !TERMINAL_BROKER_ORDER_STATUSES.has(t.last.status)) t.endedAtMs = Number.NaN;
      else if (Number.isNaN(t.endedAtMs)) t.endedAtMs = nowMs;
    }
    for (const [id, t] of this.orders) {
      if (Number.isNaN(t.endedAtMs) || nowMs - t.endedAtMs < this.retainEndedMs) continue;
      const next = this.replacementOf.get(id);
      const replacement = next === undefined ? undefined : this.orders.get(next);
      if (replacement !== undefined && Number.isNaN(replacement.endedAtMs)) continue;
      this.orders.delete(id);
      this.replacementOf.delete(id);
    }
  }

  private fillBetween(tracked: Tracked, previous: OrderRecord | null, order: OrderRecord): Fill | null {
    const was = previous?.execution ?? null;
    const now = order.execution;
    const prevQty = was?.filledQuantity ?? ZERO;
    const delta = now.filledQuantity.minus(prevQty);
    if (delta.lte(0)) return null;
    const prevAmount = was?.filledAmount ?? prevQty.times(was?.averageFilledPrice ?? ZERO);
    const amount =
      now.filledAmount ?? now.filledQuantity.times(now.averageFilledPrice ?? order.price ?? ZERO);
    const price = amount.minus(prevAmount).dividedBy(delta);
    const currency = isCurrency(order.currency) ? order.currency : 'KRW';
    const commission = (now.commission ?? ZERO).minus(was?.commission ?? ZERO);
    const tax = now.tax === null ? null : now.tax.minus(was?.tax ?? ZERO);
    const cumulative = tracked.baseQuantity.plus(now.filledQuantity);
    return {
      fillId: `${order.orderId}:${now.filledQuantity.toFixed()}`,
      clientOrderId: tracked.clientOrderId,
      brokerOrderId: brokerOrderId(order.orderId),
      symbol: order.symbol,
      side: order.side as OrderSide,
      quantity: delta,
      price,
      commission: Money.of(commission, currency),
      ...(tax?.gt(0) ? { tax: Money.of(tax, currency) } : {}),
      cumulativeQuantity: cumulative,
      tsEvent: now.filledAt?.toMillis() ?? this.clock.nowMs(),
    };
  }
}
