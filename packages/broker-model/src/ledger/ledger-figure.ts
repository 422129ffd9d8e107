/**
 * The ledger's running figures (cash, reservation totals): a safe integer while the figure is one,
 * else a Decimal, so that KRW cash and whole-share totals move by number arithmetic.
 *
 * @module
 */
import { type Decimal, decimalOfNumber, exactIntOf } from '@hoga/core';

/**
 * A running figure (cash, a reservation total) held as a safe integer while it is one (`int`; its
 * Decimal made when first read) or else as a Decimal (`int` NaN): KRW cash and whole-share totals
 * move by number arithmetic, exact below 2^53, and fall back to Decimal when a figure is not one.
 */
export interface Figure {
  int: number;
  dec: Decimal | null;
  /** The Decimal's nearest double, made when first read while `int` is NaN ({@link approxOf}). */
  approx?: number | undefined;
}

/** A figure's value as a double: its safe integer, else its Decimal's nearest double (kept). */
export function approxOf(f: Figure | undefined): number {
  if (f === undefined) return 0;
  if (!Number.isNaN(f.int)) return f.int;
  if (f.approx === undefined) f.approx = (f.dec as Decimal).toNumber();
  return f.approx;
}

/** A figure's value as a Decimal (made from its safe integer when first read, then kept). */
export function decOf(f: Figure): Decimal {
  if (f.dec === null) f.dec = decimalOfNumber(f.int);
  return f.dec;
}

/** Sets a figure to a safe integer. */
export function setInt(f: Figure, int: number): void {
  f.int = int;
  f.dec = null;
  f.approx = undefined;
}

/** Sets a figure to a Decimal (kept as a safe integer too when it is one). */
export function setDec(f: Figure, value: Decimal): void {
  f.int = exactIntOf(value);
  f.dec = value;
  f.approx = undefined;
}

/** Adds `sign × value` to the total under `key`; a total back at 0 is dropped. */
export function addTo<K>(
  totals: Map<K, Figure>,
  key: K,
  value: Decimal,
  valueInt: number,
  sign: 1 | -1,
): void {
  const total = totals.get(key);
  if (total === undefined) {
    const int = sign * valueInt;
    totals.set(key, Number.isNaN(int) ? { int, dec: value.times(sign) } : { int, dec: null });
    return;
  }
  const int = total.int + sign * valueInt;
  if (Number.isSafeInteger(int)) {
    if (int === 0) totals.delete(key);
    else setInt(total, int);
    return;
  }
  const dec = decOf(total);
  const next = sign === 1 ? dec.plus(value) : dec.minus(value);
  if (next.isZero()) totals.delete(key);
  else setDec(total, next);
}
