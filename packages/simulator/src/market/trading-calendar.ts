/**
 * Trading days and session hours of the two markets, as epoch milliseconds.
 *
 * Dates are handled as day numbers (days since 1970-01-01 of a local calendar date) so that the
 * price process and the candle pager can walk days cheaply.
 *
 * KR sessions (KST, integrated KRX + NXT hours): pre-market 08:00–09:00 (single-price auction
 * from 08:50), regular 09:00–15:30 (closing single-price auction from 15:20), after-market
 * 15:30–20:00 (single-price part until 15:40).
 * US sessions (New York time, trading day D): day market 20:00 (D-1)–03:50, pre-market
 * 04:00–09:30, regular 09:30–16:00, after-market 16:00–18:00.
 *
 * @module
 */
import { NEW_YORK_ZONE, SessionName } from '@hoga/core';
import { DateTime } from 'luxon';
import { KRX_HOLIDAYS, NYSE_HOLIDAYS } from './holidays.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const KST_OFFSET_MIN = 540;

/** `KR` or `US`. */
export type Country = 'KR' | 'US';

/** A session as epoch-millisecond bounds (`end` exclusive). */
export interface SessionSpan {
  readonly start: number;
  readonly end: number;
  /** Start of a single-price auction inside the session (KR pre-market, KR regular). */
  readonly auctionStart?: number;
  /** End of a single-price auction at the start of the session (KR after-market). */
  readonly auctionEnd?: number;
}

/** KR sessions of one trading day. */
export interface KrSessions {
  readonly preMarket: SessionSpan;
  readonly regularMarket: SessionSpan;
  readonly afterMarket: SessionSpan;
}

/** US sessions of one trading day. */
export interface UsSessions {
  readonly dayMarket: SessionSpan;
  readonly preMarket: SessionSpan;
  readonly regularMarket: SessionSpan;
  readonly afterMarket: SessionSpan;
}

