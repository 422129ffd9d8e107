/**
 * Candle pages (1m and 1d), newest first, generated in O(page size) from the price process.
 *
 * 1m: stamped with the candle's end; KR minutes without trades are flat at the previous close
 * with volume 0, US minutes without trades are left out; history from 2022-11-23 (KR) and
 * 2021-12-01 (US); the minute in progress is included with its partial values.
 * 1d: stamped at KST midnight of the trading day; open/high/low/close of the regular session,
 * volume of the whole day; history from 2015-01-01 or the listing date; today's candle appears
 * once the regular session has opened.
 *
 * @module
 */
import { Decimal, formatDecimal, MINUTE_CANDLE_HISTORY_START } from '@hoga/core';
import { daySchedule } from './day-schedule.js';
import type { PriceProcess, TradeTick } from './price-process.js';
import type { Quotes } from './quotes.js';
import { dayNumber, kstMs, localDay, previousTradingDay, tradingDayOnOrAfter } from './trading-calendar.js';

const MINUTE_MS = 60_000;
const KST_OFFSET_MS = 9 * 3_600_000;
/** The spec's first dates of 1m history (core's one constant), as day numbers. */
const MINUTE_HISTORY_START = {
  KR: dayNumber(MINUTE_CANDLE_HISTORY_START.KR),
  US: dayNumber(MINUTE_CANDLE_HISTORY_START.US),
} as const;
const DAILY_HISTORY_START = dayNumber('2015-01-01');
/** Candles older than this are always adjusted ("very old history", rule 10). */
const ALWAYS_ADJUSTED_BEFORE = dayNumber('2020-01-01');

/** A candle as the wire shows it. */
export interface CandleJson {
  readonly timestamp: string;
  readonly openPrice: string;
  readonly highPrice: string;
  readonly lowPrice: string;
  readonly closePrice: string;
  readonly volume: string;
  readonly currency: string;
}

/** A page of candles as the wire shows it. */
export interface CandlePageJson {
  readonly candles: CandleJson[];
  readonly nextBefore: string | null;
}

/** What to page. */
export interface CandleRequest {
  readonly interval: '1m' | '1d';
  readonly count: number;
  /** Exclusive upper bound on candle stamps (epoch ms), or null for the newest. */
  readonly beforeMs: number | null;
  readonly adjusted: boolean;
  readonly nowMs: number;
}

interface RawCandle {
  readonly stampMs: number;
  readonly dn: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  readonly volume: Decimal;
}

/** Formats epoch ms as a KST ISO date-time with milliseconds (`…T09:01:00.000+09:00`). */
export function kstIso(ms: number): string {
  return `${new Date(ms + KST_OFFSET_MS).toISOString().slice(0, 23)}+09:00`;
}

/** Builds candle pages for one instrument. */
export class CandleBuilder {
  /**
   * @param process - the instrument's price process
   * @param quotes - its "now" views
   */
  constructor(
    private readonly process: PriceProcess,
    private readonly quotes: Quotes,
  ) {}

  /** One page of candles. */
  page(request: CandleRequest): CandlePageJson {
    const raw = request.interval === '1m' ? this.minutePage(request) : this.dailyPage(request);
    const more = raw.length > request.count;
    const page = more ? raw.slice(0, request.count) : raw;
    const oldest = page[page.length - 1];
    return {
      candles: page.map((c) => this.toJson(c, request.adjusted)),
      nextBefore: more && oldest !== undefined ? kstIso(oldest.stampMs) : null,
    };
  }

  private listDn(): number {
    return dayNumber(this.process.spec.listDate);
  }

  private minutePage(request: CandleRequest): RawCandle[] {
    const spec = this.process.spec;
    const want = request.count + 1;
    const before = request.beforeMs ?? Number.POSITIVE_INFINITY;
    const firstDn = Math.max(MINUTE_HISTORY_START[spec.country], this.listDn());
    let dn = tradingDayOnOrAfter(spec.country, localDay(spec.country, Math.min(request.nowMs, before - 1)));
    const out: RawCandle[] = [];
    while (out.length < want && dn >= firstDn) {
      const s = this.process.day(dn).schedule;
      const kMax = Math.min(
        s.lastStamp,
        Math.ceil((before - s.startMs) / MINUTE_MS) - 1,
        Math.floor((request.nowMs - s.startMs) / MINUTE_MS) + 1,
      );
      const ks: number[] = [];
      for (let k = kMax; k >= s.firstStamp && out.length + ks.length < want; k--) {
        if (spec.country === 'US' && this.tradesUpTo(dn, k - 1, request.nowMs).length === 0) continue;
        ks.push(k);
      }
      if (ks.length > 0) out.push(...this.minuteCandles(dn, ks, request.nowMs));
      dn = previousTradingDay(spec.country, dn);
    }
    return out;
  }

  private tradesUpTo(dn: number, minute: number, nowMs: number): readonly TradeTick[] {
    const trades = this.process.minuteTrades(dn, minute);
    const last = trades[trades.length - 1];
    return last === undefined || last.ms <= nowMs ? trades : trades.filter((t) => t.ms <= nowMs);
  }

  /** Candles of stamps `ks` (descending) of one day, newest first. */
  private minuteCandles(dn: number, ks: readonly number[], nowMs: number): RawCandle[] {
    const s = this.process.day(dn).schedule;
    const oldestK = ks[ks.length - 1] ?? 0;
    let prevClose = this.closeBefore(dn, oldestK - 1);
    const ascending: RawCandle[] = [];
    for (let idx = ks.length - 1; idx >= 0; idx--) {
      const k = ks[idx] ?? 0;
      const trades = this.tradesUpTo(dn, k - 1, nowMs);
      const stampMs = s.startMs + k * MINUTE_MS;
      if (trades.length === 0) {
        ascending.push({
          stampMs,
          dn,
          open: prevClose,
          high: prevClose,
          low: prevClose,
          close: prevClose,
          volume: ZERO,
        });
        continue;
      }
      const c = aggregate(stampMs, dn, trades);
      ascending.push(c);
      prevClose = c.close;
    }
    return ascending.reverse();
  }

