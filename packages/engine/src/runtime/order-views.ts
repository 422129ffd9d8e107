/**
 * A strategy's views of its orders (`ctx.order`, `ctx.openOrders`): the view of a new order, and
 * copies of a view handed out (the host keeps its own, which it updates as the order's events
 * come).
 *
 * @module
 */
import { Decimal, type OrderIntent } from '@hoga/core';
import type { OrderView } from '../strategy/strategy-context.js';

/** An order view the host updates in place. */
export type MutableOrderView = { -readonly [K in keyof OrderView]: OrderView[K] };

const ZERO = new Decimal(0);

/** A strategy's view of a new order of `intent` (state `INITIALIZED`, nothing filled). */
export function trackedOrderOf(intent: OrderIntent): OrderView {
  return {
    clientOrderId: intent.clientOrderId,
    symbol: intent.instrument.symbol,
    side: intent.side,
    orderType: intent.orderType,
    price: intent.sizing === 'QUANTITY' && intent.orderType === 'LIMIT' ? intent.price : null,
    quantity: intent.sizing === 'QUANTITY' ? intent.quantity : null,
    amount: intent.sizing === 'AMOUNT' ? intent.amount : null,
    state: 'INITIALIZED',
    filledQuantity: ZERO,
    averageFillPrice: null,
  };
}

/** A copy of an order view (one shape for every copy; a spread copies through a slow path). */
export function copyOf(o: OrderView): MutableOrderView {
  return {
    clientOrderId: o.clientOrderId,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    price: o.price,
    quantity: o.quantity,
    amount: o.amount,
    state: o.state,
    filledQuantity: o.filledQuantity,
    averageFillPrice: o.averageFillPrice,
  };
}
