/**
 * Builds the broker's order records for the order-stream tests: a KR LIMIT BUY of 005930 at 100
 * KRW, with the parts a test varies. Test code only (not exported by the package).
 */
import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import type { OrderRecord } from '../schemas/orders.js';

/** What a test varies in an order record. */
export interface OrderRecordSpec {
  readonly status: string;
  /** Ordered quantity; default `'5'`. */
  readonly quantity?: string;
  /** Cumulative filled quantity; default `'0'`. */
  readonly filled?: string;
  /** Cumulative filled amount; default `filled × 100`; null when the broker shows none. */
  readonly filledAmount?: string | null;
  /** Commission as a fraction of the filled amount; default none (`commission: null`). */
  readonly commissionRate?: string;
}

/** An order record with the average price derived from the filled amount and quantity. */
export function orderRecord(orderId: string, spec: OrderRecordSpec): OrderRecord {
  const filledQuantity = new Decimal(spec.filled ?? '0');
  const amount =
    spec.filledAmount === undefined
      ? filledQuantity.times(100)
      : spec.filledAmount === null
        ? null
        : new Decimal(spec.filledAmount);
  return {
    orderId,
    symbol: '005930',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    status: spec.status,
    price: new Decimal(100),
    quantity: new Decimal(spec.quantity ?? '5'),
    orderAmount: null,
    currency: 'KRW',
    orderedAt: DateTime.fromISO('2026-11-23T10:00:00+09:00', { setZone: true }),
    canceledAt: null,
    execution: {
      filledQuantity,
      averageFilledPrice: amount === null || filledQuantity.isZero() ? null : amount.div(filledQuantity),
      filledAmount: amount,
      commission:
        amount === null || spec.commissionRate === undefined ? null : amount.times(spec.commissionRate),
      tax: null,
      filledAt: null,
      settlementDate: null,
    },
    raw: {},
  };
}
