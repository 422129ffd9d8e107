import { RateLimitGroup } from '@hoga/core';
import { SimApiError } from '../api-error.js';
import type { TokenAuthority } from './auth.js';
import type { BrokerageEndpoints, MarketEndpoints } from './backends.js';
import { type ApiRoute, AuthMode, type RequestContext } from './request-context.js';
import { handleTokenRequest } from './token-endpoint.js';

/** What the routes dispatch to. */
export interface RouteBackends {
  readonly market: MarketEndpoints;
  readonly brokerage: BrokerageEndpoints;
  readonly tokens: TokenAuthority;
}

function account(context: RequestContext): number {
  if (context.accountSeq === null) throw new Error('account route ran without an account');
  return context.accountSeq;
}

function param(context: RequestContext, name: string): string {
  const value = context.params[name];
  if (value === undefined) throw new Error(`route parameter ${name} missing`);
  return value;
}

/** Every endpoint of the spec: method, path, rate-limit group, credentials, and the backend call. */
export function apiRoutes({ market, brokerage, tokens }: RouteBackends): ApiRoute[] {
  const { TOKEN, ACCOUNT } = AuthMode;
  const G = RateLimitGroup;
  return [
    {
      method: 'POST',
      pattern: '/oauth2/token',
      group: G.AUTH,
      auth: AuthMode.NONE,
      body: 'form',
      raw: true,
      handle: (c) => handleTokenRequest(c.body instanceof URLSearchParams ? c.body : null, tokens),
    },
    ...(
      [
        ['/api/v1/orderbook', G.MARKET_DATA, (q) => market.orderbook(q)],
        ['/api/v1/prices', G.MARKET_DATA, (q) => market.prices(q)],
        ['/api/v1/trades', G.MARKET_DATA, (q) => market.trades(q)],
        ['/api/v1/price-limits', G.MARKET_DATA, (q) => market.priceLimits(q)],
        ['/api/v1/candles', G.MARKET_DATA_CHART, (q) => market.candles(q)],
        ['/api/v1/stocks', G.STOCK, (q) => market.stocks(q)],
        ['/api/v1/exchange-rate', G.MARKET_INFO, (q) => market.exchangeRate(q)],
        ['/api/v1/market-calendar/KR', G.MARKET_INFO, (q) => market.krCalendar(q)],
        ['/api/v1/market-calendar/US', G.MARKET_INFO, (q) => market.usCalendar(q)],
      ] as const satisfies readonly (readonly [string, RateLimitGroup, (q: URLSearchParams) => unknown])[]
    ).map(
      ([pattern, group, call]): ApiRoute => ({
        method: 'GET',
        pattern,
        group,
        auth: TOKEN,
        body: 'none',
        handle: (c) => call(c.query),
        ...(pattern === '/api/v1/prices' ? { immutableItems: true } : {}),
      }),
    ),
    {
      method: 'GET',
      pattern: '/api/v1/stocks/{symbol}/warnings',
      group: G.STOCK,
      auth: TOKEN,
      body: 'none',
      handle: (c) => market.warnings(param(c, 'symbol')),
    },
    {
      method: 'GET',
      pattern: '/api/v1/accounts',
      group: G.ACCOUNT,
      auth: TOKEN,
      body: 'none',
      handle: () => brokerage.accounts(),
    },
    {
      method: 'GET',
      pattern: '/api/v1/holdings',
      group: G.ASSET,
      auth: ACCOUNT,
      body: 'none',
      handle: (c) => brokerage.holdings(account(c), c.query),
    },
    {
      method: 'POST',
      pattern: '/api/v1/orders',
      group: G.ORDER,
      auth: ACCOUNT,
      body: 'json',
      handle: (c) => brokerage.createOrder(account(c), c.body, c.operation),
    },
    {
      method: 'POST',
      pattern: '/api/v1/orders/{orderId}/modify',
      group: G.ORDER,
      auth: ACCOUNT,
      body: 'json',
      handle: (c) => brokerage.modifyOrder(account(c), param(c, 'orderId'), c.body, c.operation),
    },
    {
      method: 'POST',
      pattern: '/api/v1/orders/{orderId}/cancel',
      group: G.ORDER,
      auth: ACCOUNT,
      body: 'json',
      handle: (c) => brokerage.cancelOrder(account(c), param(c, 'orderId'), c.body, c.operation),
    },
    {
      method: 'GET',
      pattern: '/api/v1/orders',
      group: G.ORDER_HISTORY,
      auth: ACCOUNT,
      body: 'none',
      handle: (c) => brokerage.listOrders(account(c), c.query),
    },
    {
      method: 'GET',
      pattern: '/api/v1/orders/{orderId}',
      group: G.ORDER_HISTORY,
      auth: ACCOUNT,
      body: 'none',
      handle: (c) => brokerage.orderDetail(account(c), param(c, 'orderId')),
    },
    {
      method: 'GET',
      pattern: '/api/v1/buying-power',
      group: G.ORDER_INFO,
      auth: ACCOUNT,
      body: 'none',
      handle: (c) => brokerage.buyingPower(account(c), c.query),
    },
    {
      method: 'GET',
      pattern: '/api/v1/sellable-quantity',
      group: G.ORDER_INFO,
      auth: ACCOUNT,
      body: 'none',
      handle: (c) => brokerage.sellableQuantity(account(c), c.query),
    },
    {
      method: 'GET',
      pattern: '/api/v1/commissions',
      group: G.ORDER_INFO,
      auth: ACCOUNT,
      body: 'none',
      handle: (c) => brokerage.commissions(account(c)),
    },
  ];
}

/** The error for a path (or method) the API does not serve. */
export function unknownPathError(method: string, path: string): SimApiError {
  return new SimApiError(404, 'edge-blocked', `API path not supported: ${method} ${path}`);
}
