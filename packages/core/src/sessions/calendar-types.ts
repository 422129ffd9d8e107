/**
 * Market calendars as domain types: the broker's two calendar payloads with luxon DateTimes (KST).
 *
 * @module
 */
import type { DateTime } from 'luxon';

/** One trading session. `endTime` is exclusive: at `endTime` the session is over. */
export interface MarketSession {
  /** First instant of the session. */
  readonly startTime: DateTime;
  /** First instant after the session. */
  readonly endTime: DateTime;
  /** KR pre-market and regular: start of the single-price auction inside the session. */
  readonly singlePriceAuctionStartTime?: DateTime;
  /** KR after-market: end of the single-price auction at the start of the session. */
  readonly singlePriceAuctionEndTime?: DateTime;
}

/** Sessions of a KR trading day in integrated mode (both domestic exchanges). `null` = closed. */
export interface KrIntegratedHours {
  readonly preMarket: MarketSession | null;
  readonly regularMarket: MarketSession | null;
  readonly afterMarket: MarketSession | null;
}

/** A KR calendar day. `integrated` is `null` on a non-trading day. */
export interface KrCalendarDay {
  /** `YYYY-MM-DD`, KST. */
  readonly date: string;
  readonly integrated: KrIntegratedHours | null;
}

/** A US calendar day (US local date); all four sessions are `null` on a closed day. */
export interface UsCalendarDay {
  /** `YYYY-MM-DD`, US local date. */
  readonly date: string;
  /** The broker's KST-daytime session. */
  readonly dayMarket: MarketSession | null;
  readonly preMarket: MarketSession | null;
  readonly regularMarket: MarketSession | null;
  readonly afterMarket: MarketSession | null;
}

/** The KR calendar around a reference date. */
export interface KrMarketCalendar {
  readonly previousBusinessDay: KrCalendarDay;
  readonly today: KrCalendarDay;
  readonly nextBusinessDay: KrCalendarDay;
}

/** The US calendar around a reference date. */
export interface UsMarketCalendar {
  readonly previousBusinessDay: UsCalendarDay;
  readonly today: UsCalendarDay;
  readonly nextBusinessDay: UsCalendarDay;
}

/** Either calendar. */
export type MarketCalendar = KrMarketCalendar | UsMarketCalendar;

/** Session names; the values are the payload keys. */
export const SessionName = {
  DAY_MARKET: 'dayMarket',
  PRE_MARKET: 'preMarket',
  REGULAR_MARKET: 'regularMarket',
  AFTER_MARKET: 'afterMarket',
} as const;
/** One of {@link SessionName}. */
export type SessionName = (typeof SessionName)[keyof typeof SessionName];

/** The three days of a calendar payload, in time order. */
export const CALENDAR_DAY_KEYS = ['previousBusinessDay', 'today', 'nextBusinessDay'] as const;
