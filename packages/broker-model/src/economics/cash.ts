/**
 * Cash precision per currency: KRW in whole won, USD in cents.
 *
 * @module
 */
import { type Currency, Decimal } from '@hoga/core';

/** Decimal places of cash amounts per currency: KRW whole won, USD cents. */
export const CASH_PLACES: Readonly<Record<Currency, number>> = { KRW: 0, USD: 2 };

/** Decimal places of cash amounts in a currency: KRW whole won, USD cents. */
export function cashPlaces(currency: Currency): number {
  return CASH_PLACES[currency];
}

/** Rounds a cash amount to its currency's precision, half up (traded amounts, balances). */
export function roundCash(currency: Currency, amount: Decimal): Decimal {
  return amount.toDecimalPlaces(cashPlaces(currency), Decimal.ROUND_HALF_UP);
}

/** Rounds a cash amount up (away from zero) to its currency's precision (what an open buy holds back). */
export function ceilCash(currency: Currency, amount: Decimal): Decimal {
  return amount.toDecimalPlaces(cashPlaces(currency), Decimal.ROUND_UP);
}

/** Rounds a cash amount down (toward zero) to its currency's precision (buying power shown). */
export function floorCash(currency: Currency, amount: Decimal): Decimal {
  return amount.toDecimalPlaces(cashPlaces(currency), Decimal.ROUND_DOWN);
}

/**
 * ⌊x / y⌋ for a safe integer `x ≥ 0` and an integer `y > 0` (the quotient corrected by its
 * remainder, so that no rounding of the division can move it); NaN when `x` is not one.
 */
export function floorDivInt(x: number, y: number): number {
  if (!Number.isSafeInteger(x) || x < 0) return Number.NaN;
  let q = Math.floor(x / y);
  if (q * y > x) q -= 1;
  else if ((q + 1) * y <= x) q += 1;
  return q;
}

/** ⌈x / y⌉ for a safe integer `x ≥ 0` and an integer `y > 0`; NaN when `x` is not one. */
export function ceilDivInt(x: number, y: number): number {
  const q = floorDivInt(x, y);
  return q * y === x ? q : q + 1;
}
