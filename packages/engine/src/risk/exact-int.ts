/**
 * Exact integer arithmetic on numbers for the risk book's hot path: a Decimal that is an integer
 * within ±(2^53 − 1) is held as a number, and sums, differences and products of such numbers are
 * exact as long as each result is again a safe integer (checked after every operation). Anything
 * else (fractions, larger values) stays with Decimal.
 *
 * @module
 */
import { type Decimal, exactIntOf } from '@hoga/core';

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

/** {@link exactIntOf} of a limit, found once per limit value. */
export function limitIntOf(limit: Decimal): number {
  let value = limitInts.get(limit);
  if (value === undefined) {
    value = exactIntOf(limit);
    limitInts.set(limit, value);
  }
  return value;
}
