/**
 * Zod building blocks that turn wire strings into core domain values: strict decimals, date-times
 * that keep their offset, dates, tolerant enums and records that keep a raw copy.
 *
 * @module
 */
import { Decimal, parseDate, parseDateTime, parseDecimal } from '@hoga/core';
import type { DateTime } from 'luxon';
import { z } from 'zod';

function viaCore<T>(parse: (value: unknown, field: string) => T) {
  return (value: unknown, ctx: z.core.$RefinementCtx<unknown>): T => {
    try {
      return parse(value, 'value');
    } catch (error) {
      const message = error instanceof Error ? error.message.replace(/^value: /, '') : String(error);
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  };
}

/** A strict decimal string (`"72100"`, `"-0.25"`) parsed into a `Decimal`. */
export const decimal: z.ZodType<Decimal, unknown> = z.unknown().transform(viaCore(parseDecimal));

/** A nullable decimal string. */
export const nullableDecimal = z.union([z.null(), decimal]);

/** Recently parsed date-times (immutable, so shared): polls repeat the same stamps over and over. */
const recentDateTimes = new Map<string, DateTime>();
const RECENT_LIMIT = 4096;

function parseDateTimeCached(value: unknown, field: string): DateTime {
  if (typeof value === 'string') {
    const hit = recentDateTimes.get(value);
    if (hit !== undefined) return hit;
  }
  const parsed = parseDateTime(value, field);
  if (recentDateTimes.size >= RECENT_LIMIT) recentDateTimes.clear();
  recentDateTimes.set(value as string, parsed);
  return parsed;
}

/** An ISO 8601 date-time with offset, as a luxon `DateTime` keeping that offset (e.g. +09:00). */
export const dateTime: z.ZodType<DateTime, unknown> = z.unknown().transform(viaCore(parseDateTimeCached));

/** A nullable date-time. */
export const nullableDateTime = z.union([z.null(), dateTime]);

/** A `YYYY-MM-DD` date, kept as a string. */
export const date: z.ZodType<string, unknown> = z.unknown().transform(viaCore(parseDate));

/** A nullable date. */
export const nullableDate = z.union([z.null(), date]);

/**
 * A string enum that also accepts values the spec does not list yet (typed as the known union
 * widened with `string & {}`), so a new broker value never takes the engine down.
 *
 * @param _known - the known values (documentation and typing only)
 */
export function openEnum<const T extends readonly string[]>(_known: T) {
  return z.string() as unknown as z.ZodType<T[number] | (string & {}), string>;
}

/** A wire record with its parsed fields and `raw`, the record exactly as received (extra fields kept). */
export type WithRaw<T> = T & { readonly raw: Readonly<Record<string, unknown>> };

/**
 * Wraps a record schema so that the parsed value also carries `raw`, a copy of the record as
 * received (including fields this version does not know).
 *
 * @param schema - the record's schema
 */
export function withRaw<T extends z.ZodType>(schema: T): z.ZodType<WithRaw<z.output<T>>, unknown> {
  return z.unknown().transform((input, ctx) => {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues.map(innermostIssue)) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      }
      return z.NEVER;
    }
    return Object.assign(parsed.data as object, {
      raw: input as Readonly<Record<string, unknown>>,
    }) as WithRaw<z.output<T>>;
  });
}

/**
 * The most telling issue behind a zod issue: for a failed union, the nested issue with the
 * deepest path (its path made absolute), so errors name the field rather than the union.
 *
 * @param issue - a zod issue
 */
export function innermostIssue(issue: z.core.$ZodIssue): { message: string; path: PropertyKey[] } {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0)
    return { message: issue.message, path: issue.path };
  let best: { message: string; path: PropertyKey[] } | null = null;
  for (const nested of issue.errors.flat()) {
    const inner = innermostIssue(nested);
    if (best === null || inner.path.length > best.path.length) best = inner;
  }
  return best === null ? issue : { message: best.message, path: [...issue.path, ...best.path] };
}

const envelopes = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The success envelope `{ "result": ... }`, built once per result schema (zod compiles each new
 * schema, so building one per request would cost more than the parse).
 *
 * @param result - schema of the payload
 */
export function envelope<T extends z.ZodType>(result: T): z.ZodObject<{ result: T }> {
  let schema = envelopes.get(result) as z.ZodObject<{ result: T }> | undefined;
  if (schema === undefined) {
    schema = z.object({ result });
    envelopes.set(result, schema);
  }
  return schema;
}

/** A currency code: `KRW`, `USD`, or a value this version does not know. */
export const currency = openEnum(['KRW', 'USD'] as const);

export { Decimal };
