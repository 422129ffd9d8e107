/**
 * `@hoga/engine`: the strategy runtime, risk module, order manager and portfolio, and the three
 * modes (backtest, paper, live) as container modules that bind the same tokens to different classes.
 *
 * @packageDocumentation
 */

export { isOutcomeOf, outcomesOf, type PendingCommand } from '@hoga/connector';
// Strategy API, runtime, portfolio and backtests (issue 10)
export type { Bar, BarInterval, Fill, OrderEvent } from '@hoga/core';
export { z } from 'zod';
export { type BarStream, type LoopCounts, runBacktestLoop } from './backtest/backtest-loop.js';
export { type BacktestBindings, BacktestVenue, backtestModule } from './backtest/backtest-module.js';
export {
  type BacktestOptions,
  type BacktestOutcome,
  type BacktestTrade,
  runBacktest,
} from './backtest/run-backtest.js';
export {
  type CancelOrder,
  type ModifyOrder,
  modifyQuantity,
  type OrderCommand,
  type SubmitOrder,
} from './commands/order-commands.js';
export { EngineError, EngineErrorCode, StrategyHookError } from './engine-error.js';
export type { CancelOnStopResult } from './live/cancel-open-orders.js';
export { LiveVenue, type LiveVenueOptions } from './live/live-venue.js';
export { PAPER_STATE_ID } from './live/paper-account.js';
export { type RunLease, takeCommandLease } from './live/run-lease.js';
export { type LiveRunHandle, type LiveRunOptions, type LiveStatus, startLiveRun } from './live/run-live.js';
export {
  BarCursor,
  BarFeed,
  type BarSeries,
  columnsOf,
  PhasedBarStream,
  type RunStart,
  type StoreFeedRequest,
} from './market-data/bar-feed.js';
export {
  CandleDownloader,
  type CandleDownloaderOptions,
  type CandleDownloadTarget,
  completeBefore,
  type DownloadSummary,
  downloadTargets,
  priorCloseTargets,
} from './market-data/candle-downloader.js';
export {
  type DownloadProgress,
  downloadedShare,
  formatEta,
  type PageStored,
  plainProgress,
  progressLine,
  type RateBudgetWaiting,
  type SymbolCompleted,
  type SymbolStarted,
} from './market-data/download-progress.js';
export { priorDailyBars } from './market-data/prior-bars.js';
export { ReferencePrices, SymbolReference } from './market-data/reference-prices.js';
export { type StampRange, tradingDateRange } from './market-data/trading-dates.js';
export {
  type CumulativeExecution,
  cumulativeOf,
  type ExecutionDelta,
  executionDelta,
} from './orders/execution-delta.js';
export { OrderManager, type OrderManagerOptions, type ReconcileReport } from './orders/order-manager.js';
export { STORE_UNAVAILABLE } from './orders/order-manager-options.js';
export {
  CommandStatus,
  OrderManagerStore,
  type StoredCommand,
  type StoredExecution,
} from './orders/order-manager-store.js';
export type { OrderGateway, OrderManagerAlert } from './orders/order-requests.js';
export { AccountViewToken, LedgerAccountView } from './portfolio/account-view.js';
export { FixedFxRates, FxRates, LatestFxRates, SteppedFxRates } from './portfolio/fx-rates.js';
export { MarkBook } from './portfolio/mark-book.js';
export { type EquityPoint, Portfolio, StrategyPortfolio } from './portfolio/portfolio.js';
export { type CurrencyTotals, StrategyBook } from './portfolio/strategy-book.js';
// Risk module (issue 12)
export { AccountInfoProvider, type AccountInfoSource } from './risk/account-info-provider.js';
export { BrokerMarketView, type MarketViewAges, needsPrerequisite } from './risk/broker-market-view.js';
export {
  type BrokerRulesInput,
  checkBrokerRules,
  type FundsView,
  type MarketRulesView,
} from './risk/broker-rules-check.js';
export {
  checkDailyLoss,
  checkTradingState,
  dailyLossBreaches,
  isReducing,
} from './risk/guards/state-guards.js';
export {
  checkAllowedSymbol,
  checkMaxOpenOrders,
  checkMaxOrderValue,
  checkPositionValue,
  STRATEGY_GUARDS,
} from './risk/guards/strategy-guards.js';
export {
  checkAccountThrottle,
  checkCancelReplaceLoop,
  checkSymbolThrottle,
  THROTTLE_GUARDS,
  windowFull,
} from './risk/guards/throttle-guards.js';
export { type IntentFields, intentFields } from './risk/intent-fields.js';
export { type StoredCalendars, storedCalendarsOf } from './risk/market-calendars.js';
export type { MarketInfoSource } from './risk/market-info-source.js';
export { RiskBook, type RiskOrder, type RiskView } from './risk/risk-book.js';
export {
  DEFAULT_STRATEGY_LIMITS,
  limitsFor,
  parseRiskConfig,
  type RiskConfig,
  riskConfigSchema,
  type StrategyLimits,
  unmatchedStrategyLimits,
} from './risk/risk-config.js';
export { RiskEngine, type RiskEngineOptions } from './risk/risk-engine.js';
export { PassThroughRiskGate, RiskGate, type RiskVerdict } from './risk/risk-gate.js';
export {
  createRiskGateBinding,
  type RiskGateBinding,
  type RiskGateBindingOptions,
} from './risk/risk-gate-factory.js';
export {
  createRiskModule,
  type OrderSink,
  RiskedOrderSender,
  type RiskModule,
  type RiskModuleOptions,
} from './risk/risk-module.js';
export {
  type OpenOrderView,
  type OrderActionRecord,
  type PositionView as RiskPositionView,
  type RiskContext,
  type RiskGuard,
  type RiskScope,
  type RiskSubject,
  scopeKey,
  scopeOfKey,
  TradingState,
} from './risk/risk-types.js';
export { type IsTrading, StaleDataMonitor } from './risk/stale-data-monitor.js';
export {
  describeTradingState,
  type EffectiveStates,
  type ResetScope,
  TradingStateGateway,
} from './risk/trading-state-gateway.js';
export {
  MemoryTradingStatePersistence,
  RISK_STATE_OWNER,
  riskStateOwner,
  StoreTradingStatePersistence,
  type TradingStateChanged,
  type TradingStateEntry,
  type TradingStateEvent,
  type TradingStatePersistence,
  TradingStateSource,
  type TradingStateSourceChanged,
} from './risk/trading-state-persistence.js';
export {
  type LapsedTradingState,
  lapsedLineOf,
  statusLineOf,
  type TradingStatesView,
  viewTradingStates,
} from './risk/trading-state-view.js';
export { EngineRuntime, type StrategySpec, type Subscription } from './runtime/engine-runtime.js';
export { OrderIdFactory, RandomOrderIds, SequentialOrderIds } from './runtime/order-ids.js';
export { StrategyHost } from './runtime/strategy-host.js';
export { type PendingTimer, TimerQueue } from './runtime/timer-queue.js';
export { ClockToken, DatabaseToken, LoggerToken, RunSettings } from './runtime/tokens.js';
export {
  cagr,
  type EquitySample,
  maxDrawdown,
  resampleDaily,
  sessionDayKey,
  sharpeRatio,
  TRADING_DAYS_PER_YEAR,
  totalReturn,
  YEAR_MS,
} from './stats/equity-stats.js';
export { type PerformanceStats, performanceStats } from './stats/performance-stats.js';
export { type StrategyStats, strategyStats } from './stats/strategy-stats.js';
export {
  type RoundTrip,
  roundTrips,
  type TradeSample,
  type TradeStats,
  tradeStats,
} from './stats/trade-stats.js';
export { EventRecorder, JournalRecorder } from './store/event-recorder.js';
export { type OrderSummary, OrderSummaryRecorder } from './store/order-summary-recorder.js';
export {
  DatabaseStrategyStateStore,
  engineStateRefusal,
  StrategyStateStore,
} from './store/strategy-state-store.js';
export type { MarketTrade, OrderbookSnapshot, PriceTick, TimerFired } from './strategy/market-events.js';
export {
  type HookResult,
  isStrategyClass,
  Strategy,
  type StrategyClass,
  type StrategyHook,
} from './strategy/strategy.js';
export {
  type ConfigIssue,
  configIssueLines,
  parseStrategyConfig,
  StrategyConfigError,
} from './strategy/strategy-config.js';
export type {
  AccountHolding,
  AccountView,
  DecimalInput,
  OrderRequest,
  OrderView,
  PositionView,
  RegularSession,
  StrategyContext,
  StrategyState,
  TimerSpec,
  Universe,
} from './strategy/strategy-context.js';
export { loadStrategyClass } from './strategy/strategy-loader.js';
export { ExecutionVenue } from './venue/execution-venue.js';
export type { SimulatedOrder } from './venue/simulated-order.js';
export { SimulatedVenue, type SimulatedVenueOptions } from './venue/simulated-venue.js';
