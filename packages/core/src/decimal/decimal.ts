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
 * Writes a decimal in plain notation, never with an exponent (`1e-7` → `"0.0000001"`).
 *
 * @param d - the decimal
 * @returns the plain string; negative zero is written `"0"`
 */
export function formatDecimal(d: Decimal): string {
  return d.isZero() ? '0' : d.toFixed();
}
