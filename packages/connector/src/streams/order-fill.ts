/**
 * The fill between two reports of one order: the broker reports only cumulative figures, so a
 * fill's quantity is the change of the filled quantity, its price the change of the filled amount
 * (or of quantity × average price) divided by it, and its commission and tax the changes of theirs.
 *
 * @module
 */
import {
  brokerOrderId,
  type ClientOrderId,
  Decimal,
  type Fill,
  isCurrency,
  Money,
  type OrderSide,
} from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';

const ZERO = new Decimal(0);

/** Whose fill it is, and what the chain filled before this order (a modify's replacement). */
export interface FillOwner {
  readonly clientOrderId: ClientOrderId;
  /** Filled quantity of earlier orders of the same chain. */
  readonly baseQuantity: Decimal;
}

/**
 * The fill `order` shows since `previous`, or null when its filled quantity did not grow.
 *
 * @param owner - the chain's client order id and earlier filled quantity
 * @param previous - the last report taken in (null: none yet)
 * @param order - the new report
 * @param nowMs - the fill's time when the broker gives none
 */
export function fillBetween(
  owner: FillOwner,
  previous: OrderRecord | null,
  order: OrderRecord,
  nowMs: number,
): Fill | null {
  const was = previous?.execution ?? null;
  const now = order.execution;
  const prevQty = was?.filledQuantity ?? ZERO;
  const delta = now.filledQuantity.minus(prevQty);
  if (delta.lte(0)) return null;
  const prevAmount = was?.filledAmount ?? prevQty.times(was?.averageFilledPrice ?? ZERO);
  const amount = now.filledAmount ?? now.filledQuantity.times(now.averageFilledPrice ?? order.price ?? ZERO);
  const price = amount.minus(prevAmount).dividedBy(delta);
  const currency = isCurrency(order.currency) ? order.currency : 'KRW';
  const commission = (now.commission ?? ZERO).minus(was?.commission ?? ZERO);
  const tax = now.tax === null ? null : now.tax.minus(was?.tax ?? ZERO);
  return {
    fillId: `${order.orderId}:${now.filledQuantity.toFixed()}`,
    clientOrderId: owner.clientOrderId,
    brokerOrderId: brokerOrderId(order.orderId),
    symbol: order.symbol,
    side: order.side as OrderSide,
    quantity: delta,
    price,
    commission: Money.of(commission, currency),
    ...(tax?.gt(0) ? { tax: Money.of(tax, currency) } : {}),
    cumulativeQuantity: owner.baseQuantity.plus(now.filledQuantity),
    tsEvent: now.filledAt?.toMillis() ?? nowMs,
  };
}
