import { type Decimal, formatKst } from '@hoga/core';
import { DateTime } from 'luxon';
import { SimApiError } from '../api-error.js';
import type { MarketModel, OrderSession, SimInstrument } from '../market/market-model.js';
import { businessRule } from './brokerage-errors.js';
import type { SimOrder, SimOrderType, SimSide, SimTimeInForce } from './order-types.js';
import { isOpen } from './order-types.js';

/** Orders of this KRW value or more need `confirmHighValueOrder: true` (400). */
export const HIGH_VALUE_THRESHOLD_KRW = '100000000';
/** Orders of this KRW value or more are refused (422 `max-order-amount-exceeded`). */
export const MAX_ORDER_AMOUNT_KRW = '3000000000';
/** Amount and fractional orders close this long before the US regular session ends. */
const AMOUNT_ORDER_CUTOFF_MS = 60 * 60 * 1000;

/** What the order rules look at, for a new order or the replacement of a modify. */
export interface RuleSubject {
  readonly instrument: SimInstrument;
  readonly side: SimSide;
  readonly orderType: SimOrderType;
  readonly timeInForce: SimTimeInForce;
  readonly price: Decimal | null;
  /** True for an amount-based order or a fractional quantity. */
  readonly fractionalOrAmount: boolean;
  /** Which field made it an amount/fractional order (for `data.field`). */
  readonly sizingField: 'orderAmount' | 'quantity';
}

/**
 * 400 `confirm-high-value-required` when the order is worth 100,000,000 KRW or
 * more (USD at the display rate) and the flag is not set.
 */
export function checkHighValue(valueKrw: Decimal, confirmed: boolean): void {
  if (!confirmed && valueKrw.gte(HIGH_VALUE_THRESHOLD_KRW)) {
    throw new SimApiError(
      400,
      'confirm-high-value-required',
      `An order worth ${valueKrw.toFixed(0)} KRW needs confirmHighValueOrder=true`,
      { field: 'confirmHighValueOrder', limits: { threshold: HIGH_VALUE_THRESHOLD_KRW, currency: 'KRW' } },
    );
  }
}

/** 422 `max-order-amount-exceeded` at 3,000,000,000 KRW or more, whatever the flag. */
export function checkMaxAmount(valueKrw: Decimal): void {
  if (valueKrw.gte(MAX_ORDER_AMOUNT_KRW)) {
    throw businessRule('max-order-amount-exceeded', 'The order exceeds the maximum order amount', {
      limits: { maxAmount: MAX_ORDER_AMOUNT_KRW, currency: 'KRW' },
    });
  }
}

/** How far ahead `retryAfterAt` is looked for (a long holiday weekend fits). */
const NEXT_OPEN_HORIZON_MS = 8 * 24 * 60 * 60 * 1000;
/** Coarse scan step: every session lasts longer than this. */
const COARSE_STEP_MS = 15 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/**
 * The first whole minute from `now` at which orders of a country are accepted
 * again (sessions start on whole minutes), or null beyond 8 days: a coarse
 * scan every 15 minutes, then minute by minute back to the opening.
 */
export function nextOrderOpen(
  market: MarketModel,
  country: SimInstrument['country'],
  now: DateTime,
): DateTime | null {
  const zone = now.zone;
  const isOpen = (ms: number) => market.orderSession(country, DateTime.fromMillis(ms, { zone })) !== null;
  const startMs = Math.ceil(now.toMillis() / MINUTE_MS) * MINUTE_MS;
  for (let ms = startMs; ms - startMs <= NEXT_OPEN_HORIZON_MS; ms += COARSE_STEP_MS) {
    if (!isOpen(ms)) continue;
    let open = ms;
    while (open - MINUTE_MS >= startMs && isOpen(open - MINUTE_MS)) open -= MINUTE_MS;
    return DateTime.fromMillis(open, { zone });
  }
  return null;
}

/**
 * 422 `order-hours-closed` when no order session of the country is open, with
 * `data.retryAfterAt` (KST) when the next opening is known; returns the open session.
 */
