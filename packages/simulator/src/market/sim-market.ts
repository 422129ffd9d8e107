/**
 * The simulated market: the listing, seeded prices, books, trades, candles, reference data,
 * the exchange rate and the calendars, plus the payloads of the market endpoints.
 *
 * @module
 */
import { type Clock, Decimal, formatDecimal, type Market, roundToTick, type SessionName } from '@hoga/core';
import { DateTime } from 'luxon';
import { SimApiError } from '../api-error.js';
import { checkSupportedDate, krCalendar, usCalendar } from './calendar-payload.js';
import { CandleBuilder, kstIso } from './candles.js';
import { FX_HISTORY_START_MS, FxProcess } from './fx.js';
import type { BookSnapshot, MarketModel, SimInstrument } from './market-model.js';
import { PriceProcess } from './price-process.js';
import {
  checkSymbol,
  invalidRequest,
  optionalBoolean,
  optionalDate,
  optionalDateTime,
  optionalInteger,
  requireEnum,
  requireSymbol,
  requireSymbolList,
} from './query.js';
import { type LastTrade, Quotes } from './quotes.js';
import { SimCalendar } from './sim-calendar.js';
import { activeWarnings, stockInfo } from './stock-info.js';
import { isoDate, kstDay, usTradingDay } from './trading-calendar.js';
import { generatedStocks, type InstrumentSpec, UNIVERSE } from './universe.js';

/** Options of {@link SimMarket}. */
export interface SimMarketOptions {
  /** Seed of every price, volume and rate. */
  readonly seed: number;
  /** The simulated clock. */
  readonly clock: Clock;
  /** Generated KR stocks listed besides the fixed universe (benchmarks; default 0). */
  readonly extraSymbols?: number;
  /**
   * The calendar its calendar endpoints answer and its order sessions follow (default: the
   * built-in one, nothing declared).
   */
  readonly calendar?: SimCalendar;
}

interface Listing {
  readonly spec: InstrumentSpec;
  readonly process: PriceProcess;
  readonly quotes: Quotes;
  readonly candles: CandleBuilder;
  priceEntry: { readonly last: LastTrade; readonly json: PriceJson } | undefined;
}

interface PriceJson {
  readonly symbol: string;
  readonly timestamp: string;
  readonly lastPrice: string;
  readonly currency: string;
}

const CURRENCIES = ['KRW', 'USD'] as const;
const INTERVALS = ['1m', '1d'] as const;

/** The simulated market (see the module docs). */
export class SimMarket implements MarketModel {
  /** @inheritdoc */
  readonly clock: Clock;
  /** The calendar it answers and orders by (declared holidays and special sessions included). */
  readonly calendar: SimCalendar;
  private readonly listings = new Map<string, Listing>();
  private readonly universe: readonly InstrumentSpec[];
  private readonly fx: FxProcess;
  /** Resolved listings and the last answer per raw `symbols` value of `prices`. */
  private readonly priceLists = new Map<
    string,
    { listings: readonly Listing[]; last: PriceJson[] | undefined }
  >();

  /** @param options - seed and clock */
  constructor(options: SimMarketOptions) {
    this.clock = options.clock;
    this.calendar = options.calendar ?? new SimCalendar();
    this.fx = new FxProcess(options.seed);
    this.universe = [...UNIVERSE, ...generatedStocks(options.extraSymbols ?? 0)];
    for (const spec of this.universe) {
      const process = new PriceProcess(spec, options.seed);
      const quotes = new Quotes(process);
      this.listings.set(spec.symbol, {
        spec,
        process,
        quotes,
        candles: new CandleBuilder(process, quotes),
        priceEntry: undefined,
      });
    }
  }

  /** The listing of a symbol (case-insensitive), or undefined. */
  private find(symbol: string): Listing | undefined {
    return this.listings.get(symbol) ?? this.listings.get(symbol.toUpperCase());
  }

  /** The listing of a symbol or 404 `stock-not-found`. */
  private listing(symbol: string): Listing {
    const listing = this.find(symbol);
    if (listing === undefined)
      throw new SimApiError(404, 'stock-not-found', `no stock with symbol ${symbol}`);
    return listing;
  }

  private known(symbol: string): Listing {
    const listing = this.find(symbol);
    if (listing === undefined) throw new Error(`unknown symbol ${symbol}`);
    return listing;
  }

  /** @inheritdoc */
  instruments(): readonly SimInstrument[] {
    return this.universe;
  }

  /** @inheritdoc */
  instrument(symbol: string): SimInstrument | undefined {
    return this.find(symbol)?.spec;
  }

  /** @inheritdoc */
  lastPrice(symbol: string, at: DateTime): Decimal {
    return this.known(symbol).quotes.lastTrade(at.toMillis()).price;
  }

