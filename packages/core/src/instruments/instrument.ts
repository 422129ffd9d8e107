/**
 * Tradable instruments.
 *
 * @module
 */
import type { Currency } from '../decimal/money.js';
import { currencyOf, type Market, marketOfSymbol } from './market.js';

/** Known security types. The broker may send others; {@link SecurityType} tolerates them. */
export const SecurityType = { STOCK: 'STOCK', ETF: 'ETF', ETN: 'ETN' } as const;
/** `STOCK`, `ETF`, `ETN`, or any other string the broker sends. */
export type SecurityType = (typeof SecurityType)[keyof typeof SecurityType] | (string & {});

/** A tradable instrument. */
export interface Instrument {
  /** Ticker (`AAPL`) or KR code (`005930`). */
  readonly symbol: string;
  /** Market it trades on. */
  readonly market: Market;
  /** Currency of its prices. */
  readonly currency: Currency;
  /** Security type; ETF/ETN change the KR tick table. */
  readonly securityType: SecurityType;
  /** Display name, if known. */
  readonly name?: string;
}

/**
 * Builds an instrument from a symbol, inferring market and currency.
 *
 * @param symbol - ticker or KR code
 * @param securityType - defaults to `STOCK`
 * @param name - optional display name
 */
export function instrumentOf(
  symbol: string,
  securityType: SecurityType = SecurityType.STOCK,
  name?: string,
): Instrument {
  const market = marketOfSymbol(symbol);
  const base = { symbol, market, currency: currencyOf(market), securityType };
  return name === undefined ? base : { ...base, name };
}
