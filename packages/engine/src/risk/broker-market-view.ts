/**
 * The market as the broker's rules need it, read from the broker through the connector and cached:
 * instruments with their trading flags (stock info and warnings), the KR and US calendars (the
 * order session and the US regular hours, read for the date of the instant judged:
 * `market-calendars.ts`), price limits, last prices and the USD/KRW rate.
 *
 * @module
 */
import type { MarketMoment } from '@hoga/broker-model';
import { RequestPriority } from '@hoga/connector';
import {
  type Clock,
  Decimal,
  instrumentOf,
  KST_ZONE,
  type Market,
  type MarketCalendar,
  type MarketSession,
  nextOpen,
  SecurityType,
  SessionName,
  type StockWarningType,
  sessionAt,
  type TradableInstrument,
  tradingFlagsOf,
} from '@hoga/core';
import type { DateTime } from 'luxon';
import type { MarketRulesView } from './broker-rules-check.js';
import { FollowedFx, type FxWatch } from './followed-fx.js';
import {
  CALENDAR_MARKETS,
  type CalendarSpans,
  calendarDateOf,
  MarketCalendars,
  type StoredCalendars,
} from './market-calendars.js';
import { chunked, type MarketInfoSource, type ReadOptions } from './market-info-source.js';
import { notOlder, type StampedPrice } from './stamped-price.js';

/** How long each kind of data is kept before `prepare` re-reads it, ms. */
export interface MarketViewAges {
  /** Instruments (the daily price limits are read once per KST day). */
  readonly reference: number;
  readonly calendar: number;
  readonly quote: number;
  readonly fx: number;
}

const DEFAULT_AGES: MarketViewAges = { reference: 600_000, calendar: 600_000, quote: 5_000, fx: 60_000 };

/** The KST calendar day of an instant (a day number). */
function kstDay(ms: number): number {
  return Math.floor((ms + 9 * 3_600_000) / 86_400_000);
}

interface Stamped<T> {
  readonly value: T;
  readonly atMs: number;
}

/**
 * Whether orders in an instrument need a prerequisite the broker's data does not state: hoga treats
 * a US product with a leverage factor other than 1 (leveraged or inverse ETFs) as needing it
 * (docs/risk.md).
 */
export function needsPrerequisite(market: string, leverageFactor: Decimal | null): boolean {
  return market === 'US' && leverageFactor !== null && !leverageFactor.eq(1);
}

/** The broker's market data, cached for the rules. */
export class BrokerMarketView implements MarketRulesView {
  private readonly instruments = new Map<string, Stamped<TradableInstrument>>();
  private readonly limits = new Map<string, Stamped<{ upper: Decimal; lower: Decimal } | null>>();
  private readonly prices = new Map<string, StampedPrice>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly calendars: MarketCalendars;
  private fx: Stamped<Decimal> | undefined;
  /**
   * The rate is given by {@link BrokerMarketView.followFx} (a run's exchange-rate stream): read here
   * only once it is past its validity by more than `FX_STALE_MARGIN_MS` (`followed-fx.ts`).
   */
  private fxFollowed = false;
  private readonly followed = new FollowedFx();
  private readonly ages: MarketViewAges;

  /**
   * @param source - the broker (a `BrokerClient`)
   * @param clock - engine clock
   * @param ages - how long data is kept (defaults: reference and calendars 10 min, quotes 5 s, FX 1 min)
   * @param storedCalendars - the store's calendar cache, shared with other processes (`market-calendars.ts`)
   */
  constructor(
    private readonly source: MarketInfoSource,
    private readonly clock: Clock,
    ages: Partial<MarketViewAges> = {},
    storedCalendars?: StoredCalendars,
  ) {
    this.ages = { ...DEFAULT_AGES, ...ages };
    this.calendars = new MarketCalendars(source, clock, this.ages.calendar, storedCalendars);
  }

