import { averageFillPrice } from '@hoga/broker-model';
import { formatKst, KST_ZONE } from '@hoga/core';
import { DateTime } from 'luxon';
import type { SimOrder } from './order-types.js';

/** Formatted instants, by epoch ms: formatting a zoned date-time is slow and records are listed often. */
const formatted = new Map<number, string>();
const FORMAT_CACHE_LIMIT = 20_000;

function kst(ms: number): string {
  let text = formatted.get(ms);
  if (text === undefined) {
    if (formatted.size >= FORMAT_CACHE_LIMIT) formatted.clear();
    text = formatKst(DateTime.fromMillis(ms, { zone: KST_ZONE }));
    formatted.set(ms, text);
  }
  return text;
}

/**
 * Renders an order as the wire's order record (the reference's `Order`): no
 * `clientOrderId`; fills aggregated into `execution` (average price, total
 * amount, commission and tax, time of the last fill).
 */
export function toOrderRecord(order: SimOrder): unknown {
  const filled = order.filledQuantity.gt(0);
  const average = averageFillPrice(order.currency, order.filledAmount, order.filledQuantity);
  return {
    orderId: order.orderId,
    symbol: order.symbol,
    side: order.side,
    orderType: order.orderType,
    timeInForce: order.timeInForce,
    status: order.status,
    price: order.price === null ? null : order.price.toFixed(),
    quantity: order.quantity.toFixed(),
    orderAmount: order.orderAmount === null ? null : order.orderAmount.toFixed(),
    currency: order.currency,
    orderedAt: kst(order.orderedAtMs),
    canceledAt: order.canceledAtMs === null ? null : kst(order.canceledAtMs),
    execution: {
      filledQuantity: order.filledQuantity.toFixed(),
      averageFilledPrice: average === null ? null : average.toFixed(),
      filledAmount: filled ? order.filledAmount.toFixed() : null,
      commission: filled ? order.commission.toFixed() : null,
      tax: filled ? order.tax.toFixed() : null,
      filledAt: order.filledAtMs === null ? null : kst(order.filledAtMs),
      settlementDate: order.settlementDate,
    },
  };
}