export function requireOrderSession(
  market: MarketModel,
  instrument: SimInstrument,
  now: DateTime,
): OrderSession {
  const session = market.orderSession(instrument.country, now);
  if (session === null) {
    const next = nextOrderOpen(market, instrument.country, now);
    throw businessRule(
      'order-hours-closed',
      `${instrument.country} orders are not accepted at ${formatKst(now)}`,
      next === null ? undefined : { retryAfterAt: formatKst(next) },
    );
  }
  return session;
}

/**
 * The business rules of a new order (or a modify's replacement), in order:
 * hours, restriction, prerequisite, market support, amount-order window,
 * quote type, price limits. Buying power and the opposite-side rule are
 * checked by the caller afterwards.
 */
export function checkOrderRules(market: MarketModel, subject: RuleSubject, now: DateTime): void {
  const { instrument } = subject;
  const session = requireOrderSession(market, instrument, now);
  if (instrument.suspended) {
    throw businessRule('stock-restricted', `Trading in ${instrument.symbol} is suspended`);
  }
  if (instrument.prerequisiteRequired) {
    throw businessRule(
      'prerequisite-required',
      `Orders in ${instrument.symbol} need the prerequisite (risk notice) completed in the brokerage app`,
    );
  }
  if (instrument.country === 'KR' && !instrument.nxtSupported && session !== 'REGULAR') {
    throw businessRule(
      'market-not-supported-for-stock',
      `${instrument.symbol} is not traded on the alternative exchange outside the regular session`,
    );
  }
  if (subject.fractionalOrAmount) checkAmountOrderWindow(market, subject.sizingField, now);
  if (subject.orderType === 'MARKET' && session !== 'REGULAR') {
    throw businessRule('order-type-not-allowed', 'MARKET orders are accepted in the regular session only', {
      field: 'orderType',
      session,
    });
  }
  if (subject.timeInForce === 'CLS' && session !== 'REGULAR') {
    throw businessRule('order-type-not-allowed', 'CLS orders are accepted in the US regular session only', {
      field: 'timeInForce',
      session,
    });
  }
  const limits = market.priceLimits(instrument.symbol, now);
  if (
    subject.price !== null &&
    limits !== null &&
    (subject.price.gt(limits.upper) || subject.price.lt(limits.lower))
  ) {
    throw businessRule('price-out-of-range', `price ${subject.price.toFixed()} is outside the daily limits`, {
      field: 'price',
      upperLimitPrice: limits.upper.toFixed(),
      lowerLimitPrice: limits.lower.toFixed(),
    });
  }
}

/** 422 `amount-order-outside-regular-hours` outside [US regular start, end − 1 h). */
export function checkAmountOrderWindow(market: MarketModel, field: string, now: DateTime): void {
  const regular = market.usRegularSession(now);
  const nowMs = now.toMillis();
  if (
    regular === null ||
    nowMs < regular.start.toMillis() ||
    nowMs >= regular.end.toMillis() - AMOUNT_ORDER_CUTOFF_MS
  ) {
    const data: Record<string, unknown> = { field };
    if (regular) data.regularHours = { start: regular.start.toISO(), end: regular.end.toISO() };
    throw businessRule(
      'amount-order-outside-regular-hours',
      'Amount and fractional orders are accepted from the US regular-session start until one hour before its end',
      data,
    );
  }
}

/** 422 `opposite-pending-order-exists` (KR only): an open order of the other side on the same stock. */
export function checkOppositePending(
  orders: readonly SimOrder[],
  subject: RuleSubject,
  accountSeq: number,
): void {
  if (subject.instrument.country !== 'KR') return;
  const opposite = orders.find(
    (o) =>
      o.accountSeq === accountSeq &&
      o.symbol === subject.instrument.symbol &&
      o.side !== subject.side &&
      o.kind === 'ORDER' &&
      isOpen(o),
  );
  if (opposite) {
    throw businessRule(
      'opposite-pending-order-exists',
      `An open ${opposite.side} order on ${subject.instrument.symbol} exists: ${opposite.orderId}`,
    );
  }
}
