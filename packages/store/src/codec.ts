/**
 * Conversions between domain values and SQLite column values.
 *
 * Decimals are stored as plain decimal TEXT (`formatDecimal`), never REAL; times as INTEGER epoch
 * milliseconds (UTC); JSON payloads as TEXT with every `Decimal` written as its plain string.
 *
 * @module
 */
import { Decimal, DecimalParseError, formatDecimal, parseDecimal } from '@hoga/core';
import { StoreError, StoreErrorCode } from './store-error.js';

/** Writes a decimal as column text. */
export function decimalToText(value: Decimal): string {
  return formatDecimal(value);
}

/** Writes a nullable decimal as column text or NULL. */
export function nullableDecimalToText(value: Decimal | null | undefined): string | null {
  return value === null || value === undefined ? null : formatDecimal(value);
}

/**
 * Reads decimal column text back.
 *
 * @param value - the column value
 * @param column - `table.column`, named in the error
 * @throws {@link StoreError} `corrupt-row` when the column does not hold a plain decimal string
 */
export function textToDecimal(value: unknown, column: string): Decimal {
  try {
    return parseDecimal(value, column);
  } catch (e) {
    if (e instanceof DecimalParseError) {
      throw new StoreError(StoreErrorCode.CORRUPT_ROW, `stored ${e.message}`, { cause: e });
    }
    throw e;
  }
}

/** Reads nullable decimal column text back (see {@link textToDecimal}). */
export function textToNullableDecimal(value: unknown, column: string): Decimal | null {
  return value === null ? null : textToDecimal(value, column);
}

/**
 * Reads a text column that must hold one of a fixed set of values.
 *
 * @throws {@link StoreError} `corrupt-row` for any other value
 */
export function textToMember<T extends string>(
  value: unknown,
  allowed: ReadonlySet<string>,
  column: string,
): T {
  if (typeof value !== 'string' || !allowed.has(value)) {
    throw new StoreError(
      StoreErrorCode.CORRUPT_ROW,
      `stored ${column}: expected one of ${[...allowed].join(', ')}, found ${String(value)}`,
    );
  }
  return value as T;
}

function replacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (Decimal.isDecimal(raw)) return formatDecimal(raw as Decimal);
  if (typeof raw === 'bigint') return raw.toString();
  return value;
}

/**
 * Serialises a payload to JSON text: `Decimal` values become plain decimal strings (never an
 * exponent), bigints strings, objects with `toJSON` (e.g. luxon `DateTime`) their JSON form.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, replacer) ?? 'null';
}

/**
 * Parses JSON column text.
 *
 * @throws {@link StoreError} `corrupt-row` when the text is not JSON
 */
export function fromJsonText(text: unknown, column: string): unknown {
  if (typeof text !== 'string') {
    throw new StoreError(
      StoreErrorCode.CORRUPT_ROW,
      `stored ${column}: expected JSON text, found ${typeof text}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new StoreError(StoreErrorCode.CORRUPT_ROW, `stored ${column}: not valid JSON`, { cause: e });
  }
}
