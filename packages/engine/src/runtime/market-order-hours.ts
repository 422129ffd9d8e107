/**
 * Whether the broker takes a `MARKET` order of a market at an instant (`ctx.marketOrderAllowed`).
 * A backtest answers by the broker model ({@link MarketOrderHours}, here); paper and live by the
 * broker's own calendar, the one the risk module judges orders by (`calendar-order-hours.ts`).
 *
 * The broker model's answer: its order sessions of the day (`daySessions`, special hours and known
 * exchange holidays included) and its rule of the order types of a session
 * (`checkOrderTypeInSession`: a `MARKET` order in the regular session only), and no order at all
 * outside order hours (`order-hours-closed`). The rule itself is the broker model's; this module
 * only remembers its answer per market for the stretch of time it holds (a session, or a gap
 * between two), so that asking again in that stretch is two comparisons: no luxon date, no
 * allocation. It is worked out anew when the time leaves the stretch (a few times a day).
 *
 * @module
 */
import {
  checkOrderTypeInSession,
  daySessions,
  type HolidayPredicate,
  isoDate,
  isSessionDay,
  knownHolidays,
  kstMs,
  localDay,
  nyMs,
} from '@hoga/broker-model';
import { type BarInterval, type Market, SessionName } from '@hoga/core';
import type { TradingMode } from '@hoga/store';

/** A market order, as the rule of the session's order types reads it. */
const MARKET_ORDER = { orderType: 'MARKET', timeInForce: 'DAY' } as const;

/** A market's regular session on one trading date (`ctx.regularSession`). */
export interface RegularSession {
  /** The trading date in the market's own calendar (`YYYY-MM-DD`). */
  readonly date: string;
  /** Its open and close, epoch ms. */
  readonly open: number;
  readonly close: number;
}

/**
 * Whether market orders are taken now, per market (what `ctx.marketOrderAllowed` asks), and the
 * regular session of the trading day (`ctx.regularSession`).
 */
export interface OrderHours {
  /** Whether the broker takes a `MARKET` order of `market` at `ms` (epoch ms). */
  allowed(market: Market, ms: number): boolean;
  /**
   * The regular session of `market`'s trading day at `ms` (the one under way, to come or ended that
   * day); null on a day with none (a weekend, a holiday); undefined while the hours are not known.
   */
  regularSession(market: Market, ms: number): RegularSession | null | undefined;
}

/**
 * Whether the broker takes a `MARKET` order in a session (the broker model's rule of the order
 * types of a session: in the regular session only). Outside every session it takes no order.
 */
export function takesMarketOrders(session: SessionName): boolean {
  return checkOrderTypeInSession(MARKET_ORDER, { session }).accepted;
}

/**
 * Whether a run judges the session rules of its orders: a backtest on daily bars does not (an
 * order placed on a day's bar is for the next open, as paper and live hand a day's bar over at the
 * next regular open); every other run does.
 */
export function judgesSessionRules(mode: TradingMode, interval: BarInterval): boolean {
  return mode !== 'backtest' || interval !== '1d';
}

/** One market's last answer: `allowed` from `from` (included) to `until` (excluded), epoch ms. */
class MarketStretch {
  from = 0;
  until = 0;
  allowed = false;
  readonly holidays: HolidayPredicate;

  constructor(private readonly market: Market) {
    this.holidays = knownHolidays(market);
  }

  /** Whether a market order is taken at `ms`. */
  at(ms: number): boolean {
    if (ms < this.from || ms >= this.until) this.workOut(ms);
    return this.allowed;
  }

  /** The answer at `ms` and the stretch of its day it holds for. */
  private workOut(ms: number): void {
    const market = this.market;
    const day = localDay(market, ms);
    // the local trading day: KST midnight to midnight, US 20:00 New York the evening before to 20:00
    let from = market === 'KR' ? kstMs(day, 0) : nyMs(day - 1, 20 * 60);
    let until = market === 'KR' ? kstMs(day + 1, 0) : nyMs(day, 20 * 60);
    let allowed = false;
    if (isSessionDay(market, day, this.holidays)) {
      for (const span of daySessions(market, day)) {
        if (ms >= span.end) {
          from = Math.max(from, span.end);
        } else if (ms >= span.start) {
          from = span.start;
          until = span.end;
          allowed = takesMarketOrders(span.name);
          break;
        } else {
          until = Math.min(until, span.start);
          break;
        }
      }
    }
    this.from = from;
    this.until = until;
    this.allowed = allowed;
  }
}

/** Whether market orders are taken now, per market, by the broker model (see the module documentation). */
export class MarketOrderHours implements OrderHours {
  private readonly KR = new MarketStretch('KR');
  private readonly US = new MarketStretch('US');
  /** The last regular session answered per market, by its trading day (asked again on every bar). */
  private readonly sessions = new Map<
    Market,
    { readonly day: number; readonly session: RegularSession | null }
  >();

  /** Whether the broker takes a `MARKET` order of `market` at `ms`. */
  allowed(market: Market, ms: number): boolean {
    return (market === 'KR' ? this.KR : this.US).at(ms);
  }

  /** @inheritdoc */
  regularSession(market: Market, ms: number): RegularSession | null {
    const day = localDay(market, ms);
    const kept = this.sessions.get(market);
    if (kept !== undefined && kept.day === day) return kept.session;
    let session: RegularSession | null = null;
    if (isSessionDay(market, day, (market === 'KR' ? this.KR : this.US).holidays)) {
      const regular = daySessions(market, day).find((s) => s.name === SessionName.REGULAR_MARKET);
      if (regular !== undefined) session = { date: isoDate(day), open: regular.start, close: regular.end };
    }
    this.sessions.set(market, { day, session });
    return session;
  }
}
