/**
 * `@hoga/store`: the engine's memory in one SQLite file — orders and their broker ids, fills, the
 * event journal, position snapshots, the daily PnL ledger, the token cache, the candle cache, the
 * exchange-rate cache and per-strategy state.
 *
 * @packageDocumentation
 */

export { CommandJournal } from './command-journal.js';
export { type BackupResult, backupDatabase } from './database-backup.js';
export { DATABASE_ENV_VAR, DEFAULT_DATABASE_PATH, resolveDatabasePath } from './database-path.js';
export { type DatabaseInfo, HogaDatabase, type OpenDatabaseOptions } from './hoga-database.js';
export {
  type BacktestRemoval,
  backtestRunsStartedBefore,
  type LiveRun,
  liveBacktestProcess,
  liveRuns,
  type RemovedBacktestRows,
  removeBacktestRun,
  removeBacktestRuns,
} from './repositories/backtest-removal.js';
export {
  type BarColumns,
  barToCachedCandle,
  CandleBarReader,
  cachedCandleToBar,
  type SeriesRead,
} from './repositories/candle-bars.js';
export {
  type CachedCandle,
  CandleCache,
  type CandleSeriesKey,
} from './repositories/candle-cache.js';
export { derivedFillId, fillFromRecord, newFillFromFill } from './repositories/fill-convert.js';
export {
  type FillQuery,
  type FillRecord,
  FillRepository,
  type NewFill,
} from './repositories/fill-repository.js';
export {
  type CachedFxRate,
  FX_HISTORY_AGE_MS,
  type FxRateAnswer,
  FxRateCache,
  type FxRateKey,
} from './repositories/fx-rate-cache.js';
export {
  backtestOrderIdPrefix,
  type JournalableEvent,
  type JournalEntry,
  JournalRepository,
  type NewJournalEntry,
} from './repositories/journal-repository.js';
export {
  CALENDAR_FRESH_MS,
  CALENDAR_KEEP_DAYS,
  type CachedCalendar,
  type CalendarEntry,
  type CalendarKey,
  type CalendarMarket,
  calendarUsable,
  isFinalCalendar,
  MarketCalendarCache,
  marketDate,
} from './repositories/market-calendar-cache.js';
export { type IntentContext, orderFromIntent } from './repositories/order-from-intent.js';
export {
  BrokerOrderIdKind,
  type BrokerOrderIdLink,
  type NewOrder,
  type OrderRecord,
  type OrderUpdate,
  UnreadableOrderError,
} from './repositories/order-record.js';
export { type OrderQuery, OrderRepository } from './repositories/order-repository.js';
export { type PnlEntry, PnlLedgerRepository, type PnlQuery } from './repositories/pnl-ledger-repository.js';
export {
  type PositionEntry,
  PositionRepository,
  type PositionSnapshot,
  type PositionSnapshotRecord,
} from './repositories/position-repository.js';
export { processStart, type RunProcess, runProcessAlive, thisProcess } from './repositories/run-process.js';
export {
  type NewRun,
  type RunEnd,
  type RunEquityPoint,
  type RunKind,
  type RunRecord,
  RunRepository,
  type RunStatus,
  type RunTrade,
} from './repositories/run-repository.js';
export { StrategyStateRepository } from './repositories/strategy-state-repository.js';
export { mergeRanges, subtractRanges, type TimeRange } from './repositories/time-ranges.js';
export type { OrderSummary } from './run-journal/run-journal-sink.js';
export { RunJournalWriter, type RunJournalWriterOptions } from './run-journal/run-journal-writer.js';
export { HOGA_APPLICATION_ID, LATEST_SCHEMA_VERSION } from './schema/migrations.js';
export type { MigrationResult } from './schema/migrator.js';
export { DatabaseFileError, SchemaVersionError, StoreError, StoreErrorCode } from './store-error.js';
export { SqliteTokenCache, type SqliteTokenCacheOptions } from './token/sqlite-token-cache.js';
export { TRADING_MODES, TradingMode } from './trading-mode.js';
