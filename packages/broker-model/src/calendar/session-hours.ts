/**
 * The broker's session hours on a trading day, by the clock: KR (integrated mode) pre-market
 * 08:00–09:00, regular 09:00–15:30, after-market 15:30–20:00 KST; US day market 20:00 (the evening
 * before)–03:50, pre-market 04:00–09:30, regular 09:30–16:00, after-market 16:00–18:00 New York
 * time, daylight saving time followed. On a NYSE early close ({@link NYSE_EARLY_CLOSES}) the US
 * regular session ends at 13:00 and the after-market runs 13:00–17:00; on a KRX late opening
 * ({@link krxSpecialHours}: the first trading day of the year, the CSAT day) the KR sessions move
 * with it. Days are numbered (`epoch ms / 86,400,000` of the date at UTC midnight): the KST date
 * for KR, the US trading date (from 20:00 New York the evening before) for US. One home for the
 * simulator's calendar and the backtest's session rules.
 *
 * @module
 */
import { type Market, NEW_YORK_ZONE, SessionName } from '@hoga/core';
import { DateTime } from 'luxon';
import {
  type HolidayPredicate,
  isUsEarlyClose,
  knownHolidays,
  krxSpecialHours,
} from './exchange-holidays.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const KST_OFFSET_MIN = 540;

/** One session of a day: epoch ms, `[start, end)`. */
export interface SessionSpan {
  readonly start: number;
  readonly end: number;
  /** Start of a single-price auction inside the session (KR pre-market, KR regular). */
  readonly auctionStart?: number;
  /** End of a single-price auction at the start of the session (KR after-market). */
  readonly auctionEnd?: number;
}

/** The sessions of a KR trading day. */
export interface KrSessions {
  readonly preMarket: SessionSpan;
  readonly regularMarket: SessionSpan;
  readonly afterMarket: SessionSpan;
}

/** The sessions of a US trading day. */
export interface UsSessions {
  readonly dayMarket: SessionSpan;
  readonly preMarket: SessionSpan;
  readonly regularMarket: SessionSpan;
  readonly afterMarket: SessionSpan;
}