/** Day number of a `YYYY-MM-DD` date. */
export function dayNumber(isoDate: string): number {
  const y = Number(isoDate.slice(0, 4));
  const m = Number(isoDate.slice(5, 7));
  const d = Number(isoDate.slice(8, 10));
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** `YYYY-MM-DD` of a day number. */
export function isoDate(dn: number): string {
  return new Date(dn * DAY_MS).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
function weekday(dn: number): number {
  return (((dn + 4) % 7) + 7) % 7;
}

const HOLIDAYS: Record<Country, ReadonlySet<number>> = {
  KR: new Set(KRX_HOLIDAYS.map(dayNumber)),
  US: new Set(NYSE_HOLIDAYS.map(dayNumber)),
};

/** Whether the local date `dn` is a trading day of `country`. */
export function isTradingDay(country: Country, dn: number): boolean {
  const wd = weekday(dn);
  return wd !== 0 && wd !== 6 && !HOLIDAYS[country].has(dn);
}

/** The last trading day strictly before `dn`. */
export function previousTradingDay(country: Country, dn: number): number {
  let d = dn - 1;
  while (!isTradingDay(country, d)) d--;
  return d;
}

/** The first trading day strictly after `dn`. */
export function nextTradingDay(country: Country, dn: number): number {
  let d = dn + 1;
  while (!isTradingDay(country, d)) d++;
  return d;
}

/** `dn` itself when it is a trading day, else the next one. */
export function tradingDayOnOrAfter(country: Country, dn: number): number {
  return isTradingDay(country, dn) ? dn : nextTradingDay(country, dn);
}

/** `dn` itself when it is a trading day, else the previous one. */
export function tradingDayOnOrBefore(country: Country, dn: number): number {
  return isTradingDay(country, dn) ? dn : previousTradingDay(country, dn);
}

/** Epoch ms of a KST wall time on local date `dn`. */
export function kstMs(dn: number, minuteOfDay: number): number {
  return dn * DAY_MS + (minuteOfDay - KST_OFFSET_MIN) * MINUTE_MS;
}

const nyOffsetCache = new Map<number, number>();

/** New York UTC offset in minutes on local date `dn` (taken at noon: DST switches at 02:00 Sunday). */
function nyOffset(dn: number): number {
  let offset = nyOffsetCache.get(dn);
  if (offset === undefined) {
    offset = DateTime.fromMillis(dn * DAY_MS + 12 * 3_600_000, { zone: NEW_YORK_ZONE }).offset;
    nyOffsetCache.set(dn, offset);
  }
  return offset;
}

/** Epoch ms of a New York wall time on local date `dn`. */
export function nyMs(dn: number, minuteOfDay: number): number {
  return dn * DAY_MS + (minuteOfDay - nyOffset(dn)) * MINUTE_MS;
}

/** The KST calendar date (day number) of an instant. */
export function kstDay(ms: number): number {
  return Math.floor((ms + KST_OFFSET_MIN * MINUTE_MS) / DAY_MS);
}

/**
 * The US trading date (day number) of an instant: 20:00 New York on D-1 up to 20:00 on D belong
 * to D.
 */
export function usTradingDay(ms: number): number {
  const approx = Math.floor(ms / DAY_MS);
  for (const dn of [approx - 1, approx, approx + 1]) {
    if (ms >= nyMs(dn - 1, 20 * 60) && ms < nyMs(dn, 20 * 60)) return dn;
  }
  /* c8 ignore next */
  return approx;
}

/** The local trading date (day number, trading or not) an instant belongs to. */
export function localDay(country: Country, ms: number): number {
  return country === 'KR' ? kstDay(ms) : usTradingDay(ms);
}

/** Sessions of KR trading day `dn`. */
export function krSessions(dn: number): KrSessions {
  return {
    preMarket: { start: kstMs(dn, 8 * 60), auctionStart: kstMs(dn, 8 * 60 + 50), end: kstMs(dn, 9 * 60) },
    regularMarket: {
      start: kstMs(dn, 9 * 60),
      auctionStart: kstMs(dn, 15 * 60 + 20),
      end: kstMs(dn, 15 * 60 + 30),
    },
    afterMarket: {
      start: kstMs(dn, 15 * 60 + 30),
      auctionEnd: kstMs(dn, 15 * 60 + 40),
      end: kstMs(dn, 20 * 60),
    },
  };
}

/** Sessions of US trading day `dn` (day market starts on the evening before). */
export function usSessions(dn: number): UsSessions {
  return {
    dayMarket: { start: nyMs(dn - 1, 20 * 60), end: nyMs(dn, 3 * 60 + 50) },
    preMarket: { start: nyMs(dn, 4 * 60), end: nyMs(dn, 9 * 60 + 30) },
    regularMarket: { start: nyMs(dn, 9 * 60 + 30), end: nyMs(dn, 16 * 60) },
    afterMarket: { start: nyMs(dn, 16 * 60), end: nyMs(dn, 18 * 60) },
  };
}

function within(span: SessionSpan, ms: number): boolean {
  return ms >= span.start && ms < span.end;
}

/**
 * The order session open at `ms`: KR accepts orders in its pre-market, regular and after-market
 * sessions; US in its day-market, pre-market, regular and after-market sessions. Null otherwise
 * (gaps between sessions, nights, weekends and holidays).
 */
export function orderSessionAt(country: Country, ms: number): SessionName | null {
  const dn = localDay(country, ms);
  if (!isTradingDay(country, dn)) return null;
  if (country === 'KR') {
    const s = krSessions(dn);
    if (within(s.preMarket, ms)) return SessionName.PRE_MARKET;
    if (within(s.regularMarket, ms)) return SessionName.REGULAR_MARKET;
    if (within(s.afterMarket, ms)) return SessionName.AFTER_MARKET;
    return null;
  }
  const s = usSessions(dn);
  if (within(s.dayMarket, ms)) return SessionName.DAY_MARKET;
  if (within(s.preMarket, ms)) return SessionName.PRE_MARKET;
  if (within(s.regularMarket, ms)) return SessionName.REGULAR_MARKET;
  if (within(s.afterMarket, ms)) return SessionName.AFTER_MARKET;
  return null;
}

/** The US regular session containing `ms`, or null. */
export function usRegularSessionAt(ms: number): SessionSpan | null {
  const dn = usTradingDay(ms);
  if (!isTradingDay('US', dn)) return null;
  const regular = usSessions(dn).regularMarket;
  return within(regular, ms) ? regular : null;
}
