/**
 * KR daily price limits: ±30% of the reference price on the tick grid, and the rule that refuses a
 * limit price outside them.
 *
 * @module
 */
import {
  ACCEPTED,
  type BrokerVerdict,
  type Decimal,
  type Instrument,
  KR_PRICE_LIMIT_RATE,
  krTickSizeOfNumber,
  refuse,
  roundToTick,
} from '@hoga/core';
import type { PriceLimits } from './rule-inputs.js';

/**
 * The daily limits of a KR instrument: the reference price ±30%, rounded inward onto the tick grid.
 *
 * @example
 * ```ts
 * krPriceLimits(samsung, new Decimal(72100)); // { upper: 93700, lower: 50500 }
 * ```
 */
export function krPriceLimits(instrument: Instrument, referencePrice: Decimal): PriceLimits {
  return {
    upper: roundToTick(instrument, referencePrice.times(KR_PRICE_LIMIT_RATE.plus(1)), 'down'),
    lower: roundToTick(instrument, referencePrice.times(KR_PRICE_LIMIT_RATE.negated().plus(1)), 'up'),
  };
}

/** The limit rate in tenths (3 for ±30 %), when it is a whole number of tenths, else NaN. */
const RATE_TENTHS = (() => {
  const tenths = KR_PRICE_LIMIT_RATE.times(10);
  return tenths.isInteger() ? tenths.toNumber() : Number.NaN;
})();

/**
 * {@link krPriceLimits} in numbers, for a reference of whole won (a bar's close): the same limits
 * without Decimal arithmetic, for a caller asking once per order. Null when the reference is not
 * a positive safe whole number (the Decimal version answers then).
 *
 * `reference × 1.3` and `× 0.7` are tenths of won, never exactly on a tick band's bound (no bound
 * is a multiple of 13 or 7 tenths of a whole number of won), so the band is that of the Decimal
 * version; each is then rounded inward onto its band's ticks as integer quotients.
 *
 * @example
 * ```ts
 * krPriceLimitsOfNumber(samsung, 72100); // { upper: 93700, lower: 50500 }
 * ```
 */
export function krPriceLimitsOfNumber(
  instrument: Instrument,
  reference: number,
): { readonly upper: number; readonly lower: number } | null {
  // whole won, its products by 13 and 7 exact
  if (!Number.isSafeInteger(reference) || !Number.isSafeInteger(reference * 20) || reference <= 0)
    return null;
  if (Number.isNaN(RATE_TENTHS)) return null;
  const up = reference * (10 + RATE_TENTHS);
  const down = reference * (10 - RATE_TENTHS);
  const upTick = krTickSizeOfNumber(instrument, up / 10);
  const downTick = krTickSizeOfNumber(instrument, down / 10);
  if (!Number.isSafeInteger(upTick) || !Number.isSafeInteger(downTick) || upTick < 1 || downTick < 1)
    return null;
  return {
    upper: Math.floor(up / (10 * upTick)) * upTick,
    lower: Math.ceil(down / (10 * downTick)) * downTick,
  };
}

/**
 * 422 `price-out-of-range` for a limit price above the upper or below the lower limit;
 * `data = {field: 'price', upperLimitPrice, lowerLimitPrice}`.
 *
 * @param price - the limit price (null for market orders: accepted)
 * @param limits - the day's limits (null where none exist: accepted)
 */
export function checkPriceLimits(price: Decimal | null, limits: PriceLimits | null): BrokerVerdict {
  if (price === null || limits === null || (price.lte(limits.upper) && price.gte(limits.lower)))
    return ACCEPTED;
  const range = `${limits.lower.toFixed()} to ${limits.upper.toFixed()}`;
  return refuse('price-out-of-range', `price ${price.toFixed()} is outside the daily limits, ${range}`, {
    field: 'price',
    upperLimitPrice: limits.upper.toFixed(),
    lowerLimitPrice: limits.lower.toFixed(),
  });
}
