/**
 * The broker's read endpoints as data: name, rate-limit group, path, whether the account header
 * is sent, and the schema of the `result` payload.
 *
 * @module
 */

import { RateLimitGroup } from '@hoga/core';
import { z } from 'zod';
import {
  AccountSchema,
  BuyingPowerSchema,
  CommissionSchema,
  HoldingsSchema,
  SellableQuantitySchema,
} from '../schemas/account.js';
import {
  CandlePageSchema,
  OrderbookSchema,
  PriceLimitSchema,
  PriceSchema,
  TradeSchema,
} from '../schemas/market-data.js';
import { OrderListSchema, OrderRecordSchema } from '../schemas/orders.js';
import {
  ExchangeRateSchema,
  KrMarketCalendarSchema,
  StockInfoSchema,
  StockWarningSchema,
  UsMarketCalendarSchema,
} from '../schemas/reference-data.js';

/** One read endpoint. */
export interface ReadEndpoint<T> {
  readonly group: RateLimitGroup;
  /** Path, or the fixed part of it for paths with an id. */
  readonly path: string;
  /** Send the account header. */
  readonly account: boolean;
  /** Schema of the `result` payload. */
  readonly result: z.ZodType<T, unknown>;
}

const read = <T>(group: RateLimitGroup, path: string, account: boolean, result: z.ZodType<T, unknown>) =>
  ({ group, path, account, result }) satisfies ReadEndpoint<T>;

const G = RateLimitGroup;

/** Every GET endpoint of the spec, by the client method's name. */
export const READ_ENDPOINTS = {
  getOrderbook: read(G.MARKET_DATA, '/api/v1/orderbook', false, OrderbookSchema),
  getPrices: read(G.MARKET_DATA, '/api/v1/prices', false, z.array(PriceSchema)),
  getTrades: read(G.MARKET_DATA, '/api/v1/trades', false, z.array(TradeSchema)),
  getPriceLimits: read(G.MARKET_DATA, '/api/v1/price-limits', false, PriceLimitSchema),
  getCandles: read(G.MARKET_DATA_CHART, '/api/v1/candles', false, CandlePageSchema),
  getStocks: read(G.STOCK, '/api/v1/stocks', false, z.array(StockInfoSchema)),
  getStockWarnings: read(G.STOCK, '/api/v1/stocks/{symbol}/warnings', false, z.array(StockWarningSchema)),
  getExchangeRate: read(G.MARKET_INFO, '/api/v1/exchange-rate', false, ExchangeRateSchema),
  getKrMarketCalendar: read(G.MARKET_INFO, '/api/v1/market-calendar/KR', false, KrMarketCalendarSchema),
  getUsMarketCalendar: read(G.MARKET_INFO, '/api/v1/market-calendar/US', false, UsMarketCalendarSchema),
  getAccounts: read(G.ACCOUNT, '/api/v1/accounts', false, z.array(AccountSchema)),
  getHoldings: read(G.ASSET, '/api/v1/holdings', true, HoldingsSchema),
  listOrders: read(G.ORDER_HISTORY, '/api/v1/orders', true, OrderListSchema),
  getOrder: read(G.ORDER_HISTORY, '/api/v1/orders/{orderId}', true, OrderRecordSchema),
  getBuyingPower: read(G.ORDER_INFO, '/api/v1/buying-power', true, BuyingPowerSchema),
  getSellableQuantity: read(G.ORDER_INFO, '/api/v1/sellable-quantity', true, SellableQuantitySchema),
  getCommissions: read(G.ORDER_INFO, '/api/v1/commissions', true, z.array(CommissionSchema)),
} as const;

/** Name of a read endpoint. */
export type ReadEndpointName = keyof typeof READ_ENDPOINTS;
/** The parsed `result` of a read endpoint. */
export type ReadResult<K extends ReadEndpointName> = z.output<(typeof READ_ENDPOINTS)[K]['result']>;
