/**
 * What an order's new status on the wire means as a core order event.
 *
 * @module
 */
import { BrokerOrderStatus, brokerOrderId, type OrderEvent, type OrderEventBase } from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';
import { endedAtDayEnd } from './order-day-end.js';

/** The order a modify made, as far as it is known. */
export interface ReplacementSeen {
  readonly orderId: string;
  /** Its last report (null: not read yet). */
  readonly last: OrderRecord | null;
}

/**
 * The event an order's status, new since its last report, means (null: none): `CANCELED` is
 * `OrderCanceled`, or `OrderExpired` for a DAY order the broker ended with its trading day (the
 * wire has no EXPIRED); `REPLACED` is `OrderModified` naming the replacement (when known) and its
 * price and quantity (when read); `REJECTED` and `REPLACE_REJECTED` are the refusals.
 *
 * @param order - the new report
 * @param base - the event's common fields at a time
 * @param nowMs - the time of an event the broker gives no time for
 * @param replacement - the order that replaced it, when known
 */
export function statusEvent(
  order: OrderRecord,
  base: (tsEvent: number) => OrderEventBase,
  nowMs: number,
  replacement: ReplacementSeen | null,
): OrderEvent | null {
  const brokerId = brokerOrderId(order.orderId);
  switch (order.status) {
    case BrokerOrderStatus.CANCELED: {
      const at = base(order.canceledAt?.toMillis() ?? nowMs);
      if (endedAtDayEnd(order)) return { ...at, type: 'OrderExpired' };
      return { ...at, type: 'OrderCanceled', brokerOrderId: brokerId };
    }
    case BrokerOrderStatus.REJECTED:
      return { ...base(nowMs), type: 'OrderRejected', reason: 'rejected by the broker' };
    case BrokerOrderStatus.REPLACE_REJECTED:
      return {
        ...base(nowMs),
        type: 'OrderModifyRejected',
        reason: 'the broker rejected the modification',
        sent: true,
      };
    case BrokerOrderStatus.REPLACED: {
      const last = replacement?.last ?? null;
      return {
        ...base(nowMs),
        type: 'OrderModified',
        brokerOrderId: brokerOrderId(replacement?.orderId ?? order.orderId),
        previousBrokerOrderId: brokerId,
        ...(last?.price ? { price: last.price } : {}),
        ...(last ? { quantity: last.quantity } : {}),
      };
    }
    default:
      return null;
  }
}
