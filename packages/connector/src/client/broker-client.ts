/**
 * `BrokerClient`: one typed method per endpoint of the broker's Open API (21 in all), returning
 * core domain values. Rate limits, the shared token, retries and validation happen inside.
 *
 * @module
 */

import { inspect } from 'node:util';
import {
  type CachedToken,
  type Clock,
  LiveClock,
  type Logger,
  RateLimitGroup,
  type TokenCache,
  tokenCacheKey,
} from '@hoga/core';
import { asyncScheduler, type Observable, type SchedulerLike, Subject } from 'rxjs';
import { z } from 'zod';
import { type ConnectorConfig, type ConnectorConfigInput, parseConnectorConfig } from '../config.js';
import { InvalidArgumentError } from '../errors.js';
import { HttpTransport } from '../http/http-transport.js';
import type { RateShare } from '../rate-limit/process-rate-share.js';
import { RequestPriority } from '../rate-limit/rate-limit-groups.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { Account, BuyingPower, Commission, Holdings, SellableQuantity } from '../schemas/account.js';
import type { CandlePage, Orderbook, Price, PriceLimit, Trade } from '../schemas/market-data.js';
import type { OrderList, OrderRecord } from '../schemas/orders.js';
import { envelope } from '../schemas/primitives.js';
import type {
  ExchangeRate,
  KrMarketCalendarResult,
  StockInfo,
  StockWarning,
  UsMarketCalendarResult,
} from '../schemas/reference-data.js';
import { MemoryTokenCache } from '../token/memory-token-cache.js';
import { TokenManager } from '../token/token-manager.js';
import { AccountResolver } from './account-resolver.js';
import { checkSymbol, joinSymbols } from './order-bodies.js';
import { type OrderCommandNotice, OrderOperations } from './order-operations.js';
import {
  READ_ENDPOINTS,
  type ReadEndpoint,
  type ReadEndpointName,
  type ReadResult,
} from './read-endpoints.js';
import {
  type CandleQuery,
  candlesQuery,
  type ExchangeRateQuery,
  exchangeRateQuery,
  holdingsQuery,
  type OrderListQuery,
  orderListQuery,
  tradesQuery,
} from './read-queries.js';
import { type CallOptions, type CallSpec, type Query, RequestExecutor } from './request-executor.js';
import { RetryMode } from './retry-policy.js';

export type { CandleQuery, OrderListQuery } from './read-queries.js';

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
});

/** How to build a {@link BrokerClient}. */
export interface BrokerClientOptions {
  /** Connection settings, validated with zod (see `ConnectorConfigSchema`). */
  readonly config: ConnectorConfigInput | ConnectorConfig;
  /** Domain clock (token expiry, peak windows, clientOrderId windows); default `LiveClock`. */
  readonly clock?: Clock;
  /** Timers (rate-limit waits, back-off); default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** Shared token cache; default in-memory (use a file or SQLite cache to share across processes). */
  readonly tokenCache?: TokenCache;
  /** Rate limiter to share between clients of one broker client id; default a new one. */
  readonly limiter?: RateLimiter;
  /**
   * This process's share of the client's rate limits among the client's processes
   * (`ProcessRateShare`), for the limiter this client makes (not a given `limiter`); closed with
   * the client. Default: none, the whole limits.
   */
  readonly rateShare?: RateShare;
  /** Logger for retries, 429s and token refreshes (a child `{component: 'connector'}` is used). */
  readonly logger?: Logger;
}

/** The typed client; see the module description. */
export class BrokerClient {
  /** Validated configuration. */
  readonly config: ConnectorConfig;
  /** Domain clock. */
  readonly clock: Clock;
  /** Timer scheduler. */
  readonly scheduler: SchedulerLike;
  /** Per-group limits shared by every call of this client. */
  readonly limiter: RateLimiter;
  /** The shared access token. */
  readonly tokens: TokenManager;
  /** Low-level call machinery (exposed for figures: `executor.stats`). */
  readonly executor: RequestExecutor;
  private readonly transport: HttpTransport;
  private readonly orders: OrderOperations;
  private readonly commands = new Subject<OrderCommandNotice>();
  private readonly accounts: AccountResolver;
  private readonly ownsLimiter: boolean;
  private readonly rateShare: RateShare | undefined;

