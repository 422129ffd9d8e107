import { reservePrice } from '@hoga/broker-model';
import { BrokerOrderStatus, Decimal } from '@hoga/core';
import type { DateTime } from 'luxon';
import type { MarketModel, SimInstrument } from '../market/market-model.js';
import type { SimOrder, SimOrderType, SimSide, SimTimeInForce } from './order-types.js';
import { dayOrderExpiry } from './settlement.js';

/** The fields that define a new working order. */
export interface NewOrderFields {
  readonly accountSeq: number;
  readonly instrument: SimInstrument;
  readonly side: SimSide;
  readonly orderType: SimOrderType;
  readonly timeInForce: SimTimeInForce;
  readonly price: Decimal | null;
  /** Quantity; null for an amount-based order. */
  readonly quantity: Decimal | null;
  readonly orderAmount: Decimal | null;
  readonly originOrderId: string | null;
  /** Keeps the expiry of the order a modify replaces. */
  readonly expiresAtMs?: number;
}

/**
 * The price a market or amount order reserves at (the broker model's `reservePrice`): KR market
 * buys at the upper price limit, US market buys 5% above the last price, sells and amount orders at
 * the last price; limit orders at their price.
 */
export function reservePriceOf(market: MarketModel, fields: NewOrderFields, now: DateTime): Decimal {
  const symbol = fields.instrument.symbol;
  if (fields.price !== null) return fields.price;
  return reservePrice({ market: fields.instrument.country }, fields, {
    lastPrice: market.lastPrice(symbol, now),
    priceLimits: market.priceLimits(symbol, now),
  });
}

/** When an order still open at that time is cancelled: end of its trading day, or the close for CLS. */
export function expiryOf(market: MarketModel, fields: NewOrderFields, now: DateTime): number {
  if (fields.expiresAtMs !== undefined) return fields.expiresAtMs;
  if (fields.timeInForce === 'CLS') {
    const regular = market.usRegularSession(now);
    if (regular) return regular.end.toMillis();
  }
  return dayOrderExpiry(fields.instrument.country, now.toMillis());
}

/** Builds a new PENDING order record (not yet stored). */
export function buildOrder(
  market: MarketModel,
  fields: NewOrderFields,
  ids: { seq: number; orderId: string },
  now: DateTime,
  hiddenUntilMs: number,
): SimOrder {
  const zero = new Decimal(0);
  return {
    orderId: ids.orderId,
    seq: ids.seq,
    accountSeq: fields.accountSeq,
    symbol: fields.instrument.symbol,
    country: fields.instrument.country,
    currency: fields.instrument.currency,
    side: fields.side,
    orderType: fields.orderType,
    timeInForce: fields.timeInForce,
    status: BrokerOrderStatus.PENDING,
    price: fields.price,
    quantity: fields.quantity ?? zero,
    orderAmount: fields.orderAmount,
    orderedAtMs: now.toMillis(),
    canceledAtMs: null,
    expiresAtMs: expiryOf(market, fields, now),
    reservePrice: reservePriceOf(market, fields, now),
    filledQuantity: zero,
    filledAmount: zero,
    commission: zero,
    tax: zero,
    filledAtMs: null,
    settlementDate: null,
    kind: 'ORDER',
    originOrderId: fields.originOrderId,
    hiddenUntilMs,
  };
}

/**
 * The record a cancel leaves: a new, already CANCELED order of the cancelled
 * remainder (same symbol, side, type and price), pointing at the original.
 */
export function buildCancelRecord(
  original: SimOrder,
  ids: { seq: number; orderId: string },
  nowMs: number,
  hiddenUntilMs: number,
): SimOrder {
  const zero = new Decimal(0);
  const remaining =
    original.orderAmount !== null ? zero : Decimal.max(0, original.quantity.minus(original.filledQuantity));
  return {
    ...original,
    orderId: ids.orderId,
    seq: ids.seq,
    status: BrokerOrderStatus.CANCELED,
    quantity: remaining,
    orderAmount:
      original.orderAmount === null
        ? null
        : Decimal.max(0, original.orderAmount.minus(original.filledAmount)),
    orderedAtMs: nowMs,
    canceledAtMs: nowMs,
    filledQuantity: zero,
    filledAmount: zero,
    commission: zero,
    tax: zero,
    filledAtMs: null,
    settlementDate: null,
    kind: 'CANCEL',
    originOrderId: original.orderId,
    hiddenUntilMs,
  };
}
