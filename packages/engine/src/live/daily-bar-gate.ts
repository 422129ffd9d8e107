/**
 * Where a paper or live run's daily bars wait before they reach the strategies: until their
 * market's regular session is on. A day's candle is complete once its date has rolled; the streams,
 * which do not poll a closed market, first see it in the next pre-market (KR: 08:00 KST), or at a
 * run's start, at any hour. There a `MARKET` order is refused (`order-type-not-allowed`), and at
 * night every order is (`order-hours-closed`). Handed over at the open instead, a market order
 * placed in `onBar` goes in with the regular session, as a backtest fills it at the next bar's
 * open, and a limit order placed there works through that day, as in a backtest: the same daily
 * strategy runs unchanged in the three modes.
 *
 * The market's calendar is the one the risk module reads from the broker (refreshed in the
 * background); while none is known, a bar is handed over at once, and the risk module judges its
 * orders as it would any other.
 *
 * @module
 */
import {
  type Bar,
  type Clock,
  KST_ZONE,
  type Market,
  type MarketCalendar,
  marketOfSymbol,
  SessionName,
  sessionAt,
} from '@hoga/core';
import { DateTime } from 'luxon';

const REGULAR = [SessionName.REGULAR_MARKET] as const;

/** A bar waiting for its market's regular session, and where it goes then. */
interface HeldBar {
  readonly bar: Bar;
  readonly market: Market;
  readonly hand: (bar: Bar) => void;
}

/** What a {@link DailyBarGate} needs. */
export interface DailyBarGateOptions {
  readonly clock: Clock;
  /** A market's calendar as last read from the broker, or undefined while none is known. */
  readonly calendar: (market: Market) => MarketCalendar | undefined;
}

/** Holds daily bars until their market's regular session is on (see the module documentation). */
export class DailyBarGate {
  private held: HeldBar[] = [];

  /** @param o - the engine clock and the markets' calendars */
  constructor(private readonly o: DailyBarGateOptions) {}

  /** Bars waiting for their market's open. */
  get waiting(): number {
    return this.held.length;
  }

  /**
   * Hands `bar` to `hand` now when it is not a daily bar or its market's regular session is on
   * (and no earlier bar of that market is waiting); otherwise keeps it for {@link DailyBarGate.release}.
   */
  offer(bar: Bar, hand: (bar: Bar) => void): void {
    if (bar.interval !== '1d') {
      hand(bar);
      return;
    }
    const market = marketOfSymbol(bar.symbol);
    if (!this.held.some((h) => h.market === market) && this.isOpen(market, this.o.clock.nowMs())) {
      hand(bar);
      return;
    }
    this.held.push({ bar, market, hand });
  }

  /** Hands over, in the order they came, the waiting bars whose market's regular session is now on (call on a timer). */
  release(): void {
    if (this.held.length === 0) return;
    const nowMs = this.o.clock.nowMs();
    const open = new Map<Market, boolean>();
    const due: HeldBar[] = [];
    const still: HeldBar[] = [];
    for (const h of this.held) {
      let on = open.get(h.market);
      if (on === undefined) {
        on = this.isOpen(h.market, nowMs);
        open.set(h.market, on);
      }
      (on ? due : still).push(h);
    }
    this.held = still;
    for (const h of due) h.hand(h.bar);
  }

  /** Drops the waiting bars (the run stops: like the bars queued behind a hook, they are not handed over). */
  clear(): void {
    this.held = [];
  }

  private isOpen(market: Market, nowMs: number): boolean {
    const calendar = this.o.calendar(market);
    if (calendar === undefined) return true;
    return sessionAt(calendar, DateTime.fromMillis(nowMs, { zone: KST_ZONE }), REGULAR) !== null;
  }
}