  /**
   * Reads what is missing or older than its age for `symbol` (everything with `force`), and the KR
   * and US calendars when they do not tell the hours at the engine clock's now (the instant the
   * rules judge): read for its date, so a clock far from the broker's day (`hoga order --at`) or
   * past the next business day (a long run) is judged on its own day's hours.
   *
   * @param options - how the instrument and quote reads are queued (the background refresh passes
   *   the `POLL` priority and its stop signal); an order's read (no options) never joins a
   *   background read of the same data, so it is not queued behind it
   */
  async prepare(symbol: string, force = false, options: ReadOptions = {}): Promise<void> {
    const jobs: Promise<void>[] = [];
    const tag = options.priority === undefined ? '' : `@${options.priority}`;
    if (force || this.stale(this.instruments.get(symbol), this.ages.reference))
      jobs.push(this.once(`instrument:${symbol}${tag}`, () => this.readInstrument(symbol, options)));
    const nowMs = this.clock.nowMs();
    for (const market of CALENDAR_MARKETS) {
      if (!force && !this.calendars.due(market, nowMs)) continue;
      const key = `calendar:${market}:${calendarDateOf(market, nowMs)}`;
      jobs.push(this.once(key, () => this.calendars.read(market, nowMs)));
    }
    if (force || this.stale(this.prices.get(symbol), this.ages.quote))
      jobs.push(this.once(`quote:${symbol}${tag}`, () => this.readPrice(symbol, options)));
    if (force || this.staleLimits(this.limits.get(symbol)))
      jobs.push(this.once(`limits:${symbol}${tag}`, () => this.readLimits(symbol, options)));
    const fxStale = this.fxFollowed
      ? this.fx === undefined || this.followed.due(nowMs)
      : this.stale(this.fx, this.ages.fx);
    if ((force && !this.fxFollowed) || fxStale) jobs.push(this.once('fx', () => this.readFx()));
    await Promise.all(jobs);
  }

  /**
   * The background refresh of the quotes of many symbols: the instruments missing or older than
   * the reference age (their stock info in one request per {@link MAX_SYMBOLS_PER_PRICES_CALL}
   * symbols, their warnings one request per symbol), the price limits missing or older than the
   * reference age (one request per symbol), and then their last prices in one request per
   * {@link MAX_SYMBOLS_PER_PRICES_CALL} symbols (last, so that a `prepare` of each symbol right
   * after finds them fresh even when the engine clock runs faster than real time). Every read is
   * queued at the `POLL` priority, so an order's own read ({@link BrokerMarketView.prepare}) goes
   * ahead of it at the rate limits, and does not wait for it (its reads are its own).
   *
   * @param signal - aborts the reads not yet answered (a run stopping)
   */
  async refreshQuotes(symbols: readonly string[], signal?: AbortSignal): Promise<void> {
    const options: ReadOptions = { priority: RequestPriority.POLL, signal };
    const limits = symbols.filter((s) => this.staleLimits(this.limits.get(s)));
    const instruments = symbols.filter((s) => this.stale(this.instruments.get(s), this.ages.reference));
    await Promise.all([
      ...chunked(instruments).map((chunk) => this.readInstruments(chunk, options)),
      ...limits.map((symbol) => this.readLimits(symbol, options)),
    ]);
    await Promise.all(
      chunked(symbols).map(async (chunk) => {
        const sentMs = this.clock.nowMs();
        const prices = await this.source.getPrices(chunk, options);
        for (const p of prices) this.setPrice(p.symbol, p.lastPrice, sentMs, p.timestamp?.toMillis());
      }),
    );
  }