  /** @inheritdoc */
  book(symbol: string, at: DateTime): BookSnapshot {
    return this.known(symbol).quotes.book(at.toMillis());
  }

  /**
   * The day's price limits of `symbol` at `at` (null for US stocks), or, given the raw query of
   * `GET /api/v1/price-limits`, that endpoint's payload.
   */
  priceLimits(symbol: string, at: DateTime): { readonly upper: Decimal; readonly lower: Decimal } | null;
  priceLimits(query: URLSearchParams): unknown;
  priceLimits(arg: string | URLSearchParams, at?: DateTime): unknown {
    if (arg instanceof URLSearchParams) return this.priceLimitsPayload(arg);
    const { process, quotes } = this.known(arg);
    const { lower, upper } = process.limits(quotes.sessionDay((at ?? this.clock.now()).toMillis()));
    return lower === null || upper === null ? null : { lower, upper };
  }

  /** @inheritdoc */
  referencePrice(symbol: string, at: DateTime): Decimal {
    const { process, quotes } = this.known(symbol);
    return process.limits(quotes.sessionDay(at.toMillis())).ref;
  }

  /** @inheritdoc */
  orderSession(country: Market, at: DateTime): SessionName | null {
    return this.calendar.orderSessionAt(country, at.toMillis());
  }

  /** @inheritdoc */
  usRegularSession(at: DateTime): { readonly start: DateTime; readonly end: DateTime } | null {
    const span = this.calendar.usRegularSessionAt(at.toMillis());
    if (span === null) return null;
    return {
      start: DateTime.fromMillis(span.start, { zone: 'Asia/Seoul' }),
      end: DateTime.fromMillis(span.end, { zone: 'Asia/Seoul' }),
    };
  }

  /** @inheritdoc */
  usdKrw(at: DateTime): Decimal {
    return this.fx.usdKrw(at.toMillis());
  }

  /**
   * Control API: jumps the price of `symbol` now; the process continues from the new level.
   * KR prices are rounded down onto the tick grid and kept within the day's price limits; US
   * prices are rounded down to the tick.
   *
   * @throws {@link SimApiError} 404 for an unknown symbol, 400 for a non-positive price
   */
  setPrice(symbol: string, price: Decimal): void {
    const listing = this.listing(symbol);
    if (!(price instanceof Decimal) || !price.isFinite() || price.lessThanOrEqualTo(0)) {
      throw invalidRequest('price', `price must be a positive decimal, found ${String(price)}`);
    }
    const ms = this.clock.nowMs();
    const dn = listing.quotes.sessionDay(ms);
    let target = roundToTick(listing.spec.instrument, price, 'down');
    const { lower, upper } = listing.process.limits(dn);
    if (lower !== null && upper !== null) target = Decimal.min(Decimal.max(target, lower), upper);
    if (target.isZero()) target = roundToTick(listing.spec.instrument, price, 'up');
    listing.process.override(dn, ms, target);
    listing.quotes.invalidate();
    listing.priceEntry = undefined;
  }

  /** Payload of `GET /api/v1/orderbook`. */
  orderbook(query: URLSearchParams): unknown {
    const listing = this.listing(requireSymbol(query));
    const ms = this.clock.nowMs();
    const book = listing.quotes.book(ms);
    const level = (l: { price: Decimal; volume: Decimal }) => ({
      price: formatDecimal(l.price),
      volume: formatDecimal(l.volume),
    });
    return {
      timestamp: kstIso(ms),
      currency: listing.spec.currency,
      asks: book.asks.map(level),
      bids: book.bids.map(level),
    };
  }

  /**
   * Payload of `GET /api/v1/prices`: one entry per requested symbol, in the requested order
   * (duplicates repeated); any unknown symbol makes the whole request 404 `stock-not-found`.
   * While no price in the list has changed, the same array instance is returned again, so that
   * the HTTP layer may cache its serialization per result object.
   */
  prices(query: URLSearchParams): unknown {
    const raw = query.get('symbols') ?? '';
    let cached = this.priceLists.get(raw);
    if (cached === undefined) {
      const listings = requireSymbolList(query).map((symbol) => this.listing(symbol));
      if (this.priceLists.size >= 64) this.priceLists.clear();
      cached = { listings, last: undefined };
      this.priceLists.set(raw, cached);
    }
    const ms = this.clock.nowMs();
    const { listings, last } = cached;
    const out: PriceJson[] = new Array(listings.length);
    let same = last !== undefined;
    for (let i = 0; i < listings.length; i++) {
      const entry = this.priceJson(listings[i] as Listing, ms);
      out[i] = entry;
      if (same && last?.[i] !== entry) same = false;
    }
    if (same && last !== undefined) return last;
    cached.last = out;
    return out;
  }

