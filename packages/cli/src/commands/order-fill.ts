/**
 * How much of an order filled, as `hoga order` tells it after the order's line.
 *
 * @module
 */
import { isTerminalOrderState } from '@hoga/core';
import type { OrderRecord as StoredOrder } from '@hoga/store';
import { groupDecimal } from '../output/table.js';

/**
 * How much of an order filled, from the store just refreshed from the broker: `; nothing filled
 * yet`, `; filled 2 of 5 at an average 71,200 KRW`, or nothing for an order not stored.
 *
 * @param order - the stored order, or null
 */
export function describeFill(order: StoredOrder | null): string {
  if (order === null) return '';
  if (order.filledQuantity.isZero())
    return isTerminalOrderState(order.state) ? '; nothing filled' : '; nothing filled yet';
  const of =
    order.quantity === null || order.filledQuantity.eq(order.quantity)
      ? ''
      : ` of ${order.quantity.toFixed()}`;
  const average =
    order.averageFillPrice === null
      ? ''
      : ` at an average ${groupDecimal(order.averageFillPrice)} ${order.currency}`;
  return `; filled ${groupDecimal(order.filledQuantity)}${of}${average}`;
}