/** The day number of a date (`YYYY-MM-DD`). */
export function dayNumber(isoDate: string): number {
  const y = Number(isoDate.slice(0, 4));
  const m = Number(isoDate.slice(5, 7));
  const d = Number(isoDate.slice(8, 10));
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** The date (`YYYY-MM-DD`) of a day number. */
export function isoDate(dn: number): string {
  return new Date(dn * DAY_MS).toISOString().slice(0, 10);
}

/** Day of the week of a day number: 0 Sunday … 6 Saturday. */
function weekday(dn: number): number {
  return (((dn + 4) % 7) + 7) % 7;
}

/**
 * Whether day `dn` trades: a weekday that is not one of `holidays`.
 *
 * @param holidays - the market's weekday closures (default: the ones this package knows)
 */
export function isSessionDay(
  market: Market,
  dn: number,
  holidays: HolidayPredicate = knownHolidays(market),
): boolean {
  const wd = weekday(dn);
  return wd !== 0 && wd !== 6 && !holidays(isoDate(dn));
}

/** Epoch ms of `minuteOfDay` (minutes after midnight) KST on day `dn`. */
export function kstMs(dn: number, minuteOfDay: number): number {
  return dn * DAY_MS + (minuteOfDay - KST_OFFSET_MIN) * MINUTE_MS;
}

const nyOffsetCache = new Map<number, number>();

/** New York's UTC offset (minutes) at noon of day `dn`. */
function nyOffset(dn: number): number {
  let offset = nyOffsetCache.get(dn);
  if (offset === undefined) {
    offset = DateTime.fromMillis(dn * DAY_MS + 12 * 3_600_000, { zone: NEW_YORK_ZONE }).offset;
    nyOffsetCache.set(dn, offset);
  }
  return offset;
}

/** Epoch ms of `minuteOfDay` (minutes after midnight) New York time on day `dn`. */
export function nyMs(dn: number, minuteOfDay: number): number {
  return dn * DAY_MS + (minuteOfDay - nyOffset(dn)) * MINUTE_MS;
}

/** The KST date (day number) of an instant. */
export function kstDay(ms: number): number {
  return Math.floor((ms + KST_OFFSET_MIN * MINUTE_MS) / DAY_MS);
}

/** The US trading date (day number) of an instant: it starts at 20:00 New York the evening before. */
export function usTradingDay(ms: number): number {
  const approx = Math.floor(ms / DAY_MS);
  for (const dn of [approx - 1, approx, approx + 1]) {
    if (ms >= nyMs(dn - 1, 20 * 60) && ms < nyMs(dn, 20 * 60)) return dn;
  }
  /* c8 ignore next */
  return approx;
}

/** The local trading date (day number, trading or not) an instant belongs to. */
export function localDay(market: Market, ms: number): number {
  return market === 'KR' ? kstDay(ms) : usTradingDay(ms);
}

/** KR regular hours of day `dn` (minutes after KST midnight): 09:00–15:30, or the day's special hours. */
export function krRegularHours(dn: number): { readonly open: number; readonly close: number } {
  return krxSpecialHours(isoDate(dn)) ?? { open: 9 * 60, close: 15 * 60 + 30 };
}

/**
 * Sessions of KR trading day `dn`. On a late opening ({@link krxSpecialHours}) the pre-market
 * moves with the opening (an hour before it) and the after-market starts at the close; it still
 * ends at 20:00.
 */
export function krSessions(dn: number): KrSessions {
  const { open, close } = krRegularHours(dn);
  return {
    preMarket: { start: kstMs(dn, open - 60), auctionStart: kstMs(dn, open - 10), end: kstMs(dn, open) },
    regularMarket: {
      start: kstMs(dn, open),
      auctionStart: kstMs(dn, close - 10),
      end: kstMs(dn, close),
    },
    afterMarket: {
      start: kstMs(dn, close),
      auctionEnd: kstMs(dn, close + 10),
      end: kstMs(dn, 20 * 60),
    },
  };
}

/**
 * Sessions of US trading day `dn` (the day market starts on the evening before); on an early close
 * the regular session ends at 13:00 and the after-market at 17:00.
 */
export function usSessions(dn: number): UsSessions {
  const close = isUsEarlyClose(isoDate(dn)) ? 13 * 60 : 16 * 60;
  const afterEnd = close === 16 * 60 ? 18 * 60 : 17 * 60;
  return {
    dayMarket: { start: nyMs(dn - 1, 20 * 60), end: nyMs(dn, 3 * 60 + 50) },
    preMarket: { start: nyMs(dn, 4 * 60), end: nyMs(dn, 9 * 60 + 30) },
    regularMarket: { start: nyMs(dn, 9 * 60 + 30), end: nyMs(dn, close) },
    afterMarket: { start: nyMs(dn, close), end: nyMs(dn, afterEnd) },
  };
}

/** A named session of one day, in time order (see {@link daySessions}). */
export interface NamedSpan extends SessionSpan {
  readonly name: SessionName;
}

/** The order sessions of `market`'s trading day `dn`, in time order (whether or not the day trades). */
export function daySessions(market: Market, dn: number): readonly NamedSpan[] {
  if (market === 'KR') {
    const s = krSessions(dn);
    return [
      { name: SessionName.PRE_MARKET, ...s.preMarket },
      { name: SessionName.REGULAR_MARKET, ...s.regularMarket },
      { name: SessionName.AFTER_MARKET, ...s.afterMarket },
    ];
  }
  const s = usSessions(dn);
  return [
    { name: SessionName.DAY_MARKET, ...s.dayMarket },
    { name: SessionName.PRE_MARKET, ...s.preMarket },
    { name: SessionName.REGULAR_MARKET, ...s.regularMarket },
    { name: SessionName.AFTER_MARKET, ...s.afterMarket },
  ];
}

function within(span: SessionSpan, ms: number): boolean {
  return ms >= span.start && ms < span.end;
}

/**
 * The order session open at `ms`: KR accepts orders in its pre-market, regular and after-market
 * sessions; US in its day-market, pre-market, regular and after-market sessions. Null otherwise
 * (gaps between sessions, nights, weekends and holidays).
 *
 * @param holidays - the market's weekday closures (default: the ones this package knows)
 */
export function orderSessionAt(
  market: Market,
  ms: number,
  holidays: HolidayPredicate = knownHolidays(market),
): SessionName | null {
  const dn = localDay(market, ms);
  if (!isSessionDay(market, dn, holidays)) return null;
  for (const span of daySessions(market, dn)) if (within(span, ms)) return span.name;
  return null;
}

/**
 * The US regular session containing `ms`, or null.
 *
 * @param holidays - the US weekday closures (default: the ones this package knows)
 */
export function usRegularSessionAt(
  ms: number,
  holidays: HolidayPredicate = knownHolidays('US'),
): SessionSpan | null {
  const dn = usTradingDay(ms);
  if (!isSessionDay('US', dn, holidays)) return null;
  const regular = usSessions(dn).regularMarket;
  return within(regular, ms) ? regular : null;
}
