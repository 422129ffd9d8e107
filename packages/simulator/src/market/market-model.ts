import type { BookLevel } from '@hoga/broker-model';
import type {
  Clock,
  Currency,
  Decimal,
  Instrument,
  Market,
  SessionName,
  TradableInstrument,
} from '@hoga/core';
import type { DateTime } from 'luxon';

/**
 * The seam between the simulated market (prices, books, sessions) and the
 * simulated brokerage (accounts, orders, matching). The market side
 * implements it; the brokerage only reads through it.
 */
export interface SimInstrument {
  readonly symbol: string;
  readonly name: string;
  readonly englishName: string;
  readonly isinCode: string;
  /** Country of the market: `KR` or `US`. */
  readonly country: Market;
  /** Listing market as the wire shows it: `KOSPI`, `KOSDAQ`, `NASDAQ`, `NYSE`, `NYSE ARCA`. */
  readonly exchange: string;
  /** `STOCK`, `ETF`, `ETN`. */
  readonly securityType: string;
  readonly currency: Currency;
  /** e.g. `"3"` for a 3x leveraged ETF; null otherwise. */
  readonly leverageFactor: string | null;
  /** KR only: traded on the alternative exchange (NXT) too. */
  readonly nxtSupported: boolean;
  /** KR only: trading suspended on the main exchange. */
  readonly suspended: boolean;
  /** Orders need a completed prerequisite (US leveraged/inverse ETFs): 422 `prerequisite-required`. */
  readonly prerequisiteRequired: boolean;
  /** KR: trades after the close (KRX after-hours single price) even without NXT. */
  readonly afterMarketEligible: boolean;
}

/** The core view of a simulated instrument (market, currency, security type: the tick grid). */
export function coreInstrument(instrument: SimInstrument): Instrument {
  return {
    symbol: instrument.symbol,
    market: instrument.country,
    currency: instrument.currency,
    securityType: instrument.securityType,
  };
}

/**
 * A simulated instrument as the broker model's rules see it: core's instrument with its trading
 * flags (a suspended stock is suspended on both exchanges; NXT's flag is null when NXT does not
 * trade it, as `koreanMarketDetail` shows).
 */
export function tradableInstrument(instrument: SimInstrument): TradableInstrument {
  return {
    ...coreInstrument(instrument),
    flags: {
      nxtSupported: instrument.nxtSupported,
      krxSuspended: instrument.suspended,
      nxtSuspended: instrument.nxtSupported ? instrument.suspended : null,
      prerequisiteRequired: instrument.prerequisiteRequired,
      afterMarketEligible: instrument.afterMarketEligible,
      warnings: [],
    },
  };
}

/** One price level of a book: the broker model's (one home for the book's shape). */
export type { BookLevel };

/** A snapshot of a book: asks lowest first, bids highest first. */
export interface BookSnapshot {
  readonly asks: readonly BookLevel[];
  readonly bids: readonly BookLevel[];
}

export interface MarketModel {
  /** The simulated clock everything moves with. */
  readonly clock: Clock;
  /** All listed instruments. */
  instruments(): readonly SimInstrument[];
  /** One instrument, or undefined when the symbol is unknown. */
  instrument(symbol: string): SimInstrument | undefined;
  /** Last traded price at `at` (deterministic for a seed; honours control-API price moves). */
  lastPrice(symbol: string, at: DateTime): Decimal;
  /** The book at `at`, at least 10 levels a side. */
  book(symbol: string, at: DateTime): BookSnapshot;
  /** Daily price limits at `at`; null for US stocks. */
  priceLimits(symbol: string, at: DateTime): { readonly upper: Decimal; readonly lower: Decimal } | null;
  /** Reference (previous close) price of the trading day containing `at`. */
  referencePrice(symbol: string, at: DateTime): Decimal;
  /** The order session open for a country at `at` (core's session names), or null when orders are not accepted. */
  orderSession(country: Market, at: DateTime): SessionName | null;
  /** The US regular session containing `at`, or null. */
  usRegularSession(at: DateTime): { readonly start: DateTime; readonly end: DateTime } | null;
  /** KRW per 1 USD at `at`. */
  usdKrw(at: DateTime): Decimal;
}
