/**
 * "Now" views of one instrument: the session day, the last trade (cached until the next trade
 * can happen), the day's recent trades and the book.
 *
 * @module
 */
import { Decimal, roundToTick, tickSize } from '@hoga/core';
import type { BookLevel, BookSnapshot } from './market-model.js';
import type { PriceProcess, TradeTick } from './price-process.js';
import { normal, Stream, uniform } from './rng.js';
import { localDay, tradingDayOnOrAfter } from './trading-calendar.js';

const MINUTE_MS = 60_000;
const BOOK_LEVELS = 10;
const EPSILON = new Decimal('0.0001');

/** The last trade at an instant: its price and time. */
export interface LastTrade {
  readonly price: Decimal;
  /** Epoch ms of the trade; for "no trade yet today" the previous close time. */
  readonly ms: number;
}

interface CacheEntry {
  readonly fromMs: number;
  readonly untilMs: number;
  readonly last: LastTrade;
}

/** Quotes of one instrument over its price process. */
export class Quotes {
  private cache: CacheEntry | undefined;

  /** @param process - the instrument's price process */
  constructor(readonly process: PriceProcess) {}

  /** Forgets cached values (after a price override). */
  invalidate(): void {
    this.cache = undefined;
  }

  /** The trading day whose prices apply at `ms`: today when trading, else the next trading day. */
  sessionDay(ms: number): number {
    const country = this.process.spec.country;
    return tradingDayOnOrAfter(country, localDay(country, ms));
  }

  /**
   * The last trade at or before `ms` on the session day, or the reference price (stamped with
   * the previous close time) when nothing has traded yet.
   */
  lastTrade(ms: number): LastTrade {
    const c = this.cache;
    if (c !== undefined && ms >= c.fromMs && ms < c.untilMs) return c.last;
    const dn = this.sessionDay(ms);
    const day = this.process.day(dn);
    const s = day.schedule;
    const idx = Math.floor((ms - s.startMs) / MINUTE_MS);
    let until =
      idx < 0
        ? Math.min(s.startMs, ms + MINUTE_MS)
        : idx >= s.minutes
          ? ms + MINUTE_MS
          : s.startMs + (idx + 1) * MINUTE_MS;
    let last: LastTrade | undefined;
    for (let i = Math.min(idx, s.minutes - 1); i >= 0 && last === undefined; i--) {
      const trades = this.process.minuteTrades(dn, i);
      for (let j = trades.length - 1; j >= 0; j--) {
        const t = trades[j] as TradeTick;
        if (t.ms <= ms) {
          last = { price: t.price, ms: t.ms };
          break;
        }
        if (i === idx) until = Math.min(until, t.ms);
      }
    }
    if (last === undefined) {
      const prev = this.process.day(day.prevDn).schedule;
      last = { price: this.process.limits(dn).ref, ms: prev.startMs + prev.closeIdx * MINUTE_MS };
    }
    const jump = this.process.lastOverride(ms);
    if (jump !== undefined && jump.ms > last.ms) last = { price: jump.price, ms: jump.ms };
    this.cache = { fromMs: ms, untilMs: until, last };
    return last;
  }

  /** Up to `count` trades of the session day at or before `ms`, newest first. */
  recentTrades(ms: number, count: number): TradeTick[] {
    const dn = this.sessionDay(ms);
    const s = this.process.day(dn).schedule;
    const idx = Math.min(Math.floor((ms - s.startMs) / MINUTE_MS), s.minutes - 1);
    const out: TradeTick[] = [];
    for (let i = idx; i >= 0 && out.length < count; i--) {
      const trades = this.process.minuteTrades(dn, i);
      for (let j = trades.length - 1; j >= 0 && out.length < count; j--) {
        const t = trades[j] as TradeTick;
        if (t.ms <= ms) out.push(t);
      }
    }
    return out;
  }

  /**
   * The book at `ms`: ten levels a side one tick apart around the last price (the last price is
   * the best bid or the best ask, by a seeded coin per second), seeded volumes, asks lowest first,
   * bids highest first, levels beyond the KR price limits left out; empty while suspended.
   */
  book(ms: number): BookSnapshot {
    const spec = this.process.spec;
    if (spec.suspended) return { asks: [], bids: [] };
    const instrument = spec.instrument;
    const last = this.lastTrade(ms).price;
    const dn = this.sessionDay(ms);
    const { lower, upper } = this.process.limits(dn);
    const second = Math.floor(ms / 1000);
    const lastIsAsk = uniform(this.process.key, Stream.BOOK, second) < 0.5;
    const nextUp = (p: Decimal): Decimal => roundToTick(instrument, p.plus(tickSize(instrument, p)), 'up');
    const nextDown = (p: Decimal): Decimal => roundToTick(instrument, p.minus(EPSILON), 'down');
    let ask = lastIsAsk ? last : nextUp(last);
    let bid = lastIsAsk ? nextDown(last) : last;
    const base = Math.max(1, spec.avgDailyVolume / 4000);
    const asks: BookLevel[] = [];
    const bids: BookLevel[] = [];
    for (let level = 0; level < BOOK_LEVELS; level++) {
      if (upper === null || ask.lessThanOrEqualTo(upper)) {
        asks.push({ price: ask, volume: this.levelVolume(base, second, level, 0) });
      }
      if (bid.greaterThan(0) && (lower === null || bid.greaterThanOrEqualTo(lower))) {
        bids.push({ price: bid, volume: this.levelVolume(base, second, level, 1) });
      }
      ask = nextUp(ask);
      bid = nextDown(bid);
    }
    return { asks, bids };
  }

  private levelVolume(base: number, second: number, level: number, side: number): Decimal {
    const z = normal(this.process.key, Stream.LEVEL, second, level, side);
    return new Decimal(Math.max(1, Math.round(base * (1 + 0.3 * level) * Math.exp(0.6 * z))));
  }
}
