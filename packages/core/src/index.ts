/**
 * `@hoga/core`: the hoga domain model (errors, decimals, money, instruments, ticks, time, clocks,
 * sessions, orders) and the contracts shared between packages.
 *
 * @packageDocumentation
 */

export { type CachedToken, type TokenCache, tokenCacheKey } from './auth/token-cache.js';
export {
  BROKER_ERROR_CODES,
  BROKER_ERRORS,
  type BrokerErrorCode,
  type BrokerErrorSpec,
  brokerErrorStatus,
  isBrokerErrorCode,
} from './broker/broker-error-codes.js';
// Broker rules shared by the simulator and the connector
export {
  BrokerOrderStatus,
  type KnownBrokerOrderStatus,
  OPEN_BROKER_ORDER_STATUSES,
  TERMINAL_BROKER_ORDER_STATUSES,
} from './broker/broker-order-status.js';
export {
  ACCEPTED,
  type BrokerAcceptance,
  type BrokerRefusal,
  type BrokerVerdict,
  firstRefusal,
  invalidRequest,
  refuse,
} from './broker/broker-verdict.js';
export {
  AMOUNT_ORDER_CUTOFF_MS,
  CLOSE_ORDER_FREEZE_MS,
  HIGH_VALUE_ORDER_KRW,
  KR_PRICE_LIMIT_RATE,
  MAX_FRACTIONAL_DECIMALS,
  MAX_ORDER_AMOUNT_DECIMALS,
  MAX_ORDER_AMOUNT_KRW,
  MIN_ORDER_AMOUNT_USD,
} from './broker/order-limits.js';
export {
  checkOrderForm,
  checkOrderShape,
  checkPricePositive,
  checkPricePresence,
  type OrderShape,
} from './broker/order-shape.js';
export { type GroupLimit, RATE_LIMITS, RateLimitGroup, rateLimitAt } from './broker/rate-limits.js';
export {
  Decimal,
  decimalOfNumber,
  exactIntOf,
  formatDecimal,
  parseDecimal,
  parseNullableDecimal,
  timesExact,
} from './decimal/decimal.js';
export { Currency, CurrencyMismatchError, isCurrency, Money } from './decimal/money.js';
export {
  DecimalParseError,
  describeValue,
  HogaError,
  type HogaErrorOptions,
  IllegalTransitionError,
  ValidationError,
} from './errors.js';
export { type Instrument, instrumentOf, SecurityType } from './instruments/instrument.js';
export { currencyOf, isMarket, Market, marketOfSymbol } from './instruments/market.js';
export { isOnTick, krTickSizeOfNumber, roundToTick, tickSize } from './instruments/tick-size.js';
export {
  type KoreanMarketDetailFields,
  PLAIN_TRADING_FLAGS,
  StockWarningType,
  type TradableInstrument,
  type TradingFlags,
  tradingFlagsOf,
} from './instruments/trading-flags.js';
export { type CreateLoggerOptions, createLogger, type Logger, REDACTED_PATHS } from './logging/logger.js';
export { type Bar, BarInterval, isBarInterval } from './market-data/bar.js';
export {
  barCloseTime,
  barOpenTime,
  MINUTE_CANDLE_HISTORY_START,
  regularCloseOfDailyStamp,
  regularOpenOfDailyStamp,
} from './market-data/bar-time.js';
export { TRADING_MODES, TradingMode } from './modes/trading-mode.js';
export type { Fill } from './orders/fill.js';
export {
  type Brand,
  type BrokerOrderId,
  brokerOrderId,
  type ClientOrderId,
  clientOrderId,
  newClientOrderId,
  newEventId,
  type StrategyId,
  strategyId,
} from './orders/ids.js';
export type {
  OrderAccepted,
  OrderCanceled,
  OrderCancelRejected,
  OrderCancelRequested,
  OrderDenied,
  OrderEvent,
  OrderEventBase,
  OrderEventOf,
  OrderExpired,
  OrderFilled,
  OrderModified,
  OrderModifyRejected,
  OrderModifyRequested,
  OrderPartiallyFilled,
  OrderRejected,
  OrderSubmitted,
} from './orders/order-events.js';
export { isOrderEvent } from './orders/order-events.js';
export {
  type AmountOrderIntent,
  createOrderIntent,
  type JudgedOrderIntent,
  judgeOrderIntent,
  type LimitOrderIntent,
  type MarketOrderIntent,
  type OrderIntent,
  type OrderIntentInput,
} from './orders/order-intent.js';
export {
  canTransition,
  isOpenOrderState,
  isTerminalOrderState,
  ORDER_EVENT_TYPES,
  ORDER_STATES,
  ORDER_TRANSITIONS,
  OrderEventType,
  OrderState,
  RESUME,
  TERMINAL_ORDER_STATES,
  type TransitionContext,
  type TransitionTarget,
  transitionOrder,
} from './orders/order-state.js';
export {
  isOrderSide,
  isOrderType,
  isTimeInForce,
  OrderSide,
  OrderSizing,
  OrderType,
  TimeInForce,
} from './orders/order-types.js';
export { parseKrMarketCalendar, parseUsMarketCalendar } from './sessions/calendar-parse.js';
export {
  CALENDAR_DAY_KEYS,
  type KrCalendarDay,
  type KrIntegratedHours,
  type KrMarketCalendar,
  type MarketCalendar,
  type MarketSession,
  SessionName,
  type UsCalendarDay,
  type UsMarketCalendar,
} from './sessions/calendar-types.js';
export {
  type CalendarSession,
  calendarSessions,
  isMarketOpen,
  isTradingDay,
  nextClose,
  nextOpen,
  type SessionBoundary,
  type SessionFilter,
  sessionAt,
} from './sessions/sessions.js';
export {
  isUsEarlyClose,
  KRX_SPECIAL_HOURS,
  type KrxSpecialHours,
  krxSpecialHours,
  NYSE_EARLY_CLOSES,
} from './sessions/special-hours.js';
export { counted } from './text/counted.js';
export {
  firstSchemaIssue,
  NO_SUCH_FIELD,
  type SchemaIssue,
  type SchemaIssueLike,
  schemaIssueLine,
  schemaIssues,
  schemaIssueText,
} from './text/schema-issues.js';
export { dailyCandleStamp, isPeakWindow, minuteCandleEnd, usTradingDate } from './time/candle-time.js';
export {
  type Clock,
  type InstantInput,
  LiveClock,
  ScaledClock,
  type ScaledClockOptions,
  VirtualClock,
} from './time/clock.js';
export { formatKst, KST_ZONE, NEW_YORK_ZONE, parseDate, parseDateTime, toKst } from './time/zones.js';
