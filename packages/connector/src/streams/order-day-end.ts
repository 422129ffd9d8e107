/**
 * How a DAY order the broker ended with its trading day looks on the wire: the broker has no
 * `EXPIRED` status, and reports such an order `CANCELED`, with its `canceledAt` at the day's end
 * (KR 20:00 KST of its order date, US 20:00 New York of its trading date: the broker model's
 * `dayOrderExpiry`). A cancel asked for (in the app, or through this client) ends an order during
 * order hours, before it.
 *
 * @module
 */
import { dayOrderExpiry } from '@hoga/broker-model';
import { marketOfSymbol } from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';

/**
 * Whether a broker report shows a DAY order the broker ended at the end of its trading day:
 * `CANCELED` at or after that time.
 *
 * @param record - the broker's last report of the order
 */
export function endedAtDayEnd(
  record: Pick<OrderRecord, 'status' | 'timeInForce' | 'canceledAt' | 'symbol' | 'orderedAt'>,
): boolean {
  if (record.status !== 'CANCELED' || record.timeInForce !== 'DAY' || record.canceledAt === null)
    return false;
  const end = dayOrderExpiry(marketOfSymbol(record.symbol), record.orderedAt.toMillis());
  return record.canceledAt.toMillis() >= end;
}
