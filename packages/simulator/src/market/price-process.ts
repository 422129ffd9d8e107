/**
 * The seeded price process of one instrument, readable at any instant in O(log history):
 * daily closes follow a keyed Brownian motion over calendar days (anchored at 2026-11-20), each
 * trading day's minute path is a Brownian bridge through the previous evening's last price,
 * the open, the close and the evening's last price, and trades are synthesized per minute from
 * that path. Control-API price moves are persistent multiplicative offsets.
 *
 * @module
 */
import { krPriceLimits } from '@hoga/broker-model';
import { Decimal, roundToTick, tickSize } from '@hoga/core';
import { brownianAt, fillBridge } from './brownian.js';
import { type DaySchedule, daySchedule } from './day-schedule.js';
import { hash32, hashString, normal, Stream } from './rng.js';
import { synthesizeTrades } from './trade-tape.js';
import { dayNumber, previousTradingDay } from './trading-calendar.js';
import type { InstrumentSpec } from './universe.js';

const MINUTE_MS = 60_000;
const ANCHOR_DN = dayNumber('2026-11-20');
const DAY_CACHE_LIMIT = 64;
const TRADE_CACHE_LIMIT = 2048;
/** Entries of the small per-day caches (closes, ranges, limits). */
const SMALL_CACHE_LIMIT = 4096;

/** One synthesized trade. */
export interface TradeTick {
  readonly ms: number;
  readonly price: Decimal;
  readonly volume: Decimal;
}

/** Everything about one trading day of one instrument that does not depend on price overrides. */
export interface DayModel {
  readonly schedule: DaySchedule;
  /** Log price (current share basis) at each minute boundary. */
  readonly path: Float64Array;
  /** Raw-to-current price multiplier of the day (product of later split inverses). */
  readonly factor: number;
  /** Trading day before this one. */
  readonly prevDn: number;
  /** Suspended: the price is frozen and nothing trades. */
  readonly frozen: boolean;
  /** Daily volume in raw shares. */
  readonly dailyVolume: number;
}

/** Reference price and KR price limits of a trading day (limits null for US). */
export interface DayLimits {
  readonly ref: Decimal;
  readonly lower: Decimal | null;
  readonly upper: Decimal | null;
  /** The limits as floats (±Infinity when none), for clamping the path. */
  readonly lowerF: number;
  readonly upperF: number;
}

interface Override {
  readonly ms: number;
  readonly logOffset: number;
  readonly trade: TradeTick;
}

/** The price process of one instrument. */
export class PriceProcess {
  /** Stream key of this instrument under the market seed. */
  readonly key: number;
  private readonly logLevel: number;
  private readonly suspendedDn: number | null;
  private readonly days = new Map<number, DayModel>();
  private readonly trades = new Map<string, readonly TradeTick[]>();
  private readonly limitsCache = new Map<number, DayLimits>();
  private readonly closes = new Map<number, number>();
  private readonly ranges = new Map<number, { lo: number; hi: number }>();
  private scratch = new Float64Array(0);
  private overrides: Override[] = [];

  /**
   * @param spec - the instrument
   * @param seed - market seed
   */
  constructor(
    readonly spec: InstrumentSpec,
    seed: number,
  ) {
    this.key = hash32(seed, hashString(spec.symbol));
    this.logLevel = Math.log(spec.basePrice) + 0.05 * normal(this.key, Stream.DAILY, -1);
    this.suspendedDn = spec.suspendedSince === null ? null : dayNumber(spec.suspendedSince);
  }

  /** Log close (current basis, no overrides) of local date `dn`. */
  private logClose(dn: number): number {
    if (this.suspendedDn !== null && dn >= this.suspendedDn) {
      return this.logClose(previousTradingDay(this.spec.country, this.suspendedDn));
    }
    let value = this.closes.get(dn);
    if (value === undefined) {
      const w = brownianAt(this.key, Stream.DAILY, dn) - brownianAt(this.key, Stream.DAILY, ANCHOR_DN);
      value = this.logLevel + this.spec.dailyVol * w;
      if (this.closes.size >= SMALL_CACHE_LIMIT) this.closes.clear();
      this.closes.set(dn, value);
    }
    return value;
  }

  /** Log last price of the evening session of `dn`. */
  private logAfter(dn: number): number {
    if (this.frozenOn(dn)) return this.logClose(dn);
    return this.logClose(dn) + this.spec.dailyVol * 0.15 * normal(this.key, Stream.AFTER, dn);
  }

  /** Whether day `dn` is a suspended one: its price frozen at the last close, nothing trading. */
  frozenOn(dn: number): boolean {
    return this.suspendedDn !== null && dn >= this.suspendedDn;
  }

  /** Raw-to-current multiplier on day `dn`. */
  factor(dn: number): number {
    let f = 1;
    for (const split of this.spec.splits) {
      if (dn < dayNumber(split.date)) f /= split.ratio;
    }
    return f;
  }

