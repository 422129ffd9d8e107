import type { DateTime } from 'luxon';
import type { BrokerageCounters } from '../brokerage/state-file.js';

/**
 * What the HTTP layer needs from the simulated market: the endpoint payload
 * methods of `SimMarket`. Each validates its raw query and returns the
 * JSON-ready `result`, or throws `SimApiError`.
 */
export interface MarketEndpoints {
  orderbook(query: URLSearchParams): unknown;
  prices(query: URLSearchParams): unknown;
  trades(query: URLSearchParams): unknown;
  priceLimits(query: URLSearchParams): unknown;
  candles(query: URLSearchParams): unknown;
  stocks(query: URLSearchParams): unknown;
  warnings(symbol: string): unknown;
  exchangeRate(query: URLSearchParams): unknown;
  krCalendar(query: URLSearchParams): unknown;
  usCalendar(query: URLSearchParams): unknown;
}

/** Options of a brokerage operation that the server's faults can set. */
export interface OperationOptions {
  /** Keep the request in progress this long (real milliseconds). */
  processingDelayMs?: number;
}

/** What the HTTP layer needs from the simulated brokerage (the endpoint methods of `Brokerage`). */
export interface BrokerageEndpoints {
  accounts(): unknown;
  requireAccount(header: string | undefined): number;
  holdings(accountSeq: number, query: URLSearchParams): unknown;
  buyingPower(accountSeq: number, query: URLSearchParams): unknown;
  sellableQuantity(accountSeq: number, query: URLSearchParams): unknown;
  commissions(accountSeq: number): unknown;
  createOrder(accountSeq: number, body: unknown, options?: OperationOptions): Promise<unknown>;
  modifyOrder(
    accountSeq: number,
    orderId: string,
    body: unknown,
    options?: OperationOptions,
  ): Promise<unknown>;
  cancelOrder(
    accountSeq: number,
    orderId: string,
    body: unknown,
    options?: OperationOptions,
  ): Promise<unknown>;
  listOrders(accountSeq: number, query: URLSearchParams): unknown;
  orderDetail(accountSeq: number, orderId: string): unknown;
  advanceTo(now: DateTime): void;
  hideNewOrdersFor(ms: number): void;
  counters(): BrokerageCounters;
}
