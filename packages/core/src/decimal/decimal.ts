/**
 * The one `Decimal` configuration used by hoga, and strict parsing of wire decimal strings.
 *
 * @module
 */
import { Decimal } from 'decimal.js';
import { DecimalParseError } from '../errors.js';

// One shared configuration: enough significant digits for any price × quantity × rate, and
// `toString()` that never switches to exponent notation within realistic magnitudes.
Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });

export { Decimal };

/** Strict wire format: optional minus, digits, optional fraction with at least one digit. */
const DECIMAL_PATTERN = /^-?\d+(?:\.\d+)?$/;

/**
 * Parses a strict wire decimal string (e.g. `"72100"`, `"-0.25"`).
 *
 * Rejects exponents (`"1e5"`), empty or padded strings, `"NaN"`, `"Infinity"`, hex, `"1."`, `".5"`,
 * JS numbers and any non-string.
 *
 * @param value - the raw value from the wire
 * @param field - name of the field, used in the error
 * @returns the parsed decimal
 * @throws {@link DecimalParseError} naming `field` when the value is not a strict decimal string
 */
export function parseDecimal(value: unknown, field: string): Decimal {
  if (typeof value !== 'string' || !DECIMAL_PATTERN.test(value)) {
    throw new DecimalParseError(field, value);
  }
  return new Decimal(value);
}

/**
 * Like {@link parseDecimal} but maps `null` to `null` (for nullable wire fields).
 *
 * @param value - the raw value from the wire
 * @param field - name of the field, used in the error
 * @returns the decimal, or `null` when the value is `null`
 * @throws {@link DecimalParseError} for anything else that is not a strict decimal string
 */
export function parseNullableDecimal(value: unknown, field: string): Decimal | null {
  return value === null ? null : parseDecimal(value, field);
}

/**
 * Writes a decimal in plain notation, never with an exponent (`1e-7` → `"0.0000001"`). A safe
 * integer (whole won, whole shares: most of what a backtest stores) is written by the number's own
 * `String`, the same digits without decimal.js's formatting.
 *
 * @param d - the decimal
 * @returns the plain string; negative zero is written `"0"`
 */
export function formatDecimal(d: Decimal): string {
  const int = exactIntOf(d);
  if (!Number.isNaN(int)) return String(int);
  return d.isZero() ? '0' : d.toFixed();
}

const ZERO = new Decimal(0);
/** Decimals of safe integers made by {@link decimalOfNumber}, by value (cleared when full). */
const INTEGERS = new Map<number, Decimal>();
const INTEGERS_KEPT = 16_384;

/**
 * `n` as a Decimal. A safe integer (a whole-won price or amount, a whole number of shares) is
 * made once and shared: a Decimal never changes, and a backtest makes the same few thousand
 * prices, quantities and commissions hundreds of thousands of times. Anything else is a new
 * Decimal, as `new Decimal(n)` makes it.
 */
export function decimalOfNumber(n: number): Decimal {
  if (!Number.isSafeInteger(n)) return new Decimal(n);
  // +0 and -0 are one key of a Map: 0 is always the positive one
  if (n === 0) return ZERO;
  let d = INTEGERS.get(n);
  if (d === undefined) {
    if (INTEGERS.size >= INTEGERS_KEPT) INTEGERS.clear();
    d = new Decimal(n);
    INTEGERS.set(n, d);
  }
  return d;
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
 * `a × b`: from the safe-integer product when both are safe integers and so is their product (a
 * whole-won price times whole shares: no Decimal arithmetic), else decimal.js's `times`. The same
 * value either way (a safe integer has at most 16 digits, within any precision decimal.js rounds to).
 */
export function timesExact(a: Decimal, b: Decimal): Decimal {
  const product = exactIntOf(a) * exactIntOf(b);
  return Number.isSafeInteger(product) ? decimalOfNumber(product) : a.times(b);
}