  /** Orders created, modified or cancelled through this client, as the broker acknowledged them. */
  readonly orderCommands$: Observable<OrderCommandNotice> = this.commands.asObservable();

  /**
   * What `util.inspect` (`console.log`, `console.dir` of a strategy, an engine, anything that
   * holds the client) shows: the broker and the client id. The configuration, the token manager
   * and the caches under them hold the client secret and the access token.
   */
  [inspect.custom](): string {
    return `BrokerClient { baseUrl: '${this.config.baseUrl}', clientId: '${this.config.clientId}' }`;
  }

  /** What `JSON.stringify` writes of the client: as {@link BrokerClient.[inspect.custom]}, the broker and the client id. */
  toJSON(): { readonly baseUrl: string; readonly clientId: string } {
    return { baseUrl: this.config.baseUrl, clientId: this.config.clientId };
  }

  /** @param options - configuration and injected collaborators */
  constructor(options: BrokerClientOptions) {
    this.config = parseConnectorConfig(options.config);
    this.transport = new HttpTransport(16, this.config.idleSocketMs);
    this.clock = options.clock ?? new LiveClock();
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.ownsLimiter = options.limiter === undefined;
    const logger = options.logger?.child({ component: 'connector' });
    this.limiter =
      options.limiter ??
      new RateLimiter({
        clock: this.clock,
        scheduler: this.scheduler,
        utilization: this.config.rateLimitUtilization,
        ...(options.rateShare === undefined ? {} : { share: options.rateShare }),
      });
    this.rateShare = options.limiter === undefined ? options.rateShare : undefined;
    this.executor = new RequestExecutor({
      config: this.config,
      transport: this.transport,
      limiter: this.limiter,
      clock: this.clock,
      scheduler: this.scheduler,
      accountSeq: (signal) => this.accountSeq(signal),
      accountRefused: (accountSeq) => this.accounts.refusedAccount(accountSeq),
      logger,
    });
    this.tokens = new TokenManager({
      key: tokenCacheKey(this.config.baseUrl, this.config.clientId),
      cache: options.tokenCache ?? new MemoryTokenCache(),
      issue: (signal) => this.issueToken({ signal }),
      credentials: { clientId: this.config.clientId, clientSecret: this.config.clientSecret },
      clock: this.clock,
      renewBeforeMs: this.config.tokenRenewBeforeMs,
      lockTtlMs: this.config.tokenLockTtlMs,
    });
    this.executor.attachTokens(this.tokens);
    this.accounts = new AccountResolver({
      configured: this.config.accountSeq,
      tokens: this.tokens,
      listAccounts: async (signal) => (await this.getAccounts({ signal })).map((a) => a.accountSeq),
      logger,
    });
    this.orders = new OrderOperations(
      this.executor,
      this.clock,
      this.config,
      (id, o) => this.getOrder(id, o),
      (n) => this.commands.next(n),
    );
  }

  private call<T>(
    spec: Omit<CallSpec<T>, 'auth' | 'priority' | 'retry'> & Partial<CallSpec<T>>,
    options?: CallOptions,
  ) {
    return this.executor.execute<T>(
      { auth: true, priority: RequestPriority.NORMAL, retry: RetryMode.IDEMPOTENT, ...spec },
      options,
    );
  }

  private async get<K extends ReadEndpointName>(
    name: K,
    query: Query | undefined,
    options: CallOptions | undefined,
    path: string = READ_ENDPOINTS[name].path,
  ): Promise<ReadResult<K>> {
    const endpoint = READ_ENDPOINTS[name] as ReadEndpoint<ReadResult<K>>;
    const body = await this.call(
      {
        endpoint: name,
        group: endpoint.group,
        method: 'GET',
        path,
        account: endpoint.account,
        schema: envelope(endpoint.result),
        ...(query ? { query } : {}),
      },
      options,
    );
    return body.result;
  }

