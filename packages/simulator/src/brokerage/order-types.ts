import {
  type Currency,
  type Decimal,
  type KnownBrokerOrderStatus,
  type Market,
  OPEN_BROKER_ORDER_STATUSES,
  type OrderSide,
  type OrderType,
  type TimeInForce,
} from '@hoga/core';

/** Order side on the wire (core's `OrderSide`). */
export type SimSide = OrderSide;
/** Order type on the wire (core's `OrderType`). */
export type SimOrderType = OrderType;
/** Time in force accepted on creation (core's `TimeInForce` without `OPG`). */
export type SimTimeInForce = Exclude<TimeInForce, 'OPG'>;

/**
 * The brokerage's own, mutable record of one order. Rendered to the wire by
 * `toOrderRecord`; persisted by the state file. All money is `Decimal`.
 */
export interface SimOrder {
  readonly orderId: string;
  /** Creation sequence number: orders sort by it among equal `orderedAtMs`. */
  readonly seq: number;
  readonly accountSeq: number;
  readonly symbol: string;
  readonly country: Market;
  readonly currency: Currency;
  readonly side: SimSide;
  orderType: SimOrderType;
  readonly timeInForce: SimTimeInForce;
  status: KnownBrokerOrderStatus;
  /** Limit price; null for market orders. */
  price: Decimal | null;
  /** Ordered quantity; for amount-based orders the filled quantity so far. */
  quantity: Decimal;
  /** Amount (USD) of an amount-based order; null otherwise. */
  readonly orderAmount: Decimal | null;
  /** Epoch ms of creation (simulated clock). */
  readonly orderedAtMs: number;
  canceledAtMs: number | null;
  /** Epoch ms after which the order, still open, is cancelled (end of its trading day or of the close auction). */
  readonly expiresAtMs: number;
  /** Price a market or amount buy reserves cash at, and an amount sell reserves shares at. */
  readonly reservePrice: Decimal;
  filledQuantity: Decimal;
  filledAmount: Decimal;
  commission: Decimal;
  tax: Decimal;
  filledAtMs: number | null;
  settlementDate: string | null;
  /** What this record is: a working order, or the record of a cancel request. */
  readonly kind: 'ORDER' | 'CANCEL';
  /** The order this one replaced or cancelled, if any. */
  readonly originOrderId: string | null;
  /** Lists hide the order until this instant (fault `hide-new-orders`); 0 when never hidden. */
  readonly hiddenUntilMs: number;
}

/** Whether the order still works (listed under OPEN). */
export function isOpen(order: SimOrder): boolean {
  return OPEN_BROKER_ORDER_STATUSES.has(order.status);
}
