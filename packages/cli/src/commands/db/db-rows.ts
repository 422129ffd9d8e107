/**
 * How the `hoga db` commands show stored orders and fills: KST times, decimals as strings, an
 * order's cells in a table.
 *
 * @module
 */
import { type Decimal, formatDecimal, toKst } from '@hoga/core';
import type { FillRecord, OrderRecord } from '@hoga/store';
import { DateTime } from 'luxon';
import type { BacktestOrder } from './db-backtest-orders.js';

/** A time as `yyyy-MM-dd HH:mm:ss` in KST. */
export function kst(ms: number): string {
  return toKst(DateTime.fromMillis(ms)).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** A time as ISO 8601 in KST. */
export function iso(ms: number): string {
  return toKst(DateTime.fromMillis(ms)).toISO() ?? String(ms);
}

/** A decimal as text, `-` for none. */
export function dec(d: Decimal | null): string {
  return d === null ? '-' : formatDecimal(d);
}

/** A decimal as a JSON string, null for none. */
export function decJson(d: Decimal | null): string | null {
  return d === null ? null : formatDecimal(d);
}

/** A stored order as JSON (decimals as strings, times in KST). */
export function orderJson(o: OrderRecord): Record<string, unknown> {
  return {
    ...o,
    ...orderDecimalsJson(o),
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  };
}

/** A stored fill as JSON, with its order's client id. */
export function fillJson(f: FillRecord, clientOrderId: string): Record<string, unknown> {
  return {
    ...f,
    clientOrderId,
    quantity: decJson(f.quantity),
    price: decJson(f.price),
    commission: decJson(f.commission),
    tax: decJson(f.tax),
    cumulativeQuantity: decJson(f.cumulativeQuantity),
    filledAt: iso(f.filledAt),
  };
}

/** The columns of an order after its ids, strategy, mode and symbol. */
export const ORDER_COLUMNS = ['side', 'type', 'price', 'qty', 'filled', 'avg', 'state'] as const;

/** An order's cells under {@link ORDER_COLUMNS} (an amount order's amount in `amountCurrency`). */
export function orderCells(o: ListedOrder, amountCurrency: string): string[] {
  return [
    o.side,
    o.orderType,
    dec(o.price),
    o.quantity === null ? `${dec(o.amount)} ${amountCurrency}` : dec(o.quantity),
    dec(o.filledQuantity),
    dec(o.averageFillPrice),
    o.state,
  ];
}

/** What an order listed shows, a stored one or a backtest's. */
export type ListedOrder = Pick<
  BacktestOrder,
  'side' | 'orderType' | 'price' | 'quantity' | 'amount' | 'filledQuantity' | 'averageFillPrice' | 'state'
>;

/** An order's decimals as strings (null stays null). */
export function orderDecimalsJson(o: ListedOrder): Record<string, string | null> {
  return {
    price: decJson(o.price),
    quantity: decJson(o.quantity),
    amount: decJson(o.amount),
    filledQuantity: decJson(o.filledQuantity),
    averageFillPrice: decJson(o.averageFillPrice),
  };
}
