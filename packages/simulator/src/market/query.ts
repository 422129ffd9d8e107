/**
 * Validation of the query parameters of the market endpoints: every failure is a
 * {@link SimApiError} 400 `invalid-request` naming the field in `data`.
 *
 * @module
 */
import { parseDate, parseDateTime } from '@hoga/core';
import type { DateTime } from 'luxon';
import { SimApiError } from '../api-error.js';

/** Characters allowed in one symbol. */
const SYMBOL = /^[A-Za-z0-9.-]+$/;
/** Characters allowed in a comma-separated symbol list. */
const SYMBOL_LIST = /^[A-Za-z0-9.,-]*$/;
const INTEGER = /^-?\d+$/;

/** Most symbols in one `symbols` list. */
export const MAX_SYMBOLS = 200;

/** A 400 `invalid-request` naming `field`. */
export function invalidRequest(
  field: string,
  message: string,
  data: Record<string, unknown> = {},
): SimApiError {
  return new SimApiError(400, 'invalid-request', message, { field, ...data });
}

/** The required single `symbol` parameter (pattern `[A-Za-z0-9.-]+`). */
export function requireSymbol(query: URLSearchParams, field = 'symbol'): string {
  const value = query.get(field);
  if (value === null || value === '') throw invalidRequest(field, `${field} is required`);
  return checkSymbol(value, field);
}

/** Checks one symbol's characters. */
export function checkSymbol(value: string, field = 'symbol'): string {
  if (!SYMBOL.test(value)) {
    throw invalidRequest(
      field,
      `${field} may hold only letters, digits, '.' and '-', found ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/**
 * The required comma-separated `symbols` list: 1 to 200 entries, duplicates kept in order.
 * An empty entry (`A,,B`, a trailing comma) or a bad character is a 400 naming `symbols`.
 */
export function requireSymbolList(query: URLSearchParams, field = 'symbols'): string[] {
  const value = query.get(field) ?? '';
  if (!SYMBOL_LIST.test(value)) {
    throw invalidRequest(
      field,
      `${field} may hold only letters, digits, '.', '-' and ',', found ${JSON.stringify(value)}`,
    );
  }
  const symbols = value === '' ? [] : value.split(',');
  if (symbols.length < 1 || symbols.length > MAX_SYMBOLS) {
    throw invalidRequest(field, `${field} must list 1 to ${MAX_SYMBOLS} symbols, found ${symbols.length}`, {
      constraint: { min: 1, max: MAX_SYMBOLS },
    });
  }
  if (symbols.some((s) => s === '')) throw invalidRequest(field, `${field} has an empty entry`);
  return symbols;
}

/** An optional integer parameter within `[min, max]`. */
export function optionalInteger(
  query: URLSearchParams,
  field: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = query.get(field);
  if (value === null) return fallback;
  const n = INTEGER.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalidRequest(
      field,
      `${field} must be an integer from ${min} to ${max}, found ${JSON.stringify(value)}`,
      {
        constraint: { min, max },
      },
    );
  }
  return n;
}

/** An optional boolean parameter (`true` / `false`). */
export function optionalBoolean(query: URLSearchParams, field: string, fallback: boolean): boolean {
  const value = query.get(field);
  if (value === null) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidRequest(field, `${field} must be true or false, found ${JSON.stringify(value)}`, {
    allowedValues: ['true', 'false'],
  });
}

/** A required parameter from a fixed set of values. */
export function requireEnum<T extends string>(
  query: URLSearchParams,
  field: string,
  allowed: readonly T[],
): T {
  const value = query.get(field);
  if (value === null || !(allowed as readonly string[]).includes(value)) {
    const found = value === null ? 'nothing' : JSON.stringify(value);
    throw invalidRequest(field, `${field} must be one of ${allowed.join(', ')}, found ${found}`, {
      allowedValues: [...allowed],
    });
  }
  return value as T;
}

/** An optional ISO 8601 date-time with offset. */
export function optionalDateTime(query: URLSearchParams, field: string): DateTime | null {
  const value = query.get(field);
  if (value === null) return null;
  try {
    return parseDateTime(value, field);
  } catch (error) {
    throw new SimApiError(400, 'invalid-request', (error as Error).message, { field });
  }
}

/** An optional `YYYY-MM-DD` date. */
export function optionalDate(query: URLSearchParams, field: string): string | null {
  const value = query.get(field);
  if (value === null) return null;
  try {
    return parseDate(value, field);
  } catch (error) {
    throw new SimApiError(400, 'invalid-request', (error as Error).message, { field });
  }
}
