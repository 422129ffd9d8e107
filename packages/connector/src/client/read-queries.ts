/**
 * The query strings of the client's read endpoints: the option types callers pass, and the pure
 * step that checks them (ranges, symbols, the candle interval) and writes the wire query, so a bad
 * argument fails with an {@link InvalidArgumentError} before any request is sent.
 *
 * @module
 */
import { InvalidArgumentError } from '../errors.js';
import type { CandleInterval } from '../schemas/market-data.js';
import { checkSymbol } from './order-bodies.js';

/** Options of {@link BrokerClient.getCandles}. */
export interface CandleQuery {
  readonly interval: CandleInterval;
  /** 1 to 200 (default 100). */
  readonly count?: number;
  /** Exclusive upper bound: the `nextBefore` of the previous page, or any date-time. */
  readonly before?: string;
  /** Corporate-action adjustment (default true). */
  readonly adjusted?: boolean;
}

/** Options of {@link BrokerClient.listOrders}. */
export interface OrderListQuery {
  readonly status: 'OPEN' | 'CLOSED';
  readonly cursor?: string;
  readonly symbol?: string;
  /** `YYYY-MM-DD` (KST, on `orderedAt`). */
  readonly from?: string;
  readonly to?: string;
  /** CLOSED only, at most 100. */
  readonly limit?: number;
}

/** Options of {@link BrokerClient.getExchangeRate}. */
export interface ExchangeRateQuery {
  readonly baseCurrency?: string;
  readonly quoteCurrency?: string;
  readonly dateTime?: string;
}

function range(field: string, value: number | undefined, min: number, max: number): number | undefined {
  if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) {
    throw new InvalidArgumentError(field, `expected an integer from ${min} to ${max}, found ${value}`);
  }
  return value;
}

/**
 * The query of `GET /api/v1/trades` (count 1 to 50).
 *
 * @param symbol - the symbol to read
 * @param query - how many trades
 */
export function tradesQuery(symbol: string, query: { readonly count?: number }) {
  return { symbol: checkSymbol(symbol), count: range('count', query.count, 1, 50) };
}

/**
 * The query of `GET /api/v1/candles` (interval `1m` or `1d`, count 1 to 200).
 *
 * @param symbol - the symbol to read
 * @param query - interval, page size and bounds
 */
export function candlesQuery(symbol: string, query: CandleQuery) {
  if (query.interval !== '1m' && query.interval !== '1d') {
    throw new InvalidArgumentError(
      'interval',
      `expected "1m" or "1d", found ${JSON.stringify(query.interval)}`,
    );
  }
  return {
    symbol: checkSymbol(symbol),
    interval: query.interval,
    count: range('count', query.count, 1, 200),
    before: query.before,
    adjusted: query.adjusted,
  };
}

/**
 * The query of `GET /api/v1/exchange-rate` (default USD to KRW).
 *
 * @param query - currencies and time
 */
export function exchangeRateQuery(query: ExchangeRateQuery) {
  return {
    baseCurrency: query.baseCurrency ?? 'USD',
    quoteCurrency: query.quoteCurrency ?? 'KRW',
    dateTime: query.dateTime,
  };
}

/**
 * The query of `GET /api/v1/holdings` (all holdings, or one symbol's).
 *
 * @param query - an optional symbol
 */
export function holdingsQuery(query: { readonly symbol?: string }) {
  return { symbol: query.symbol === undefined ? undefined : checkSymbol(query.symbol) };
}

/**
 * The query of `GET /api/v1/orders` (limit 1 to 100).
 *
 * @param query - status, cursor, filters and page size
 */
export function orderListQuery(query: OrderListQuery) {
  return { ...query, limit: range('limit', query.limit, 1, 100) };
}
