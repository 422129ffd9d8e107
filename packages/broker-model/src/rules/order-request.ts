/**
 * The 400 checks of a new order beyond its shape: the price grid (KR ticks, with the correct tick in
 * `data`; US prices truncated to their grid), and the high-value confirmation.
 *
 * @module
 */
import {
  ACCEPTED,
  type BrokerVerdict,
  checkOrderShape,
  checkPricePositive,
  type Decimal,
  HIGH_VALUE_ORDER_KRW,
  type Instrument,
  invalidRequest,
  isOnTick,
  MIN_ORDER_AMOUNT_USD,
  refuse,
  roundToTick,
  tickSize,
} from '@hoga/core';
import type { OrderRequest, RequestVerdict } from './rule-inputs.js';

/**
 * A limit price against the instrument's grid. KR prices off the tick grid are refused (400
 * `invalid-request` with `tickSize`, `lowerTick`, `upperTick`, `nearestPrices`); US prices are
 * truncated onto core's US grid ($0.01 from $1, $0.0001 below), refused only when nothing is left.
 *
 * @param instrument - the instrument (its market and security type pick the grid)
 * @param price - the requested price
 */
export function checkLimitPrice(instrument: Instrument, price: Decimal): RequestVerdict {
  const positive = checkPricePositive(price);
  if (!positive.accepted) return positive;
  if (instrument.market === 'US') {
    const truncated = usPriceTruncation(instrument, price)?.truncatedTo ?? price;
    if (truncated.lte(0)) {
      return invalidRequest('price', 'price truncates to 0', { constraint: { exclusiveMin: 0 } });
    }
    return { accepted: true, price: truncated };
  }
  if (!price.isInteger() || !isOnTick(instrument, price)) {
    const lower = roundToTick(instrument, price, 'down');
    const upper = roundToTick(instrument, price, 'up');
    const tick = tickSize(instrument, price).toFixed();
    const nearest = lower.gt(0)
      ? `the nearest prices are ${lower.toFixed()} and ${upper.toFixed()}`
      : `the nearest price is ${upper.toFixed()}`;
    return invalidRequest(
      'price',
      `price ${price.toFixed()} is off the tick grid (tick ${tick} at this price): ${nearest}`,
      {
        tickSize: tick,
        lowerTick: lower.toFixed(),
        upperTick: upper.toFixed(),
        nearestPrices: [lower.toFixed(), upper.toFixed()],
      },
    );
  }
  return { accepted: true, price };
}

/** A US limit price off the broker's grid: what the broker works instead, and the grid around it. */
export interface UsPriceTruncation {
  /** The grid's step at the price: $0.01 from $1, $0.0001 below. */
  readonly tickSize: Decimal;
  /** The price the broker works the order at: the asked one with its extra digits cut off. */
  readonly truncatedTo: Decimal;
  /** The nearest prices on the grid below and above the asked one. */
  readonly nearestPrices: readonly [Decimal, Decimal];
}

/**
 * The broker's US price rule (the reference: 2 decimals from $1, 4 below, "extra digits
 * truncated"): a US limit price off the grid is taken, and worked at the price truncated onto it.
 * The broker refuses nothing; {@link checkLimitPrice} works with the truncated price as the broker
 * does, and the risk module denies such a price before sending (`risk-price-off-grid`), as a
 * strategy's order would otherwise work at a price it did not ask.
 *
 * @param instrument - the instrument (only a US one has this rule)
 * @param price - a positive limit price
 * @returns the truncation, or null when the price is on the grid (or the instrument not US)
 */
export function usPriceTruncation(instrument: Instrument, price: Decimal): UsPriceTruncation | null {
  if (instrument.market !== 'US' || isOnTick(instrument, price)) return null;
  const lower = roundToTick(instrument, price, 'down');
  return {
    tickSize: tickSize(instrument, price),
    truncatedTo: lower,
    nearestPrices: [lower, roundToTick(instrument, price, 'up')],
  };
}

/**
 * The broker's least US amount order: one under {@link MIN_ORDER_AMOUNT_USD} is taken (an order id
 * is answered) and its record then shows `REJECTED`; no create error names it. The simulator
 * rejects it so, the engine's simulated venue too (`broker-rejected`), and the risk module denies it
 * before sending (`risk-amount-below-minimum`).
 *
 * @param orderAmount - the order's `orderAmount` (USD), or null (an order by quantity)
 * @returns why the broker rejects it, or null when it does not (not an amount order, or at least the minimum)
 */
export function minOrderAmountRejection(orderAmount: Decimal | null): string | null {
  if (orderAmount === null || !orderAmount.lt(MIN_ORDER_AMOUNT_USD)) return null;
  return `An amount order of ${orderAmount.toFixed()} USD is under the broker’s least amount, ${MIN_ORDER_AMOUNT_USD.toFixed()} USD: the broker takes it, then rejects it`;
}

/**
 * The instrument-dependent 400 checks of a new order: its shape (core's {@link checkOrderShape}),
 * then its price grid. Answers the price the broker works with.
 *
 * @param instrument - the resolved instrument
 * @param request - the request
 */
export function checkOrderRequest(instrument: Instrument, request: OrderRequest): RequestVerdict {
  const shape = checkOrderShape(request, instrument.market);
  if (!shape.accepted) return shape;
  return request.price === null
    ? { accepted: true, price: null }
    : checkLimitPrice(instrument, request.price);
}

/**
 * 400 `confirm-high-value-required` when the order is worth 100,000,000 KRW or more (USD at the
 * display rate) and `confirmHighValueOrder` is not set (create and modify).
 *
 * @param valueKrw - the order's value in KRW (the economics' `orderValueKrw`)
 * @param confirmed - `confirmHighValueOrder`
 */
export function checkHighValue(valueKrw: Decimal, confirmed: boolean): BrokerVerdict {
  if (confirmed || valueKrw.lt(HIGH_VALUE_ORDER_KRW)) return ACCEPTED;
  return refuse(
    'confirm-high-value-required',
    `An order worth ${valueKrw.toFixed(0)} KRW needs confirmHighValueOrder=true`,
    {
      field: 'confirmHighValueOrder',
      limits: { threshold: HIGH_VALUE_ORDER_KRW.toFixed(), currency: 'KRW' },
    },
  );
}
