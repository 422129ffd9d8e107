/**
 * `@hoga/connector`: the only code that speaks HTTP to the broker. A typed client for all 21
 * endpoints, one shared token, per-group rate limits, retries, pagination and RxJS streams.
 *
 * @packageDocumentation
 */

export {
  BrokerClient,
  type BrokerClientOptions,
  type CandleQuery,
  type OrderListQuery,
} from './client/broker-client.js';
export type { OrderCommandInFlight } from './client/order-operations.js';
export {
  type OrderCommandNotice,
  type OrderOperationOutcome,
  OrderOperations,
} from './client/order-operations.js';
export { type CandleRange, candlePages, closedOrders } from './client/pagination.js';
export type { CallOptions, ExecutorStats } from './client/request-executor.js';
export { backoffDelay, isRetryable, RetryMode } from './client/retry-policy.js';
export {
  type ConnectorConfig,
  type ConnectorConfigInput,
  ConnectorConfigSchema,
  parseConnectorConfig,
} from './config.js';
export {
  AuthenticationError,
  BrokerApiError,
  type BrokerApiErrorInit,
  BusinessRuleError,
  ConflictError,
  ConnectorConfigError,
  ConnectorError,
  ErrorFamily,
  InvalidArgumentError,
  NetworkError,
  NetworkFailure,
  NotFoundError,
  RateLimitError,
  RequestValidationError,
  ResponseShapeError,
  ServerError,
} from './errors.js';
export { errorFromResponse, parseRetryAfter, requestIdOf } from './http/error-from-response.js';
export { type HttpRequest, type HttpResponse, HttpTransport } from './http/http-transport.js';
export {
  type CreateContent,
  DEFAULT_SEND_SKEW_MS,
  isOutcomeOf,
  type ModifyContent,
  outcomesOf,
  type PendingCommand,
  targetShowsApplied,
  targetShowsProcessing,
} from './orders/history-match.js';
export { isOlderReport, progressOf, type ReportProgress } from './orders/older-report.js';
export {
  ProcessRateShare,
  type ProcessRateShareOptions,
  type RateShare,
} from './rate-limit/process-rate-share.js';
export { RequestPriority } from './rate-limit/rate-limit-groups.js';
export { RateLimiter, type RateLimiterOptions, type RatePermit } from './rate-limit/rate-limiter.js';
export type {
  Account,
  BuyingPower,
  Commission,
  HoldingItem,
  Holdings,
  PerCurrencyAmount,
  SellableQuantity,
} from './schemas/account.js';
export { candleToBar } from './schemas/candle-bar.js';
export {
  type BookLevel,
  type Candle,
  CandleInterval,
  type CandlePage,
  type Orderbook,
  type Price,
  type PriceLimit,
  type Trade,
} from './schemas/market-data.js';
export type {
  AmountOrderRequest,
  CreateOrderRequest,
  CreateOrderResult,
  ModifyOrderRequest,
  OrderList,
  OrderOperationResult,
  OrderRecord,
  QuantityOrderRequest,
} from './schemas/orders.js';
export type { WithRaw } from './schemas/primitives.js';
export {
  type ExchangeRate,
  type KrMarketCalendarResult,
  KrMarketCalendarSchema,
  type MarketSession,
  type StockInfo,
  type StockWarning,
  type UsMarketCalendarResult,
  UsMarketCalendarSchema,
} from './schemas/reference-data.js';
export {
  BrokerStreams,
  type BrokerStreamsOptions,
  DEFAULT_STREAM_INTERVALS,
  type PolledOrderbook,
  type StreamIntervals,
  type TradeBatch,
} from './streams/broker-streams.js';
export { CANDLE_CLOCK_SLACK_MS, type CandleGap } from './streams/candle-page.js';
export { CandleTracker, type CandleUpdate, isCandleInProgress } from './streams/candle-tracker.js';
export { MarketHours } from './streams/market-hours.js';
export { endedAtDayEnd } from './streams/order-day-end.js';
export {
  type OrderListReader,
  type OrderSnapshotPoll,
  type OrderSnapshotQuery,
  orderSnapshots$,
  pollOrderSnapshots,
} from './streams/order-snapshots.js';
export {
  DEFAULT_ENDED_ORDER_RETAIN_MS,
  DEFAULT_ORDER_HOLD_MS,
  externalClientOrderId,
  OrderTracker,
  type OrderTrackerOptions,
} from './streams/order-tracker.js';
export { type OrderUpdatesOptions, orderUpdates } from './streams/order-updates.js';
export {
  type PollClock,
  type PollJobSpec,
  PollScheduler,
  type PollSchedulerOptions,
} from './streams/poll-scheduler.js';
export { diffTrades, type TradeDiff } from './streams/trade-dedup.js';
export {
  credentialFingerprint,
  fingerprintMatches,
  type TokenCredentials,
} from './token/credential-fingerprint.js';
export { FileTokenCache } from './token/file-token-cache.js';
export { MemoryTokenCache } from './token/memory-token-cache.js';
export { MirroredTokenCache } from './token/mirrored-token-cache.js';
export { type TokenIssuer, TokenManager, type TokenManagerOptions } from './token/token-manager.js';