  /**
   * The account header value: the configured `accountSeq`, else the account remembered beside the
   * shared token, else the first account of the list (see {@link AccountResolver}).
   *
   * @param signal - aborts the lookup
   */
  accountSeq(signal?: AbortSignal): Promise<number> {
    return this.accounts.accountSeq(signal);
  }

  /** `POST /oauth2/token` (group AUTH): issues a new token. Prefer `tokens.token()`, which shares one. */
  async issueToken(options?: CallOptions): Promise<CachedToken> {
    const issuedAt = this.clock.nowMs();
    const body = await this.call(
      {
        endpoint: 'issueToken',
        group: RateLimitGroup.AUTH,
        method: 'POST',
        path: '/oauth2/token',
        form: {
          grant_type: 'client_credentials',
          client_id: this.config.clientId,
          client_secret: this.config.clientSecret,
        },
        auth: false,
        account: false,
        schema: TokenResponseSchema,
        secretBody: true,
      },
      options,
    );
    return {
      accessToken: body.access_token,
      tokenType: body.token_type,
      issuedAt,
      expiresAt: issuedAt + body.expires_in * 1000,
    };
  }

  /** `GET /api/v1/orderbook` (MARKET_DATA): asks lowest first, bids highest first. */
  async getOrderbook(symbol: string, options?: CallOptions): Promise<Orderbook> {
    const query = { symbol: checkSymbol(symbol) };
    return this.get('getOrderbook', query, options);
  }

  /** `GET /api/v1/prices` (MARKET_DATA): last prices of 1 to 200 symbols. */
  async getPrices(symbols: readonly string[], options?: CallOptions): Promise<readonly Price[]> {
    const query = { symbols: joinSymbols(symbols) };
    return this.get('getPrices', query, options);
  }

  /** `GET /api/v1/trades` (MARKET_DATA): today's most recent trades, newest first (count 1 to 50). */
  async getTrades(
    symbol: string,
    query: { readonly count?: number } = {},
    options?: CallOptions,
  ): Promise<readonly Trade[]> {
    return this.get('getTrades', tradesQuery(symbol, query), options);
  }

  /** `GET /api/v1/price-limits` (MARKET_DATA): daily limits, null for US stocks. */
  async getPriceLimits(symbol: string, options?: CallOptions): Promise<PriceLimit> {
    const query = { symbol: checkSymbol(symbol) };
    return this.get('getPriceLimits', query, options);
  }

  /** `GET /api/v1/candles` (MARKET_DATA_CHART): one page, newest first. See `candlePages` for ranges. */
  async getCandles(symbol: string, query: CandleQuery, options?: CallOptions): Promise<CandlePage> {
    return this.get('getCandles', candlesQuery(symbol, query), options);
  }

  /** `GET /api/v1/stocks` (STOCK): reference data of 1 to 200 symbols. Cache it; it changes daily. */
  async getStocks(symbols: readonly string[], options?: CallOptions): Promise<readonly StockInfo[]> {
    const query = { symbols: joinSymbols(symbols) };
    return this.get('getStocks', query, options);
  }

  /** `GET /api/v1/stocks/{symbol}/warnings` (STOCK): active purchase warnings. */
  async getStockWarnings(symbol: string, options?: CallOptions): Promise<readonly StockWarning[]> {
    const path = `/api/v1/stocks/${encodeURIComponent(checkSymbol(symbol))}/warnings`;
    return this.get('getStockWarnings', undefined, options, path);
  }

  /** `GET /api/v1/exchange-rate` (MARKET_INFO): the display rate valid now or at `dateTime`. */
  async getExchangeRate(query: ExchangeRateQuery = {}, options?: CallOptions): Promise<ExchangeRate> {
    return this.get('getExchangeRate', exchangeRateQuery(query), options);
  }

