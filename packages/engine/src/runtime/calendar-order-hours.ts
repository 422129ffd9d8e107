/**
 * Whether the broker takes a `MARKET` order of a market at an instant, in paper and live
 * (`ctx.marketOrderAllowed`): by the broker's own market calendar, the one the risk module's
 * market view reads and judges an order's session by (`risk/market-calendars.ts`), so that a
 * holiday or special session the broker model's static table does not know (after 2027, or a
 * closure the broker announces) answers as the risk module and the broker judge the order. The
 * rule of a session's order types is the broker model's (`takesMarketOrders`).
 *
 * While the calendar does not tell the hours at the instant (not read for its date yet, or a date
 * the broker refused), the answer is false: the risk module denies an order then
 * (`risk-market-data-missing`) unless it reads the day's calendar first.
 *
 * As {@link MarketOrderHours} does, the answer is remembered per market for the stretch it holds
 * (a session, or a gap between two) and for the calendar it came from: asking again is a map look-up
 * and two comparisons, no date, no allocation. It is worked out anew when the time leaves the
 * stretch or the calendar is read again (every few minutes: the risk module's calendar age), from
 * the calendar's sessions in epoch ms, worked out once per read.
 *
 * @module
 */
import { isoDate, localDay } from '@hoga/broker-model';
import { type Market, SessionName } from '@hoga/core';
import type { CalendarSpans } from '../risk/market-calendars.js';
import { type OrderHours, type RegularSession, takesMarketOrders } from './market-order-hours.js';

/** Where the calendars come from: the risk module's market view (`BrokerMarketView`). */
export interface OrderSessionSource {
  /** The sessions of `market`'s calendar as last read (the same object until read again). */
  orderSessions(market: Market): CalendarSpans | undefined;
}

/** One market's last answer: `allowed` from `from` (included) to `until` (excluded), epoch ms, by `spans`. */
class CalendarStretch {
  private from = 0;
  private until = 0;
  private allowed = false;
  /** The calendar the answer came from (null: none worked out yet). */
  private spans: CalendarSpans | undefined | null = null;

  constructor(
    private readonly market: Market,
    private readonly source: OrderSessionSource,
  ) {}

  /** Whether a market order is taken at `ms`. */
  at(ms: number): boolean {
    const spans = this.source.orderSessions(this.market);
    if (spans !== this.spans || ms < this.from || ms >= this.until) this.workOut(ms, spans);
    return this.allowed;
  }

  /** The answer at `ms` by `spans`, and the stretch it holds for. */
  private workOut(ms: number, spans: CalendarSpans | undefined): void {
    this.spans = spans;
    this.allowed = false;
    if (spans === undefined || ms < spans.fromMs || ms >= spans.toMs) {
      // the hours unknown: asked again at the next call (the calendar may have been read by then)
      this.from = 0;
      this.until = 0;
      return;
    }
    let from = spans.fromMs;
    let until = spans.toMs;
    for (const span of spans.sessions) {
      if (ms >= span.endMs) {
        from = Math.max(from, span.endMs);
      } else if (ms >= span.startMs) {
        from = span.startMs;
        until = span.endMs;
        this.allowed = takesMarketOrders(span.name);
        break;
      } else {
        until = Math.min(until, span.startMs);
        break;
      }
    }
    this.from = from;
    this.until = until;
  }
}

/** Whether market orders are taken now, per market, by the broker's calendars (see the module documentation). */
export class CalendarOrderHours implements OrderHours {
  private readonly KR: CalendarStretch;
  private readonly US: CalendarStretch;

  /** The last regular session answered per market, by the calendar and the trading day it came from. */
  private readonly sessions = new Map<
    Market,
    { readonly spans: CalendarSpans; readonly day: number; readonly session: RegularSession | null }
  >();

  /** @param source - the risk module's market view, whose calendars the risk module judges orders by */
  constructor(private readonly source: OrderSessionSource) {
    this.KR = new CalendarStretch('KR', source);
    this.US = new CalendarStretch('US', source);
  }

  /** @inheritdoc */
  allowed(market: Market, ms: number): boolean {
    return (market === 'KR' ? this.KR : this.US).at(ms);
  }

  /**
   * The regular session of the trading day at `ms` as the broker's calendar holds it (a special
   * session the broker announced included); null on a day within the calendar with none;
   * undefined while the calendar does not tell the instant (not read for its date yet).
   */
  regularSession(market: Market, ms: number): RegularSession | null | undefined {
    const spans = this.source.orderSessions(market);
    if (spans === undefined || ms < spans.fromMs || ms >= spans.toMs) return undefined;
    const kept = this.sessions.get(market);
    const day = localDay(market, ms);
    if (kept !== undefined && kept.spans === spans && kept.day === day) return kept.session;
    let session: RegularSession | null = null;
    for (const span of spans.sessions) {
      if (span.name === SessionName.REGULAR_MARKET && localDay(market, span.startMs) === day) {
        session = { date: isoDate(day), open: span.startMs, close: span.endMs };
        break;
      }
    }
    this.sessions.set(market, { spans, day, session });
    return session;
  }
}
