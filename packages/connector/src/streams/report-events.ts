/**
 * The core order events a new report of a tracked order implies against its previous one: the
 * order's acceptance (its first report), the fill its cumulative figures grew by (`order-fill.ts`),
 * and what its new status means (`order-status-events.ts`). A cancel's own record tells only that
 * the cancel was rejected. Whether the report is taken in at all (not older than the last) is the
 * {@link OrderTracker}'s to decide.
 *
 * @module
 */
import {
  BrokerOrderStatus,
  brokerOrderId,
  type Clock,
  newEventId,
  type OrderEvent,
  type OrderEventBase,
} from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';
import { fillBetween } from './order-fill.js';
import { type ReplacementSeen, statusEvent } from './order-status-events.js';
import type { Tracked } from './tracked-order.js';

/**
 * The events `order` implies against `previous`, in the order they happened.
 *
 * @param tracked - what the tracker keeps of the order (whose events they are, its chain's base)
 * @param previous - its report before this one (null: none, so an own order starts accepted)
 * @param order - the new report, taken in
 * @param replacement - the order that replaced it, when known (`OrderModified` names it)
 * @param clock - stamps `tsInit` (and `tsEvent` when the broker gives no time)
 */
export function reportEvents(
  tracked: Tracked,
  previous: OrderRecord | null,
  order: OrderRecord,
  replacement: ReplacementSeen | null,
  clock: Clock,
): OrderEvent[] {
  const events: OrderEvent[] = [];
  const base = (tsEvent: number): OrderEventBase => ({
    eventId: newEventId(),
    clientOrderId: tracked.clientOrderId,
    tsEvent,
    tsInit: clock.nowMs(),
  });
  const now = clock.nowMs();
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
    events.push({
      ...base(order.orderedAt.toMillis()),
      type: 'OrderAccepted',
      brokerOrderId: brokerOrderId(order.orderId),
    });
  }
  const fill = fillBetween(tracked, previous, order, now);
  if (fill !== null) {
    const complete =
      order.status === BrokerOrderStatus.FILLED || order.execution.filledQuantity.gte(order.quantity);
    events.push({ ...base(fill.tsEvent), type: complete ? 'OrderFilled' : 'OrderPartiallyFilled', fill });
  }
  if (previous?.status === order.status) return events;
  const event = statusEvent(order, base, now, replacement);
  if (event !== null) events.push(event);
  return events;
}