  private priceJson(listing: Listing, ms: number): PriceJson {
    const last = listing.quotes.lastTrade(ms);
    const entry = listing.priceEntry;
    if (entry !== undefined && entry.last === last) return entry.json;
    const json: PriceJson = {
      symbol: listing.spec.symbol,
      timestamp: kstIso(last.ms),
      lastPrice: formatDecimal(last.price),
      currency: listing.spec.currency,
    };
    listing.priceEntry = { last, json };
    return json;
  }

  /** Payload of `GET /api/v1/trades`: the session day's trades up to now, newest first. */
  trades(query: URLSearchParams): unknown {
    const symbol = requireSymbol(query);
    const count = optionalInteger(query, 'count', 1, 50, 50);
    const listing = this.listing(symbol);
    const currency = listing.spec.currency;
    return listing.quotes.recentTrades(this.clock.nowMs(), count).map((t) => ({
      price: formatDecimal(t.price),
      volume: formatDecimal(t.volume),
      timestamp: kstIso(t.ms),
      currency,
    }));
  }

  /** Payload of `GET /api/v1/price-limits` (both null for US stocks). */
  private priceLimitsPayload(query: URLSearchParams): unknown {
    const listing = this.listing(requireSymbol(query));
    const ms = this.clock.nowMs();
    const { lower, upper } = listing.process.limits(listing.quotes.sessionDay(ms));
    return {
      timestamp: kstIso(ms),
      upperLimitPrice: upper === null ? null : formatDecimal(upper),
      lowerLimitPrice: lower === null ? null : formatDecimal(lower),
      currency: listing.spec.currency,
    };
  }

  /** Payload of `GET /api/v1/candles`. Parameters are validated (400) before the symbol is looked up (404). */
  candles(query: URLSearchParams): unknown {
    const symbol = requireSymbol(query);
    const interval = requireEnum(query, 'interval', INTERVALS);
    const count = optionalInteger(query, 'count', 1, 200, 100);
    const before = optionalDateTime(query, 'before');
    const adjusted = optionalBoolean(query, 'adjusted', true);
    const listing = this.listing(symbol);
    return listing.candles.page({
      interval,
      count,
      beforeMs: before === null ? null : before.toMillis(),
      adjusted,
      nowMs: this.clock.nowMs(),
    });
  }

  /** Payload of `GET /api/v1/stocks`: one entry per distinct known symbol; unknown symbols are left out. */
  stocks(query: URLSearchParams): unknown {
    const seen = new Set<string>();
    const out = [];
    for (const symbol of requireSymbolList(query)) {
      const listing = this.find(symbol);
      if (listing === undefined || seen.has(listing.spec.symbol)) continue;
      seen.add(listing.spec.symbol);
      out.push(stockInfo(listing.spec));
    }
    return out;
  }

  /** Payload of `GET /api/v1/stocks/{symbol}/warnings`: the warnings active today (KST). */
  warnings(symbol: string): unknown {
    const listing = this.listing(checkSymbol(symbol));
    return activeWarnings(listing.spec, isoDate(kstDay(this.clock.nowMs())));
  }

  /** Payload of `GET /api/v1/exchange-rate`. */
  exchangeRate(query: URLSearchParams): unknown {
    const base = requireEnum(query, 'baseCurrency', CURRENCIES);
    const quote = requireEnum(query, 'quoteCurrency', CURRENCIES);
    if (base === quote) {
      throw new SimApiError(400, 'invalid-request', `baseCurrency and quoteCurrency are both ${base}`, {
        field: 'baseCurrency,quoteCurrency',
      });
    }
    const at = optionalDateTime(query, 'dateTime');
    const now = this.clock.nowMs();
    const ms = at === null ? now : at.toMillis();
    if (ms < FX_HISTORY_START_MS || ms > now) {
      throw new SimApiError(
        404,
        'exchange-rate-not-found',
        `no exchange rate for ${kstIso(ms)}: rates exist from ${kstIso(FX_HISTORY_START_MS)} until now`,
      );
    }
    return this.fx.window(ms, base, quote);
  }

  /** Payload of `GET /api/v1/market-calendar/KR` (`date` defaults to today in KST). */
  krCalendar(query: URLSearchParams): unknown {
    const date = optionalDate(query, 'date') ?? isoDate(kstDay(this.clock.nowMs()));
    return krCalendar(this.calendar, checkSupportedDate(date));
  }

  /** Payload of `GET /api/v1/market-calendar/US` (`date` defaults to the current US trading date). */
  usCalendar(query: URLSearchParams): unknown {
    const date = optionalDate(query, 'date') ?? isoDate(usTradingDay(this.clock.nowMs()));
    return usCalendar(this.calendar, checkSupportedDate(date));
  }
}