  /** The last trade price before minute `minute` of day `dn`, else the day's reference price. */
  private closeBefore(dn: number, minute: number): Decimal {
    for (let i = minute - 1; i >= 0; i--) {
      const trades = this.process.minuteTrades(dn, i);
      const last = trades[trades.length - 1];
      if (last !== undefined) return last.price;
    }
    return this.process.limits(dn).ref;
  }

  private dailyPage(request: CandleRequest): RawCandle[] {
    const spec = this.process.spec;
    const want = request.count + 1;
    const before = request.beforeMs ?? Number.POSITIVE_INFINITY;
    const firstDn = Math.max(DAILY_HISTORY_START, this.listDn());
    let dn = this.quotes.sessionDay(request.nowMs);
    const openMs = (d: number): number => {
      const s = this.process.day(d).schedule;
      return s.startMs + s.openIdx * MINUTE_MS;
    };
    if (request.nowMs < openMs(dn)) dn = previousTradingDay(spec.country, dn);
    while (dn >= firstDn && kstMs(dn, 0) >= before) dn = previousTradingDay(spec.country, dn);
    const out: RawCandle[] = [];
    while (out.length < want && dn >= firstDn) {
      out.push(this.dailyCandle(dn, request.nowMs));
      dn = previousTradingDay(spec.country, dn);
    }
    return out;
  }

  private dailyCandle(dn: number, nowMs: number): RawCandle {
    const p = this.process;
    const s = daySchedule(p.spec, dn);
    const stampMs = kstMs(dn, 0);
    const open = p.auctionPrice(dn, 'open');
    const closeMs = s.startMs + s.closeIdx * MINUTE_MS;
    const inProgress = nowMs < closeMs;
    const upto = inProgress ? Math.floor((nowMs - s.startMs) / MINUTE_MS) : s.closeIdx;
    const { low: lo, high: hi } = p.pathRange(dn, s.openIdx, Math.max(upto, s.openIdx));
    // a suspended day's price is frozen: its one price (before, the high was the frozen float
    // rounded up onto the grid, a tick above every minute of the day)
    const frozen = p.frozenOn(dn);
    let high = frozen ? open : Decimal.max(p.toTick(hi, 'up'), open);
    let low = frozen ? open : Decimal.min(p.toTick(lo, 'down'), open);
    let close = p.auctionPrice(dn, 'close');
    if (inProgress) {
      close = this.quotes.lastTrade(nowMs).price;
      for (const t of this.tradesUpTo(dn, upto, nowMs)) {
        high = Decimal.max(high, t.price);
        low = Decimal.min(low, t.price);
      }
    }
    high = Decimal.max(high, close);
    low = Decimal.min(low, close);
    const windowEnd = s.startMs + s.minutes * MINUTE_MS;
    const share = nowMs >= windowEnd ? 1 : Math.max(0, (nowMs - s.startMs) / (windowEnd - s.startMs));
    const volume = new Decimal(Math.floor(p.dailyVolume(dn) * share));
    return { stampMs, dn, open, high, low, close, volume };
  }

  private toJson(c: RawCandle, adjusted: boolean): CandleJson {
    const currency = this.process.spec.currency;
    const ratio = this.ratio(c.dn);
    const adjust = (adjusted || c.dn < ALWAYS_ADJUSTED_BEFORE) && !ratio.equals(1);
    if (!adjust) {
      return {
        timestamp: kstIso(c.stampMs),
        openPrice: formatDecimal(c.open),
        highPrice: formatDecimal(c.high),
        lowPrice: formatDecimal(c.low),
        closePrice: formatDecimal(c.close),
        volume: formatDecimal(c.volume),
        currency,
      };
    }
    const kr = this.process.spec.country === 'KR';
    const price = (d: Decimal): string => {
      const x = d.times(ratio);
      return formatDecimal(kr ? x.toDecimalPlaces(0, Decimal.ROUND_HALF_UP) : x);
    };
    const v = c.volume.dividedBy(ratio);
    return {
      timestamp: kstIso(c.stampMs),
      openPrice: price(c.open),
      highPrice: price(c.high),
      lowPrice: price(c.low),
      closePrice: price(c.close),
      volume: formatDecimal(kr ? v.floor() : v.toDecimalPlaces(0, Decimal.ROUND_HALF_UP)),
      currency,
    };
  }

  /** Product of the ratios of the splits after day `dn` (1 when none). */
  private ratio(dn: number): Decimal {
    let r = ONE;
    for (const split of this.process.spec.splits) {
      if (dn < dayNumber(split.date)) r = r.times(String(split.ratio));
    }
    return r;
  }
}

const ZERO = new Decimal(0);
const ONE = new Decimal(1);

function aggregate(stampMs: number, dn: number, trades: readonly TradeTick[]): RawCandle {
  const first = trades[0] as TradeTick;
  let high = first.price;
  let low = first.price;
  let volume = ZERO;
  for (const t of trades) {
    if (t.price.greaterThan(high)) high = t.price;
    if (t.price.lessThan(low)) low = t.price;
    volume = volume.plus(t.volume);
  }
  const close = (trades[trades.length - 1] as TradeTick).price;
  return { stampMs, dn, open: first.price, high, low, close, volume };
}
