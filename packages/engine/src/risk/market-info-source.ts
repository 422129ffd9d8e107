/**
 * What the risk module's market view (`broker-market-view.ts`) reads from the broker, and how: the
 * market reads (the connector's `BrokerClient` has them, and the haltable and paper views of it
 * pass them on), how each is queued at the rate limits, and how many symbols one request takes.
 *
 * @module
 */
import type { RequestPriority } from '@hoga/connector';
import type { Decimal } from '@hoga/core';
import type { CalendarSource } from './market-calendars.js';

/**
 * Most symbols one `GET /api/v1/prices` call takes (spec: `symbols` is a list of 1 to 200); a
 * refresh of more symbols is read in chunks of this size.
 */
export const MAX_SYMBOLS_PER_PRICES_CALL = 200;

/** How a read is queued at the broker's rate limits (the connector's `CallOptions`). */
export interface ReadOptions {
  /** Aborts the read, its wait for a rate-limit token included. */
  readonly signal?: AbortSignal | undefined;
  /** Queue priority inside the rate-limit group (`RequestPriority`). */
  readonly priority?: RequestPriority | undefined;
}

/** The market reads the view makes (the connector's `BrokerClient` has them). */
export interface MarketInfoSource extends CalendarSource {
  getStocks(
    symbols: readonly string[],
    options?: ReadOptions,
  ): Promise<
    readonly {
      readonly symbol: string;
      readonly securityType: string;
      readonly leverageFactor: Decimal | null;
      readonly koreanMarketDetail: {
        readonly nxtSupported: boolean;
        readonly krxTradingSuspended: boolean;
        readonly nxtTradingSuspended: boolean | null;
      } | null;
    }[]
  >;
  getStockWarnings(
    symbol: string,
    options?: ReadOptions,
  ): Promise<readonly { readonly warningType: string }[]>;
  getPrices(
    symbols: readonly string[],
    options?: ReadOptions,
  ): Promise<
    readonly {
      readonly symbol: string;
      readonly lastPrice: Decimal;
      /** The broker's time of the price (`timestamp`), when given. */
      readonly timestamp?: { toMillis(): number } | undefined;
    }[]
  >;
  getPriceLimits(
    symbol: string,
    options?: ReadOptions,
  ): Promise<{ readonly upperLimitPrice: Decimal | null; readonly lowerLimitPrice: Decimal | null }>;
  getExchangeRate(): Promise<{
    readonly rate: Decimal;
    /** End of the rate's validity (spec: normally a minute after `validFrom`), when given. */
    readonly validUntil?: { toMillis(): number } | undefined;
  }>;
}

/** `symbols` in lists of at most {@link MAX_SYMBOLS_PER_PRICES_CALL} (one `prices` or `stocks` request each). */
export function chunked(symbols: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < symbols.length; i += MAX_SYMBOLS_PER_PRICES_CALL) {
    chunks.push(symbols.slice(i, i + MAX_SYMBOLS_PER_PRICES_CALL));
  }
  return chunks;
}
