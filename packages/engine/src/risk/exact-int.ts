/**
 * Exact integer arithmetic on numbers for the risk book's hot path: a Decimal that is an integer
 * within ±(2^53 − 1) is held as a number, and sums, differences and products of such numbers are
 * exact as long as each result is again a safe integer (checked after every operation). Anything
 * else (fractions, larger values) stays with Decimal.
 *
 * @module
 */
import type { Decimal } from '@hoga/core';

/** decimal.js keeps its digits in base 10^7 words, most significant first (`d`), with the base-10 exponent `e`. */
const WORD = 10_000_000;
const WORD_DIGITS = 7;

/**
 * `x` as a number when it is an integer within ±(2^53 − 1), else NaN (fractions, larger values,
 * NaN and infinities). Reads the digits decimal.js exposes (`d`, `e`, `s`): no text is made.
 */
export function safeIntOf(x: Decimal): number {
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

/** a + b when both are safe integers and so is the sum, else NaN. */
export function addExact(a: number, b: number): number {
  const r = a + b;
  return Number.isSafeInteger(r) ? r : Number.NaN;
}

/** a − b when both are safe integers and so is the difference, else NaN. */
export function subExact(a: number, b: number): number {
  const r = a - b;
  return Number.isSafeInteger(r) ? r : Number.NaN;
}

/** a × b when both are safe integers and so is the product, else NaN. */
export function mulExact(a: number, b: number): number {
  const r = a * b;
  return Number.isSafeInteger(r) ? r : Number.NaN;
}

/** Limits as safe integers (NaN: not one), per limit value (a run's limits do not change). */
const limitInts = new WeakMap<Decimal, number>();

/** {@link safeIntOf} of a limit, found once per limit value. */
export function limitIntOf(limit: Decimal): number {
  let value = limitInts.get(limit);
  if (value === undefined) {
    value = safeIntOf(limit);
    limitInts.set(limit, value);
  }
  return value;
}
