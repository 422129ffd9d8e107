/**
 * Average prices as the broker rounds them: the average purchase price of a holding, and the
 * average fill price of an order.
 *
 * @module
 */
import { type Currency, Decimal } from '@hoga/core';

/** Decimal places of a holding's average purchase price (both markets), rounded half up. */
export const AVERAGE_PURCHASE_PRICE_PLACES = 4;

/** Decimal places of an order's average fill price: KRW whole won plus two, USD four. */
export const AVERAGE_FILL_PRICE_PLACES: Readonly<Record<Currency, number>> = { KRW: 2, USD: 4 };

/**
 * A holding's average purchase price after a buy: the held cost (quantity × average) plus the
 * bought amount, over the new quantity, rounded half up to 4 places. Commission is not part of it;
 * sells leave it unchanged.
 *
 * @param heldQuantity - quantity held before the buy (0 when none)
 * @param heldAverage - average purchase price before the buy (any value when nothing is held)
 * @param boughtQuantity - quantity bought (> 0)
 * @param boughtAmount - traded amount of the buy, already rounded to the currency
 * @example
 * ```ts
 * averagePurchasePrice(new Decimal(100), new Decimal(65000), new Decimal(100), new Decimal(7000000));
 * // 67500
 * ```
 */
export function averagePurchasePrice(
  heldQuantity: Decimal,
  heldAverage: Decimal,
  boughtQuantity: Decimal,
  boughtAmount: Decimal,
): Decimal {
  const cost = heldQuantity.isZero() ? new Decimal(0) : heldAverage.times(heldQuantity);
  return cost
    .plus(boughtAmount)
    .dividedBy(heldQuantity.plus(boughtQuantity))
    .toDecimalPlaces(AVERAGE_PURCHASE_PRICE_PLACES, Decimal.ROUND_HALF_UP);
}

/**
 * An order's average fill price: the filled amount over the filled quantity, rounded half up to
 * 2 places for KRW and 4 for USD; null before any fill.
 */
export function averageFillPrice(
  currency: Currency,
  filledAmount: Decimal,
  filledQuantity: Decimal,
): Decimal | null {
  if (filledQuantity.lte(0)) return null;
  return filledAmount
    .dividedBy(filledQuantity)
    .toDecimalPlaces(AVERAGE_FILL_PRICE_PLACES[currency], Decimal.ROUND_HALF_UP);
}
