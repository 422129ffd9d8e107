/**
 * Test helpers of the bar fill model's tests (test code only): bars and orders in a line each.
 */
import { type Bar, Decimal, instrumentOf } from '@hoga/core';
import { expect } from 'vitest';
import type { BarFillModel } from './bar-fill-model.js';
import type { FillableOrder } from './fill-model.js';

/** Epoch ms of a KST wall time (`YYYY-MM-DDTHH:mm:ss`). */
export const kst = (s: string): number => Date.parse(`${s}+09:00`);

/** A KR minute bar stamped `hhmm` on 2026-11-23 (KST), o/h/l/c/v. */
export const kr = (
  hhmm: string,
  o: number,
  h: number,
  l: number,
  c: number,
  v: number,
  symbol = '005930',
): Bar => {
  const ts = kst(`2026-11-23T${hhmm}:00`);
  return { symbol, interval: '1m', ts, closeTime: ts, open: o, high: h, low: l, close: c, volume: v };
};

/** A US minute bar stamped at `iso` (with offset). */
export const us = (iso: string, o: number, h: number, l: number, c: number, v: number): Bar => {
  const ts = Date.parse(iso);
  return { symbol: 'AAPL', interval: '1m', ts, closeTime: ts, open: o, high: h, low: l, close: c, volume: v };
};

/** What {@link order} makes an order of. */
export interface OrderSpec {
  symbol?: string;
  side: 'BUY' | 'SELL';
  type: 'MARKET' | 'LIMIT';
  tif?: 'DAY' | 'CLS';
  price?: string;
  quantity?: string;
  amount?: string;
  filledQuantity?: string;
  filledAmount?: string;
  /** Default {@link AT_0901} for a KR symbol, {@link US_1000} for AAPL. */
  acceptedAt?: number;
}

/** 09:01 KST on 2026-11-23: the close of the first regular minute. */
export const AT_0901 = kst('2026-11-23T09:01:00');
/** 10:00 New York on 2026-11-23 (EST). */
export const US_1000 = Date.parse('2026-11-23T10:00:00-05:00');

/** An order as the fill model sees it. */
export const order = (o: OrderSpec): FillableOrder => {
  const symbol = o.symbol ?? '005930';
  return {
    symbol,
    currency: instrumentOf(symbol).currency,
    side: o.side,
    orderType: o.type,
    timeInForce: o.tif ?? 'DAY',
    price: o.price === undefined ? null : new Decimal(o.price),
    quantity: o.quantity === undefined ? null : new Decimal(o.quantity),
    orderAmount: o.amount === undefined ? null : new Decimal(o.amount),
    filledQuantity: new Decimal(o.filledQuantity ?? '0'),
    filledAmount: new Decimal(o.filledAmount ?? '0'),
    acceptedAt: o.acceptedAt ?? (symbol === 'AAPL' ? US_1000 : AT_0901),
  };
};

/** What else an order of {@link market} or {@link limit} may say. */
export type More = Omit<OrderSpec, 'side' | 'type' | 'price' | 'quantity'>;

/** A market order of `quantity` (005930, accepted at 09:01 KST, unless `more` says otherwise). */
export const market = (side: 'BUY' | 'SELL', quantity: string, more: More = {}): FillableOrder =>
  order({ side, type: 'MARKET', quantity, ...more });

/** A limit order of `quantity` at `price` (005930, accepted at 09:01 KST, unless `more` says otherwise). */
export const limit = (
  side: 'BUY' | 'SELL',
  price: string,
  quantity: string,
  more: More = {},
): FillableOrder => order({ side, type: 'LIMIT', price, quantity, ...more });

/** One case of a table of bar fills. */
export interface FillRow {
  readonly name: string;
  readonly order: FillableOrder;
  readonly bar: Bar;
  /** The model to match with (the table's default when absent). */
  readonly model?: BarFillModel;
  /** `[quantity, price]` of the one slice, or null for no fill. */
  readonly expected: readonly [string, string] | null;
}

/** Asserts the slices of `row` matched at its bar's close: none, or the one expected, timed at the close. */
export function expectRowFills(row: FillRow, model: BarFillModel): void {
  const slices = (row.model ?? model).match(row.order, row.bar, row.bar.closeTime);
  if (row.expected === null) {
    expect(slices).toEqual([]);
  } else {
    expect(slices.map((s) => [s.quantity.toFixed(), s.price.toFixed()])).toEqual([row.expected]);
    expect(slices[0]?.time).toBe(row.bar.closeTime);
  }
}
