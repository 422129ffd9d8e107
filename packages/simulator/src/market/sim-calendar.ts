/**
 * The calendar one simulator answers and orders by: the built-in one (`@hoga/broker-model`'s
 * holidays and session hours) with the {@link DeclaredCalendar}'s holidays and special sessions
 * on top. Read at each request, so a declaration made while running counts from the next one.
 *
 * @module
 */
import {
  type HolidayPredicate,
  isSessionDay,
  type KrSessions,
  knownHolidays,
  krSessions,
  localDay,
  orderSessionAt,
  type SessionSpan,
  type UsSessions,
  usRegularSessionAt,
  usSessions,
  usTradingDay,
} from '@hoga/broker-model';
import { type Market, SessionName } from '@hoga/core';
import { DeclaredCalendar, type RegularHours } from './declared-calendar.js';
import { kstMs, nyMs } from './trading-calendar.js';

/**
 * KR sessions with regular hours `h`, as the broker model places them around a late opening: the
 * pre-market the hour before the open (its auction the last 10 minutes), the regular session's
 * closing auction its last 10 minutes, the after-market from the close (single price for 10
 * minutes) to 20:00.
 */
function krSessionsWith(dn: number, h: RegularHours): KrSessions {
  return {
    preMarket: {
      start: kstMs(dn, h.open - 60),
      auctionStart: kstMs(dn, h.open - 10),
      end: kstMs(dn, h.open),
    },
    regularMarket: {
      start: kstMs(dn, h.open),
      auctionStart: kstMs(dn, h.close - 10),
      end: kstMs(dn, h.close),
    },
    afterMarket: { start: kstMs(dn, h.close), auctionEnd: kstMs(dn, h.close + 10), end: kstMs(dn, 20 * 60) },
  };
}

/**
 * US sessions with regular hours `h`: the day market as usual, the pre-market 04:00 to the open,
 * the after-market from the close to 18:00 (17:00 after a close before 16:00, as on an early close).
 */
function usSessionsWith(dn: number, h: RegularHours): UsSessions {
  const afterEnd = h.close >= 16 * 60 ? 18 * 60 : 17 * 60;
  return {
    dayMarket: { start: nyMs(dn - 1, 20 * 60), end: nyMs(dn, 3 * 60 + 50) },
    preMarket: { start: nyMs(dn, 4 * 60), end: nyMs(dn, h.open) },
    regularMarket: { start: nyMs(dn, h.open), end: nyMs(dn, h.close) },
    afterMarket: { start: nyMs(dn, h.close), end: nyMs(dn, afterEnd) },
  };
}

function within(span: SessionSpan, ms: number): boolean {
  return ms >= span.start && ms < span.end;
}

/** The simulator's calendar (see the module docs). */
export class SimCalendar {
  private readonly closures: Record<Market, HolidayPredicate>;

  /** @param declared - the declarations it follows (default: none yet) */
  constructor(readonly declared: DeclaredCalendar = new DeclaredCalendar()) {
    const closures = (market: Market): HolidayPredicate => {
      const known = knownHolidays(market);
      return (date) => known(date) || declared.isHoliday(market, date);
    };
    this.closures = { KR: closures('KR'), US: closures('US') };
  }

  /** Whether day `dn` trades in `market`: a weekday neither known nor declared closed. */
  isTradingDay(market: Market, dn: number): boolean {
    return isSessionDay(market, dn, this.closures[market]);
  }

  /** The trading day before `dn`. */
  previousTradingDay(market: Market, dn: number): number {
    let d = dn - 1;
    while (!this.isTradingDay(market, d)) d--;
    return d;
  }

  /** The trading day after `dn`. */
  nextTradingDay(market: Market, dn: number): number {
    let d = dn + 1;
    while (!this.isTradingDay(market, d)) d++;
    return d;
  }

  /** Sessions of KR day `dn` (its declared hours, else the broker model's). */
  krSessions(dn: number): KrSessions {
    const hours = this.declared.hours('KR', dn);
    return hours === undefined ? krSessions(dn) : krSessionsWith(dn, hours);
  }

  /** Sessions of US trading day `dn` (its declared hours, else the broker model's). */
  usSessions(dn: number): UsSessions {
    const hours = this.declared.hours('US', dn);
    return hours === undefined ? usSessions(dn) : usSessionsWith(dn, hours);
  }

  /** The order session of `market` open at `ms`, or null (closed, between sessions, a holiday). */
  orderSessionAt(market: Market, ms: number): SessionName | null {
    const dn = localDay(market, ms);
    if (this.declared.hours(market, dn) === undefined)
      return orderSessionAt(market, ms, this.closures[market]);
    if (!this.isTradingDay(market, dn)) return null;
    if (market === 'KR') {
      const s = this.krSessions(dn);
      if (within(s.preMarket, ms)) return SessionName.PRE_MARKET;
      if (within(s.regularMarket, ms)) return SessionName.REGULAR_MARKET;
      return within(s.afterMarket, ms) ? SessionName.AFTER_MARKET : null;
    }
    const s = this.usSessions(dn);
    if (within(s.dayMarket, ms)) return SessionName.DAY_MARKET;
    if (within(s.preMarket, ms)) return SessionName.PRE_MARKET;
    if (within(s.regularMarket, ms)) return SessionName.REGULAR_MARKET;
    return within(s.afterMarket, ms) ? SessionName.AFTER_MARKET : null;
  }

  /** The US regular session containing `ms`, or null. */
  usRegularSessionAt(ms: number): SessionSpan | null {
    const dn = usTradingDay(ms);
    if (this.declared.hours('US', dn) === undefined) return usRegularSessionAt(ms, this.closures.US);
    if (!this.isTradingDay('US', dn)) return null;
    const regular = this.usSessions(dn).regularMarket;
    return within(regular, ms) ? regular : null;
  }
}
