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

/** decimal.js keeps its digits in base 10^7 words, most significant first (`d`), with the base-10 exponent `e`. */
const WORD = 10_000_000;
const WORD_DIGITS = 7;

/**
 * `x` as a number when it is an integer within ±(2^53 − 1), else NaN (fractions, larger values,
 * NaN and infinities). Reads the digits decimal.js exposes (`d`, `e`, `s`): no text is made. The
 * economics and the ledger compute with such numbers (KRW amounts, whole-share quantities), exact
 * while every result is again a safe integer, and fall back to Decimal otherwise.
 */
export function exactIntOf(x: Decimal): number {
  const d = x.d;
  // NaN and ±Infinity have no digits; 2^53 has 16 digits (exponent 15)
  if (d === null || d === undefined || x.e > 15) return Number.NaN;
  // words before the decimal point (0 or less: |x| < 1, an integer only when it is 0)
  const words = Math.floor(x.e / WORD_DIGITS) + 1;
  if (d.length > words) return d.length === 1 && d[0] === 0 ? 0 : Number.NaN;
  let v = 0;
  for (let i = 0; i < words; i++) v = v * WORD + (d[i] ?? 0);
  if (!Number.isSafeInteger(v)) return Number.NaN;
  return v === 0 ? 0 : x.s * v;
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
