/**
 * Schemas and domain types of the Order and Order History endpoints.
 *
 * @module
 */
import type { BrokerOrderStatus, Decimal } from '@hoga/core';
import { z } from 'zod';
import {
  currency,
  dateTime,
  decimal,
  nullableDate,
  nullableDateTime,
  nullableDecimal,
  openEnum,
  withRaw,
} from './primitives.js';

const execution = z.object({
  filledQuantity: decimal,
  averageFilledPrice: nullableDecimal,
  filledAmount: nullableDecimal.optional().transform((v) => v ?? null),
  commission: nullableDecimal.optional().transform((v) => v ?? null),
  tax: nullableDecimal.optional().transform((v) => v ?? null),
  filledAt: nullableDateTime.optional().transform((v) => v ?? null),
  settlementDate: nullableDate.optional().transform((v) => v ?? null),
});

/** An order record (list row and detail share it). Several fills are combined into an average. */
export const OrderRecordSchema = withRaw(
  z.object({
    orderId: z.string().min(1),
    symbol: z.string(),
    side: openEnum(['BUY', 'SELL'] as const),
    orderType: openEnum(['LIMIT', 'MARKET'] as const),
    timeInForce: openEnum(['DAY', 'CLS', 'OPG'] as const),
    status: z.string() as z.ZodType<BrokerOrderStatus, string>,
    price: nullableDecimal.optional().transform((v) => v ?? null),
    quantity: decimal,
    orderAmount: nullableDecimal.optional().transform((v) => v ?? null),
    currency,
    orderedAt: dateTime,
    canceledAt: nullableDateTime.optional().transform((v) => v ?? null),
    execution,
  }),
);
/** One order as the broker reports it. */
export type OrderRecord = z.output<typeof OrderRecordSchema>;

/** `GET /orders` result. */
export const OrderListSchema = z.object({
  orders: z.array(OrderRecordSchema),
  nextCursor: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  hasNext: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
});
/** One page of orders. */
export type OrderList = z.output<typeof OrderListSchema>;

/** `POST /orders` result. */
export const CreateOrderResultSchema = withRaw(
  z.object({
    orderId: z.string().min(1),
    clientOrderId: z
      .string()
      .nullable()
      .optional()
      .transform((v) => v ?? null),
  }),
);
/** The created order's id, and the `clientOrderId` echoed back. */
export type CreateOrderResult = z.output<typeof CreateOrderResultSchema>;

/** `POST /orders/{id}/modify` and `/cancel` result: the id of the new (modify or cancel) order. */
export const OrderOperationResultSchema = withRaw(z.object({ orderId: z.string().min(1) }));
/** The broker's answer to a modify or cancel. */
export type OrderOperationResult = z.output<typeof OrderOperationResultSchema>;

/** A quantity-based order (limit or market). */
export interface QuantityOrderRequest {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly quantity: Decimal;
  /** Required for LIMIT, forbidden for MARKET. */
  readonly price?: Decimal;
  /** `DAY` (default) or `CLS` (US limit at the close). */
  readonly timeInForce?: 'DAY' | 'CLS';
  /** Idempotency key (≤ 36 chars of `[A-Za-z0-9_-]`); only orders with one are ever retried. */
  readonly clientOrderId?: string;
  /** Required for orders of 100 million KRW or more. */
  readonly confirmHighValueOrder?: boolean;
}

/** An amount-based order (US MARKET only; `orderAmount` in USD). */
export interface AmountOrderRequest {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly orderType: 'MARKET';
  readonly orderAmount: Decimal;
  readonly clientOrderId?: string;
  readonly confirmHighValueOrder?: boolean;
}

/** Body of `POST /orders`. */
export type CreateOrderRequest = QuantityOrderRequest | AmountOrderRequest;

/** Body of `POST /orders/{id}/modify`. */
export interface ModifyOrderRequest {
  readonly orderType: 'LIMIT' | 'MARKET';
  readonly price?: Decimal;
  /** KR only (the broker rejects a quantity for US orders). */
  readonly quantity?: Decimal;
  readonly confirmHighValueOrder?: boolean;
}