  /** One read per key at a time: concurrent `prepare`s (one per symbol) share the calendar and fx reads. */
  private once(key: string, read: () => Promise<void>): Promise<void> {
    const running = this.inFlight.get(key);
    if (running !== undefined) return running;
    const job = read().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, job);
    return job;
  }

  /**
   * A price from a stream (saves a read); kept only if no newer one is known.
   *
   * @param atMs - when it was asked (default now)
   * @param brokerMs - the broker's time of the price, when known
   */
  notePrice(symbol: string, price: Decimal, atMs = this.clock.nowMs(), brokerMs?: number): void {
    this.setPrice(symbol, price, atMs, brokerMs);
  }

  /**
   * Keeps the newer of the known price and this one: a read asked before another (or a stream's
   * price) and answered after it never puts the older price back.
   */
  private setPrice(symbol: string, value: Decimal, atMs: number, brokerMs: number | undefined): void {
    const next: StampedPrice = { value, atMs, brokerMs };
    if (notOlder(next, this.prices.get(symbol))) this.prices.set(symbol, next);
  }

  /**
   * The USD/KRW rate as someone else reads it (a run's exchange-rate stream, which the broker
   * refreshes every minute): from now on the view takes the rates given here and reads none itself,
   * so the run reads the rate once, not once for its valuation and again for its risk checks.
   *
   * @param rate - KRW per USD
   * @param validUntilMs - the end of its validity (`validUntil`); unknown: the FX age after now
   */
  followFx(rate: Decimal, validUntilMs?: number): void {
    const atMs = this.clock.nowMs();
    this.fxFollowed = true;
    this.fx = { value: rate, atMs };
    this.followed.follow(atMs, validUntilMs, this.ages.fx);
  }

  /**
   * Who hears of a followed rate gone stale and of the rates the view read meanwhile (a run: its
   * log and its equity's rate).
   */
  watchFx(watch: FxWatch): void {
    this.followed.watch = watch;
  }

  /** The last price of a symbol, when known. */
  lastPrice(symbol: string): Decimal | undefined {
    return this.prices.get(symbol)?.value;
  }

  /**
   * The last price of a symbol with the moment it is of, epoch ms (the broker's time of it when the
   * read gave one, else when the read was asked), when known.
   */
  lastPriceAt(symbol: string): { readonly price: Decimal; readonly atMs: number } | undefined {
    const p = this.prices.get(symbol);
    return p === undefined ? undefined : { price: p.value, atMs: p.brokerMs ?? p.atMs };
  }

  /**
   * A symbol's daily price limits as read on the engine clock's KST day, or null: none (US), or not
   * read that day.
   */
  priceLimits(symbol: string): { readonly upper: Decimal; readonly lower: Decimal } | null {
    const entry = this.limits.get(symbol);
    return entry === undefined || this.staleLimits(entry) ? null : entry.value;
  }

  /** KRW per USD, when known. */
  usdKrw(): Decimal | undefined {
    return this.fx?.value;
  }

  /**
   * A market's calendar as last read (with a symbol's data, once older than its age or when the
   * engine clock left the days it holds), or undefined before the first read.
   */
  calendar(market: Market): MarketCalendar | undefined {
    return this.calendars.latest(market);
  }

  /**
   * The sessions of a market's calendar as last read, in epoch ms, worked out once per read (the
   * same object until the calendar is read again), or undefined before the first read: what
   * `ctx.marketOrderAllowed` answers from in paper and live (`calendar-order-hours.ts`), so that it
   * answers from the hours the rules judge an order by.
   */
  orderSessions(market: Market): CalendarSpans | undefined {
    return this.calendars.spans(market);
  }

  /** @inheritdoc */
  instrument(symbol: string): TradableInstrument | undefined {
    return this.instruments.get(symbol)?.value;
  }

  /** @inheritdoc */
  moment(instrument: TradableInstrument, at: DateTime): MarketMoment | undefined {
    // the calendar that holds the instant's day: never another day's, which would judge it closed
    const calendar = this.calendars.covering(instrument.market, at);
    const lastPrice = this.prices.get(instrument.symbol)?.value;
    const usdKrw = this.fx?.value;
    const limits = this.limits.get(instrument.symbol);
    if (calendar === undefined || lastPrice === undefined || usdKrw === undefined || limits === undefined) {
      return undefined;
    }
    const session = sessionAt(calendar, at)?.name ?? null;
    const usRegularHours = this.usRegularHours(at);
    return {
      at: at.setZone(KST_ZONE),
      session,
      nextOpenAt: session === null ? (nextOpen(calendar, at)?.at ?? null) : null,
      regularOpenAt:
        session === null || session === SessionName.REGULAR_MARKET
          ? null
          : (nextOpen(calendar, at, [SessionName.REGULAR_MARKET])?.at ?? null),
      usRegularHours:
        usRegularHours === null ? null : { start: usRegularHours.startTime, end: usRegularHours.endTime },
      priceLimits: limits.value,
      lastPrice,
      usdKrw,
    };
  }

  /** @inheritdoc */
  missing(instrument: TradableInstrument, at: DateTime): string | undefined {
    if (this.calendars.covering(instrument.market, at) === undefined)
      return this.calendars.unknownHours(instrument.market, at);
    return undefined;
  }

  /** The US regular session in progress at `at` (amount orders, CLS orders), when the US calendar holds its day. */
  private usRegularHours(at: DateTime): MarketSession | null {
    const calendar = this.calendars.covering('US', at);
    if (calendar === undefined) return null;
    return sessionAt(calendar, at, [SessionName.REGULAR_MARKET])?.session ?? null;
  }

  private async readInstrument(symbol: string, options: ReadOptions): Promise<void> {
    const sentMs = this.clock.nowMs();
    const [stocks, warnings] = await Promise.all([
      this.source.getStocks([symbol], options),
      this.source.getStockWarnings(symbol, options),
    ]);
    const info = stocks.find((s) => s.symbol === symbol);
    if (info !== undefined) this.setInstrument(symbol, info, warnings, sentMs);
  }

  /** The instruments of many symbols: their stock info in one request, their warnings one each. */
  private async readInstruments(symbols: readonly string[], options: ReadOptions): Promise<void> {
    const sentMs = this.clock.nowMs();
    const [stocks, warnings] = await Promise.all([
      this.source.getStocks(symbols, options),
      Promise.all(symbols.map((symbol) => this.source.getStockWarnings(symbol, options))),
    ]);
    symbols.forEach((symbol, i) => {
      const info = stocks.find((s) => s.symbol === symbol);
      if (info !== undefined) this.setInstrument(symbol, info, warnings[i] ?? [], sentMs);
    });
  }

  private setInstrument(
    symbol: string,
    info: Awaited<ReturnType<MarketInfoSource['getStocks']>>[number],
    warnings: readonly { readonly warningType: string }[],
    sentMs: number,
  ): void {
    const securityType = (Object.values(SecurityType) as string[]).includes(info.securityType)
      ? (info.securityType as SecurityType)
      : SecurityType.STOCK;
    const base = instrumentOf(symbol, securityType);
    const flags = tradingFlagsOf(info.koreanMarketDetail, {
      prerequisiteRequired: needsPrerequisite(base.market, info.leverageFactor),
      warnings: warnings.map((w) => w.warningType as StockWarningType),
    });
    this.instruments.set(symbol, { value: { ...base, flags }, atMs: sentMs });
  }

  private async readPrice(symbol: string, options: ReadOptions): Promise<void> {
    const sentMs = this.clock.nowMs(); // its age counts from the request (a slow answer is no newer)
    const prices = await this.source.getPrices([symbol], options);
    const price = prices.find((p) => p.symbol === symbol);
    if (price !== undefined) this.setPrice(symbol, price.lastPrice, sentMs, price.timestamp?.toMillis());
  }

  /**
   * Stamped with the clock when the request was sent, not when its answer came: a read sent at
   * 23:59:59 and answered after midnight holds the limits of the day before, and is read again on
   * the new day (before, it was taken for the new day's and kept all that day).
   */
  private async readLimits(symbol: string, options?: ReadOptions): Promise<void> {
    const nowMs = this.clock.nowMs();
    const limits = await this.source.getPriceLimits(symbol, options);
    const upper = limits.upperLimitPrice;
    const lower = limits.lowerLimitPrice;
    this.limits.set(symbol, {
      value: upper === null || lower === null ? null : { upper, lower },
      atMs: nowMs,
    });
  }

  private async readFx(): Promise<void> {
    const sentMs = this.clock.nowMs();
    const answer = await this.source.getExchangeRate();
    // a rate the stream gave while this read was in flight is newer
    if (this.fx !== undefined && this.fx.atMs > sentMs) return;
    const rate = new Decimal(answer.rate);
    this.fx = { value: rate, atMs: sentMs };
    if (this.fxFollowed) this.followed.read(rate, sentMs, answer.validUntil?.toMillis(), this.ages.fx);
  }

  private stale(entry: Stamped<unknown> | undefined, maxAgeMs: number): boolean {
    return entry === undefined || this.clock.nowMs() - entry.atMs > maxAgeMs;
  }

  /**
   * Daily price limits hold for the day they were read on (KST date): they are read again on the
   * next day, not every reference age (with 200 symbols, 200 market-data requests every ten
   * minutes of engine time, which at a simulator's ×60 kept the group's budget busy).
   */
  private staleLimits(entry: Stamped<unknown> | undefined): boolean {
    return entry === undefined || kstDay(entry.atMs) !== kstDay(this.clock.nowMs());
  }
}
