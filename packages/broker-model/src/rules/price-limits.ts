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
