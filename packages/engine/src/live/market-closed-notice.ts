/**
 * Tells the user of a paper or live run when a market of its symbols is closed, and when it opens
 * next (KST, and New York time beside it for US): the streams do not poll a closed market, so its
 * symbols get no bars (a run started on a Saturday, or a US symbol at 20:00 KST). Said once per closure of a market (at the start of the
 * run, or when a session ends and no other follows at once); said again only after the market
 * opened and closed again. The calendar is the one the risk module reads from the broker; while
 * none is known, nothing is said.
 *
 * @module
 */
import { describeOpening } from '@hoga/broker-model';
import {
  type Clock,
  KST_ZONE,
  type Logger,
  type Market,
  type MarketCalendar,
  marketOfSymbol,
  nextOpen,
  SessionName,
  sessionAt,
} from '@hoga/core';
import { DateTime } from 'luxon';

const SESSION_LABEL: Record<SessionName, string> = {
  [SessionName.DAY_MARKET]: 'day market',
  [SessionName.PRE_MARKET]: 'pre-market',
  [SessionName.REGULAR_MARKET]: 'regular session',
  [SessionName.AFTER_MARKET]: 'after-market',
};

/** What a {@link MarketClosedNotice} needs. */
export interface MarketClosedNoticeOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  /** The run's symbols. */
  readonly symbols: readonly string[];
  /** A market's calendar as last read from the broker, or undefined while none is known. */
  readonly calendar: (market: Market) => MarketCalendar | undefined;
}

/** A closure shorter than this (a pause between two sessions) is not said. */
const SHORT_PAUSE_MS = 15 * 60_000;

const kst = (at: DateTime): string => at.setZone(KST_ZONE).toFormat("yyyy-MM-dd HH:mm 'KST' (ccc)");

/** Says once per closure that a market of the run's symbols is closed (see the module documentation). */
export class MarketClosedNotice {
  private readonly symbolsOf = new Map<Market, string[]>();
  /** Markets whose closure was said (cleared when the market opens). */
  private readonly said = new Set<Market>();

  /** @param o - the clock, logger, the run's symbols and the markets' calendars */
  constructor(private readonly o: MarketClosedNoticeOptions) {
    for (const symbol of o.symbols) {
      const market = marketOfSymbol(symbol);
      const list = this.symbolsOf.get(market) ?? [];
      list.push(symbol);
      this.symbolsOf.set(market, list);
    }
  }

  /** Looks at each market of the run's symbols now (call on a timer). */
  check(): void {
    const now = DateTime.fromMillis(this.o.clock.nowMs(), { zone: KST_ZONE });
    for (const [market, symbols] of this.symbolsOf) {
      const calendar = this.o.calendar(market);
      if (calendar === undefined) continue;
      // the streams poll minute candles a while after the close (the bar ending there): said after it
      if (sessionAt(calendar, now) !== null || sessionAt(calendar, now.minus({ minutes: 2 })) !== null) {
        this.said.delete(market);
        continue;
      }
      if (this.said.has(market)) continue;
      const next = nextOpen(calendar, now);
      // no session ahead: a calendar read before the day rolled (the risk module reads the next);
      // a short pause between two sessions (US 03:50–04:00 New York) is not worth a line
      if (next === null || next.at.toMillis() - now.toMillis() <= SHORT_PAUSE_MS) continue;
      this.said.add(market);
      this.o.logger.info(
        { component: 'market-hours', market, symbols, nextOpen: next.at.toISO() },
        `${market} market is closed at ${kst(now)}: no bars of ${symbols.join(', ')} until it opens at ${describeOpening(market, next.at)}, ${SESSION_LABEL[next.name]} (nothing is polled for them meanwhile)`,
      );
    }
  }
}