  /** Log opening auction price (current basis, no overrides) of trading day `dn`. */
  private logOpen(dn: number): number {
    const close = this.logClose(dn);
    if (this.frozenOn(dn)) return close;
    const prevClose = this.logClose(previousTradingDay(this.spec.country, dn));
    return (
      prevClose + 0.3 * (close - prevClose) + this.spec.dailyVol * 0.25 * normal(this.key, Stream.GAP, dn)
    );
  }

  /** Daily volume of trading day `dn` in raw shares. */
  dailyVolume(dn: number): number {
    if (this.frozenOn(dn)) return 0;
    const ret = Math.abs(this.logClose(dn) - this.logClose(previousTradingDay(this.spec.country, dn)));
    const z = normal(this.key, Stream.DAILY_VOLUME, dn);
    return Math.floor((this.spec.avgDailyVolume * Math.exp(0.35 * z) * (1 + 10 * ret)) / this.factor(dn));
  }

  /**
   * Fills the log path of day `dn` into `path` (length minutes + 1); with `regularOnly` just the
   * regular session `openIdx..closeIdx` (the same values as in the full path).
   */
  private fillPath(dn: number, schedule: DaySchedule, path: Float64Array, regularOnly: boolean): void {
    const close = this.logClose(dn);
    if (this.frozenOn(dn)) {
      path.fill(close);
      return;
    }
    const open = this.logOpen(dn);
    const regular = schedule.closeIdx - schedule.openIdx;
    const perMinute = (this.spec.dailyVol * 0.7) / Math.sqrt(regular);
    fillBridge(path, schedule.openIdx, regular, open, close, perMinute, this.key, dn * 4 + 1);
    if (regularOnly) return;
    const prevDn = previousTradingDay(this.spec.country, dn);
    fillBridge(path, 0, schedule.openIdx, this.logAfter(prevDn), open, perMinute * 0.5, this.key, dn * 4);
    const evening = schedule.minutes - schedule.closeIdx;
    fillBridge(
      path,
      schedule.closeIdx,
      evening,
      close,
      this.logAfter(dn),
      perMinute * 0.5,
      this.key,
      dn * 4 + 2,
    );
  }

  /** The model of trading day `dn` (cached). */
  day(dn: number): DayModel {
    const cached = this.days.get(dn);
    if (cached !== undefined) return cached;
    const schedule = daySchedule(this.spec, dn);
    const path = new Float64Array(schedule.minutes + 1);
    this.fillPath(dn, schedule, path, false);
    const model: DayModel = {
      schedule,
      path,
      factor: this.factor(dn),
      prevDn: previousTradingDay(this.spec.country, dn),
      frozen: this.frozenOn(dn),
      dailyVolume: this.dailyVolume(dn),
    };
    if (this.days.size >= DAY_CACHE_LIMIT) this.days.delete(this.days.keys().next().value as number);
    this.days.set(dn, model);
    return model;
  }

  /** Log low and high of the regular session of day `dn` without overrides (cached, no day model). */
  private regularRange(dn: number): { lo: number; hi: number } {
    const cached = this.ranges.get(dn);
    if (cached !== undefined) return cached;
    const model = this.days.get(dn);
    const schedule = model?.schedule ?? daySchedule(this.spec, dn);
    let path = model?.path;
    if (path === undefined) {
      if (this.scratch.length < schedule.minutes + 1) this.scratch = new Float64Array(schedule.minutes + 1);
      path = this.scratch;
      this.fillPath(dn, schedule, path, true);
    }
    let hi = Number.NEGATIVE_INFINITY;
    let lo = Number.POSITIVE_INFINITY;
    for (let i = schedule.openIdx; i <= schedule.closeIdx; i++) {
      const x = path[i] ?? 0;
      if (x > hi) hi = x;
      if (x < lo) lo = x;
    }
    const range = { lo, hi };
    if (this.ranges.size >= SMALL_CACHE_LIMIT) this.ranges.clear();
    this.ranges.set(dn, range);
    return range;
  }

  /** Sum of override offsets in force at `ms`. */
  private offsetAt(ms: number): number {
    let sum = 0;
    for (const o of this.overrides) if (o.ms <= ms) sum += o.logOffset;
    return sum;
  }

  /** Rounds a positive float price onto the tick grid. */
  toTick(x: number, direction: 'up' | 'down'): Decimal {
    const d = new Decimal(x > 0 && Number.isFinite(x) ? x.toPrecision(12) : 0);
    const rounded = roundToTick(this.spec.instrument, d, direction);
    return rounded.isZero() ? tickSize(this.spec.instrument, d) : rounded;
  }

