/**
 * Order events: a discriminated union on `type`, named in the past tense.
 *
 * @module
 */
import type { Decimal } from '../decimal/decimal.js';
import type { Fill } from './fill.js';
import type { BrokerOrderId, ClientOrderId, StrategyId } from './ids.js';
import type { OrderIntent } from './order-intent.js';
import { ORDER_EVENT_TYPES, type OrderEventType } from './order-state.js';

/** Fields every order event carries. */
export interface OrderEventBase {
  /** Unique id of this event. */
  readonly eventId: string;
  /** The order this event belongs to. */
  readonly clientOrderId: ClientOrderId;
  /** The strategy that owns the order, if any. */
  readonly strategyId?: StrategyId;
  /** When it happened (broker or exchange time when known), epoch ms. */
  readonly tsEvent: number;
  /** When hoga created this event object, epoch ms. */
  readonly tsInit: number;
}

/** Sent to the broker. */
export interface OrderSubmitted extends OrderEventBase {
  readonly type: 'OrderSubmitted';
  /** The intent that was submitted. */
  readonly intent: OrderIntent;
}
/** The broker took the order and gave it an id. */
export interface OrderAccepted extends OrderEventBase {
  readonly type: 'OrderAccepted';
  readonly brokerOrderId: BrokerOrderId;
}
/** The broker refused the order. */
export interface OrderRejected extends OrderEventBase {
  readonly type: 'OrderRejected';
  /** Broker error code (e.g. `insufficient-buying-power`), when known. */
  readonly code?: string;
  /** Human-readable reason. */
  readonly reason: string;
}
/** Our own risk checks refused the order before it was sent. */
export interface OrderDenied extends OrderEventBase {
  readonly type: 'OrderDenied';
  /** Stable code of the failed check. */
  readonly code?: string;
  /** Human-readable reason. */
  readonly reason: string;
}
/** Part of the order filled. */
export interface OrderPartiallyFilled extends OrderEventBase {
  readonly type: 'OrderPartiallyFilled';
  readonly fill: Fill;
}
/** The order filled completely (this event carries the last fill). */
export interface OrderFilled extends OrderEventBase {
  readonly type: 'OrderFilled';
  readonly fill: Fill;
}
/** A cancel was sent. */
export interface OrderCancelRequested extends OrderEventBase {
  readonly type: 'OrderCancelRequested';
  readonly brokerOrderId: BrokerOrderId;
}
/** The order is canceled (any filled part is kept). */
export interface OrderCanceled extends OrderEventBase {
  readonly type: 'OrderCanceled';
  readonly brokerOrderId?: BrokerOrderId;
  /** Why, when known (e.g. `user`, `session-end`). */
  readonly reason?: string;
}
/** The broker refused a cancel. */
export interface OrderCancelRejected extends OrderEventBase {
  readonly type: 'OrderCancelRejected';
  readonly code?: string;
  readonly reason: string;
  /**
   * Whether the cancel reached the venue: false when it was refused before it was sent (by the
   * risk module, by the engine, or because the store could not record it first), true when the
   * venue (the broker, the simulated venue) refused it. Absent where the emitter does not say.
   */
  readonly sent?: boolean;
}
/** A modify was sent. */
export interface OrderModifyRequested extends OrderEventBase {
  readonly type: 'OrderModifyRequested';
  readonly brokerOrderId: BrokerOrderId;
  /** New limit price, when changed. */
  readonly price?: Decimal;
  /** New quantity of the unfilled part, when changed (KR only; the modify as sent). */
  readonly quantity?: Decimal;
}
/** The order was modified; the broker gives a modified order a new id. */
export interface OrderModified extends OrderEventBase {
  readonly type: 'OrderModified';
  /** The new broker order id. */
  readonly brokerOrderId: BrokerOrderId;
  /** The id it replaced, when known. */
  readonly previousBrokerOrderId?: BrokerOrderId;
  /** The new limit price, when changed. */
  readonly price?: Decimal;
  /** The order's new total quantity (filled so far plus the new rest), when changed (KR only). */
  readonly quantity?: Decimal;
}
/** The broker refused a modify. */
export interface OrderModifyRejected extends OrderEventBase {
  readonly type: 'OrderModifyRejected';
  readonly code?: string;
  readonly reason: string;
  /**
   * Whether the modify reached the venue: false when it was refused before it was sent (by the
   * risk module, by the engine, or because the store could not record it first), true when the
   * venue (the broker, the simulated venue) refused it. Absent where the emitter does not say.
   */
  readonly sent?: boolean;
}
/** The order ended unfilled (or partly filled) at the end of its time in force. */
export interface OrderExpired extends OrderEventBase {
  readonly type: 'OrderExpired';
}

/** Every order event. Switch on `type`. */
export type OrderEvent =
  | OrderSubmitted
  | OrderAccepted
  | OrderRejected
  | OrderDenied
  | OrderPartiallyFilled
  | OrderFilled
  | OrderCancelRequested
  | OrderCanceled
  | OrderCancelRejected
  | OrderModifyRequested
  | OrderModified
  | OrderModifyRejected
  | OrderExpired;

/** The event interface for a given type. */
export type OrderEventOf<T extends OrderEventType> = Extract<OrderEvent, { type: T }>;

// Compile-time check that the union and the OrderEventType list agree both ways.
type Missing = Exclude<OrderEventType, OrderEvent['type']> | Exclude<OrderEvent['type'], OrderEventType>;
const unionMatchesTypes: [Missing] extends [never] ? true : false = true;
void unionMatchesTypes;

const EVENT_TYPE_SET: ReadonlySet<string> = new Set(ORDER_EVENT_TYPES);

/**
 * Whether a value looks like an order event (has a known `type`).
 *
 * @param value - any value
 */
export function isOrderEvent(value: unknown): value is OrderEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    EVENT_TYPE_SET.has((value as { type: string }).type)
  );
}
