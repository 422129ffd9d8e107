/**
 * Strict parsing of the broker's calendar payloads (`result` of `/market-calendar/KR|US`).
 *
 * @module
 */
import { describeValue, ValidationError } from '../errors.js';
import { parseDate, parseDateTime } from '../time/zones.js';
import {
  CALENDAR_DAY_KEYS,
  type KrCalendarDay,
  type KrIntegratedHours,
  type KrMarketCalendar,
  type MarketSession,
  type UsCalendarDay,
  type UsMarketCalendar,
} from './calendar-types.js';

type Json = Readonly<Record<string, unknown>>;

function asObject(value: unknown, field: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError(field, `${field}: expected an object, found ${describeValue(value)}`);
  }
  return value as Json;
}

function parseSession(value: unknown, field: string): MarketSession | null {
  if (value === null || value === undefined) return null;
  const raw = asObject(value, field);
  const startTime = parseDateTime(raw.startTime, `${field}.startTime`);
  const endTime = parseDateTime(raw.endTime, `${field}.endTime`);
  if (endTime <= startTime) {
    throw new ValidationError(
      field,
      `${field}: expected endTime after startTime, found ${raw.startTime} .. ${raw.endTime}`,
    );
  }
  const auctionStart = raw.singlePriceAuctionStartTime;
  const auctionEnd = raw.singlePriceAuctionEndTime;
  return {
    startTime,
    endTime,
    ...(auctionStart == null
      ? {}
      : { singlePriceAuctionStartTime: parseDateTime(auctionStart, `${field}.singlePriceAuctionStartTime`) }),
    ...(auctionEnd == null
      ? {}
      : { singlePriceAuctionEndTime: parseDateTime(auctionEnd, `${field}.singlePriceAuctionEndTime`) }),
  };
}

function parseKrDay(value: unknown, field: string): KrCalendarDay {
  const raw = asObject(value, field);
  const date = parseDate(raw.date, `${field}.date`);
  if (raw.integrated === null || raw.integrated === undefined) return { date, integrated: null };
  const hours = asObject(raw.integrated, `${field}.integrated`);
  const integrated: KrIntegratedHours = {
    preMarket: parseSession(hours.preMarket, `${field}.integrated.preMarket`),
    regularMarket: parseSession(hours.regularMarket, `${field}.integrated.regularMarket`),
    afterMarket: parseSession(hours.afterMarket, `${field}.integrated.afterMarket`),
  };
  return { date, integrated };
}

function parseUsDay(value: unknown, field: string): UsCalendarDay {
  const raw = asObject(value, field);
  return {
    date: parseDate(raw.date, `${field}.date`),
    dayMarket: parseSession(raw.dayMarket, `${field}.dayMarket`),
    preMarket: parseSession(raw.preMarket, `${field}.preMarket`),
    regularMarket: parseSession(raw.regularMarket, `${field}.regularMarket`),
    afterMarket: parseSession(raw.afterMarket, `${field}.afterMarket`),
  };
}

/**
 * Parses a KR calendar payload (the `result` object) into domain types.
 *
 * @param payload - `{previousBusinessDay, today, nextBusinessDay}` as received
 * @throws {@link ValidationError} naming the offending path, e.g. `today.integrated.regularMarket.endTime`
 */
export function parseKrMarketCalendar(payload: unknown): KrMarketCalendar {
  const raw = asObject(payload, 'calendar');
  const [prev, today, next] = CALENDAR_DAY_KEYS.map((key) => parseKrDay(raw[key], key));
  return { previousBusinessDay: prev!, today: today!, nextBusinessDay: next! };
}

/**
 * Parses a US calendar payload (the `result` object) into domain types.
 *
 * @param payload - `{previousBusinessDay, today, nextBusinessDay}` as received
 * @throws {@link ValidationError} naming the offending path, e.g. `today.regularMarket.startTime`
 */
export function parseUsMarketCalendar(payload: unknown): UsMarketCalendar {
  const raw = asObject(payload, 'calendar');
  const [prev, today, next] = CALENDAR_DAY_KEYS.map((key) => parseUsDay(raw[key], key));
  return { previousBusinessDay: prev!, today: today!, nextBusinessDay: next! };
}