  /** Reference price (previous regular close on this day's share basis) and KR ±30% limits. */
  limits(dn: number): DayLimits {
    const cached = this.limitsCache.get(dn);
    if (cached !== undefined) return cached;
    const prevDn = previousTradingDay(this.spec.country, dn);
    const prev = daySchedule(this.spec, prevDn);
    const closeMs = prev.startMs + prev.closeIdx * MINUTE_MS;
    const raw = Math.exp(this.logClose(prevDn) + this.offsetAt(closeMs)) * this.factor(dn);
    const ref = this.toTick(raw, 'down');
    let result: DayLimits;
    if (this.spec.country === 'KR') {
      const { upper, lower } = krPriceLimits(this.spec.instrument, ref);
      result = { ref, lower, upper, lowerF: lower.toNumber(), upperF: upper.toNumber() };
    } else {
      result = { ref, lower: null, upper: null, lowerF: 0, upperF: Number.POSITIVE_INFINITY };
    }
    if (this.limitsCache.size >= SMALL_CACHE_LIMIT) this.limitsCache.clear();
    this.limitsCache.set(dn, result);
    return result;
  }

  /** Float range [low, high] of the effective path over minute boundaries `from..to` of day `dn`. */
  pathRange(dn: number, from: number, to: number): { low: number; high: number } {
    const factor = this.factor(dn);
    const schedule = this.days.get(dn)?.schedule ?? daySchedule(this.spec, dn);
    if (this.overrides.length === 0 && from === schedule.openIdx && to === schedule.closeIdx) {
      const { lo, hi } = this.regularRange(dn);
      return { low: this.clamp(dn, Math.exp(lo) * factor), high: this.clamp(dn, Math.exp(hi) * factor) };
    }
    let high = Number.NEGATIVE_INFINITY;
    let low = Number.POSITIVE_INFINITY;
    for (let i = from; i <= to; i++) {
      const x = this.priceAt(dn, i);
      if (x > high) high = x;
      if (x < low) low = x;
    }
    return { low, high };
  }

  /** Effective float price at minute boundary `i` of a day (overrides and KR limits applied). */
  priceAt(dn: number, i: number): number {
    const day = this.day(dn);
    const ms = day.schedule.startMs + i * MINUTE_MS;
    const x = Math.exp((day.path[i] ?? 0) + this.offsetAt(ms)) * day.factor;
    return this.clamp(dn, x);
  }

  private clamp(dn: number, x: number): number {
    if (this.spec.country !== 'KR') return x;
    const { lowerF, upperF } = this.limits(dn);
    return Math.min(Math.max(x, lowerF), upperF);
  }

  /** Price of the opening (`'open'`) or closing (`'close'`) auction of day `dn`, on the tick grid. */
  auctionPrice(dn: number, which: 'open' | 'close'): Decimal {
    const schedule = this.days.get(dn)?.schedule ?? daySchedule(this.spec, dn);
    const idx = which === 'open' ? schedule.openIdx : schedule.closeIdx;
    const log = which === 'open' ? this.logOpen(dn) : this.logClose(dn);
    const x = Math.exp(log + this.offsetAt(schedule.startMs + idx * MINUTE_MS)) * this.factor(dn);
    return this.toTick(this.clamp(dn, x), 'down');
  }

  /** The trades of minute `i` of trading day `dn`, oldest first (cached). */
  minuteTrades(dn: number, i: number): readonly TradeTick[] {
    const cacheKey = `${dn}:${i}`;
    const cached = this.trades.get(cacheKey);
    if (cached !== undefined) return cached;
    const result = synthesizeTrades(this, dn, i);
    if (this.trades.size >= TRADE_CACHE_LIMIT) this.trades.delete(this.trades.keys().next().value as string);
    this.trades.set(cacheKey, result);
    return result;
  }

  /** The control-API price jumps in `[fromMs, toMs)`, as trades. */
  jumpsIn(fromMs: number, toMs: number): TradeTick[] {
    return this.overrides.filter((o) => o.ms >= fromMs && o.ms < toMs).map((o) => o.trade);
  }

  /** The latest control-API price jump at or before `ms`, as a trade, or undefined. */
  lastOverride(ms: number): TradeTick | undefined {
    let found: TradeTick | undefined;
    for (const o of this.overrides) if (o.ms <= ms) found = o.trade;
    return found;
  }

  /**
   * Jumps the price at `ms` to `price` (already on the grid and within limits): records a trade
   * there and shifts the process from `ms` on so that it continues from the new level.
   *
   * @param dn - trading day the jump belongs to
   * @param ms - instant of the jump
   * @param price - the new price
   */
  override(dn: number, ms: number, price: Decimal): void {
    const day = this.day(dn);
    const idx = Math.min(
      Math.max(Math.floor((ms - day.schedule.startMs) / MINUTE_MS), 0),
      day.schedule.minutes,
    );
    const current = Math.exp((day.path[idx] ?? 0) + this.offsetAt(ms)) * day.factor;
    const logOffset = Math.log(price.toNumber() / current);
    const trade: TradeTick = { ms, price, volume: new Decimal(1) };
    this.overrides = [...this.overrides, { ms, logOffset, trade }].sort((x, y) => x.ms - y.ms);
    this.trades.clear();
    this.limitsCache.clear();
  }
}