  /** `GET /api/v1/market-calendar/KR` (MARKET_INFO): previous, current and next business day. */
  async getKrMarketCalendar(date?: string, options?: CallOptions): Promise<KrMarketCalendarResult> {
    return this.get('getKrMarketCalendar', { date }, options);
  }

  /** `GET /api/v1/market-calendar/US` (MARKET_INFO): `date` is a US local date. */
  async getUsMarketCalendar(date?: string, options?: CallOptions): Promise<UsMarketCalendarResult> {
    return this.get('getUsMarketCalendar', { date }, options);
  }

  /** `GET /api/v1/accounts` (ACCOUNT): the client's accounts in normal state. */
  async getAccounts(options?: CallOptions): Promise<readonly Account[]> {
    return this.get('getAccounts', undefined, options);
  }

  /** `GET /api/v1/holdings` (ASSET): holdings and the combined summary. */
  async getHoldings(query: { readonly symbol?: string } = {}, options?: CallOptions): Promise<Holdings> {
    return this.get('getHoldings', holdingsQuery(query), options);
  }

  /**
   * `POST /api/v1/orders` (ORDER). With a `clientOrderId` the same request is repeated on
   * transient failures and 409 `request-in-progress` inside the 10-minute window; without one
   * only a 429 is repeated.
   */
  createOrder(...args: Parameters<OrderOperations['create']>): ReturnType<OrderOperations['create']> {
    return this.orders.create(...args);
  }

  /**
   * Creates, modifies and cancels sent through this client and not answered yet, oldest first
   * (the broker may already list the orders they made; `orderUpdates$` waits for them).
   */
  orderCommandsInFlight(): ReturnType<OrderOperations['commandsInFlight']> {
    return this.orders.commandsInFlight();
  }

  /** `POST /api/v1/orders/{orderId}/modify` (ORDER); on an unclear failure the order is read first. */
  modifyOrder(...args: Parameters<OrderOperations['modify']>): ReturnType<OrderOperations['modify']> {
    return this.orders.modify(...args);
  }

  /** `POST /api/v1/orders/{orderId}/cancel` (ORDER); on an unclear failure the order is read first. */
  cancelOrder(...args: Parameters<OrderOperations['cancel']>): ReturnType<OrderOperations['cancel']> {
    return this.orders.cancel(...args);
  }

  /** `GET /api/v1/orders` (ORDER_HISTORY): OPEN (all) or CLOSED (a page; see `closedOrders`). */
  async listOrders(query: OrderListQuery, options?: CallOptions): Promise<OrderList> {
    return this.get('listOrders', orderListQuery(query), options);
  }

  /** `GET /api/v1/orders/{orderId}` (ORDER_HISTORY): an order in any state. */
  async getOrder(orderId: string, options?: CallOptions): Promise<OrderRecord> {
    if (orderId === '') throw new InvalidArgumentError('orderId', 'expected a non-empty order id');
    const path = `/api/v1/orders/${encodeURIComponent(orderId)}`;
    return this.get('getOrder', undefined, options, path);
  }

  /** `GET /api/v1/buying-power` (ORDER_INFO): cash buying power in `KRW` or `USD`. */
  async getBuyingPower(currency: 'KRW' | 'USD', options?: CallOptions): Promise<BuyingPower> {
    return this.get('getBuyingPower', { currency }, options);
  }

  /** `GET /api/v1/sellable-quantity` (ORDER_INFO). */
  async getSellableQuantity(symbol: string, options?: CallOptions): Promise<SellableQuantity> {
    const query = { symbol: checkSymbol(symbol) };
    return this.get('getSellableQuantity', query, options);
  }

  /** `GET /api/v1/commissions` (ORDER_INFO): rate per market, a decimal fraction of the amount. */
  async getCommissions(options?: CallOptions): Promise<readonly Commission[]> {
    return this.get('getCommissions', undefined, options);
  }

  /** Stops timers and closes keep-alive sockets; calls in flight are not repeated after a failure. */
  close(): void {
    this.executor.close();
    if (this.ownsLimiter) this.limiter.dispose();
    this.rateShare?.close();
    this.transport.close();
    this.commands.complete();
  }
}
