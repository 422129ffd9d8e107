/**
 * Markets and their currencies.
 *
 * @module
 */

import { Currency } from '../decimal/money.js';
import { ValidationError } from '../errors.js';

/** The two markets the broker trades: domestic Korea and the United States. */
export const Market = { KR: 'KR', US: 'US' } as const;
/** `KR` or `US`. */
export type Market = (typeof Market)[keyof typeof Market];

/**
 * Checks that a value is a known {@link Market}.
 *
 * @param value - any value
 */
export function isMarket(value: unknown): value is Market {
  return value === Market.KR || value === Market.US;
}

/**
 * The trading currency of a market.
 *
 * @param market - `KR` or `US`
 * @returns `KRW` for KR, `USD` for US
 */
export function currencyOf(market: Market): Currency {
  switch (market) {
    case Market.KR:
      return Currency.KRW;
    case Market.US:
      return Currency.USD;
    default:
      throw new ValidationError('market', `expected KR or US, found ${String(market satisfies never)}`);
  }
}

/** KR codes: 6 characters, the first a digit (`005930`, `0088M0`). */
const KR_SYMBOL = /^\d[0-9A-Z]{5}$/;

/**
 * Infers the market of a symbol: 6-character codes starting with a digit are KR, anything else US.
 *
 * @param symbol - e.g. `005930`, `AAPL`, `BRK.B`
 * @throws {@link ValidationError} for an empty symbol
 */
export function marketOfSymbol(symbol: string): Market {
  if (typeof symbol !== 'string' || symbol.length === 0) {
    throw new ValidationError('symbol', `expected a non-empty symbol, found ${JSON.stringify(symbol)}`);
  }
  return KR_SYMBOL.test(symbol) ? Market.KR : Market.US;
}
