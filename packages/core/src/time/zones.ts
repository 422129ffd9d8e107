/**
 * Time zones and strict parsing/formatting of wire date-times.
 *
 * @module
 */
import { DateTime } from 'luxon';
import { describeValue, ValidationError } from '../errors.js';

/** IANA zone of Korea Standard Time (UTC+9, no DST). */
export const KST_ZONE = 'Asia/Seoul';
/** IANA zone of the US equity markets (observes DST). */
export const NEW_YORK_ZONE = 'America/New_York';

/** ISO 8601 date-time with a mandatory offset (`Z` or `±hh:mm`). */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The same instant in KST.
 *
 * @param dt - any valid DateTime
 */
export function toKst(dt: DateTime): DateTime {
  return dt.setZone(KST_ZONE);
}

/**
 * Parses an ISO 8601 date-time that carries an offset; the offset is kept as the zone.
 *
 * @param value - raw wire value, e.g. `"2026-11-23T09:01:00.000+09:00"`
 * @param field - field name for the error
 * @throws {@link ValidationError} (code `invalid-date-time`) naming `field`
 */
export function parseDateTime(value: unknown, field: string): DateTime {
  if (typeof value === 'string' && ISO_WITH_OFFSET.test(value)) {
    const dt = DateTime.fromISO(value, { setZone: true });
    if (dt.isValid) return dt;
  }
  throw new ValidationError(
    field,
    `${field}: expected an ISO 8601 date-time with offset like "2026-11-23T09:01:00.000+09:00", found ${describeValue(value)}`,
    {},
    'invalid-date-time',
  );
}

/**
 * Validates a calendar date `YYYY-MM-DD`.
 *
 * @param value - raw wire value
 * @param field - field name for the error
 * @returns the same string
 * @throws {@link ValidationError} (code `invalid-date`) naming `field`
 */
export function parseDate(value: unknown, field: string): string {
  if (typeof value === 'string' && ISO_DATE.test(value) && DateTime.fromISO(value, { zone: 'utc' }).isValid) {
    return value;
  }
  throw new ValidationError(
    field,
    `${field}: expected a date like "2026-11-23", found ${describeValue(value)}`,
    {},
    'invalid-date',
  );
}

/**
 * Formats an instant in KST with millisecond precision, e.g. `2026-11-23T09:01:00.000+09:00`.
 *
 * @param dt - any valid DateTime
 */
export function formatKst(dt: DateTime): string {
  return toKst(dt).toISO({ includeOffset: true, suppressMilliseconds: false, suppressSeconds: false }) ?? '';
}
