/**
 * A working order inside the simulated venue, how its fills count, and the events it produces.
 *
 * @module
 */

import type { FillableOrder, ReservingOrder } from '@hoga/broker-model';
import {
  type BrokerOrderId,
  type ClientOrderId,
  type Currency,
  Decimal,
  type Fill,
  type Instrument,
  Money,
  type OrderEvent,
  type OrderSide,
  type OrderState,
  type OrderType,
  type StrategyId,
  type TimeInForce,
} from '@hoga/core';

/** An order the simulated venue works (mutable inside the venue only). */
export interface SimulatedOrder extends FillableOrder, ReservingOrder {
  readonly clientOrderId: ClientOrderId;
  brokerOrderId: BrokerOrderId;
  readonly strategyId: StrategyId | undefined;
  readonly instrument: Instrument;
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  price: Decimal | null;
  quantity: Decimal | null;
  readonly orderAmount: Decimal | null;
  filledQuantity: Decimal;
  filledAmount: Decimal;
  readonly acceptedAt: number;
  reservePrice: Decimal;
  state: OrderState;
  /** Session key of the first market view the order was matched against (DAY orders end with it). */
  sessionKey: number | undefined;
  /**
   * When the broker ends it if still working: the end of a DAY order's trading day (+∞ for others,
   * and until its trading day is known: see `SimulatedVenueOptions.dayOf`).
   */
  dayEnd: number;
  /** Fills so far (for fill ids). */
  fills: number;
}

/**
 * `event` with the order's strategy id when it has one. The hot events are built as literals of
 * one shape each and the id added after (a spread in the middle of a literal copies through a
 * slow path on every event).
 */
export function ofStrategy<E extends OrderEvent>(event: E, order: SimulatedOrder): E {
  if (order.strategyId !== undefined) (event as { strategyId?: StrategyId }).strategyId = order.strategyId;
  return event;
}

const ZERO = new Decimal(0);
const ZERO_MONEY: Partial<Record<Currency, Money>> = {};

/** 0 in a currency (one per currency: Money is immutable). */
export function zeroMoney(currency: Currency): Money {
  let zero = ZERO_MONEY[currency];
  if (zero === undefined) {
    zero = Money.zero(currency);
    ZERO_MONEY[currency] = zero;
  }
  return zero;
}

/** Whether the venue still works the order (accepted, or partly filled). */
export function isWorking(order: SimulatedOrder): boolean {
  return order.state === 'ACCEPTED' || order.state === 'PARTIALLY_FILLED';
}

/**
 * Counts a slice of `quantity` for `amount` into the order's filled figures and its fill count
 * (the first slice's figures are taken as the filled ones: 0 + x is x), and answers whether the
 * order is now filled: its whole quantity, or, for an amount order, all of its amount but less
 * than a millionth of `price`.
 */
export function countSlice(
  order: SimulatedOrder,
  quantity: Decimal,
  amount: Decimal,
  price: Decimal,
): boolean {
  const first = order.fills === 0;
  order.filledQuantity = first ? quantity : order.filledQuantity.plus(quantity);
  order.filledAmount = first ? amount : order.filledAmount.plus(amount);
  order.fills++;
  return order.quantity !== null
    ? order.filledQuantity === order.quantity || order.filledQuantity.gte(order.quantity)
    : (order.orderAmount ?? ZERO).minus(order.filledAmount).lt(price.times('0.000001'));
}

/**
 * The fill of a slice of `order` at `price`, with the broker's charges on it; the order's fill
 * count and filled quantity already count the slice (they give the fill's id and cumulative
 * quantity).
 */
export function fillOf(
  order: SimulatedOrder,
  quantity: Decimal,
  price: Decimal,
  charges: { readonly commission: Decimal; readonly tax: Decimal },
  time: number,
): Fill {
  return {
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
}
