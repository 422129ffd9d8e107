/**
 * The schema, as numbered migrations. A file's version is `PRAGMA user_version`; migration `n`
 * takes a file from version `n - 1` to `n`. Never edit a released migration: add a new one.
 *
 * Conventions: decimals are TEXT holding plain decimal strings; times are INTEGER epoch
 * milliseconds (UTC); calendar dates are TEXT `YYYY-MM-DD`; JSON is TEXT.
 *
 * @module
 */
import { MIGRATION_004_ORDER_MANAGER_SQL } from './migration-004-order-manager.js';
import { MIGRATION_005_RUNS_SQL } from './migration-005-runs.js';
import { MIGRATION_006_TOKEN_FINGERPRINT_SQL } from './migration-006-token-fingerprint.js';
import { MIGRATION_007_COMMAND_LOG_SQL } from './migration-007-command-log.js';
import { MIGRATION_008_CANDLE_BLOCKS_SQL } from './migration-008-candle-blocks.js';
import { MIGRATION_009_FX_RATES_SQL } from './migration-009-fx-rates.js';
import { MIGRATION_010_RUN_PROCESS_SQL } from './migration-010-run-process.js';
import { MIGRATION_011_MARKET_CALENDARS_SQL } from './migration-011-market-calendars.js';
import { MIGRATION_012_RUN_PROCESS_START_SQL } from './migration-012-run-process-start.js';
import { MIGRATION_013_POSITION_SNAPSHOT_UNKNOWNS_SQL } from './migration-013-position-snapshot-unknowns.js';

/** One schema step. */
export interface Migration {
  /** The version the file has after this migration. */
  readonly version: number;
  /** Short description, recorded in `meta`. */
  readonly name: string;
  /** The DDL, run inside the migration transaction. */
  readonly sql: string;
}

/** `PRAGMA application_id` of a hoga database: ASCII "hoga". */
export const HOGA_APPLICATION_ID = 0x686f6761;

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'orders, broker order ids, fills, event journal',
    sql: `
      CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE orders (
        id                 INTEGER PRIMARY KEY,
        client_order_id    TEXT NOT NULL UNIQUE,
        broker_order_id    TEXT,
        strategy_id        TEXT,
        mode               TEXT NOT NULL CHECK (mode IN ('backtest', 'paper', 'live')),
        symbol             TEXT NOT NULL,
        market             TEXT NOT NULL,
        currency           TEXT NOT NULL,
        side               TEXT NOT NULL,
        order_type         TEXT NOT NULL,
        time_in_force      TEXT NOT NULL,
        price              TEXT,
        quantity           TEXT,
        amount             TEXT,
        state              TEXT NOT NULL,
        filled_quantity    TEXT NOT NULL DEFAULT '0',
        average_fill_price TEXT,
        reject_reason      TEXT,
        created_at         INTEGER NOT NULL,
        updated_at         INTEGER NOT NULL
      );
      CREATE INDEX orders_state ON orders (state);
      CREATE INDEX orders_strategy ON orders (strategy_id, created_at);
      CREATE INDEX orders_symbol ON orders (symbol, created_at);
      CREATE INDEX orders_created ON orders (created_at);

      CREATE TABLE order_broker_ids (
        broker_order_id TEXT PRIMARY KEY,
        order_id        INTEGER NOT NULL REFERENCES orders (id),
        ordinal         INTEGER NOT NULL,
        kind            TEXT NOT NULL CHECK (kind IN ('create', 'modify', 'cancel')),
        created_at      INTEGER NOT NULL,
        UNIQUE (order_id, ordinal)
      );

      CREATE TABLE fills (
        id                  INTEGER PRIMARY KEY,
        order_id            INTEGER NOT NULL REFERENCES orders (id),
        broker_order_id     TEXT,
        symbol              TEXT NOT NULL,
        side                TEXT NOT NULL,
        quantity            TEXT NOT NULL,
        price               TEXT NOT NULL,
        commission          TEXT NOT NULL,
        commission_currency TEXT NOT NULL,
        tax                 TEXT,
        filled_at           INTEGER NOT NULL,
        cumulative_quantity TEXT NOT NULL,
        UNIQUE (order_id, cumulative_quantity)
      );
      CREATE INDEX fills_symbol ON fills (symbol, filled_at);
      CREATE INDEX fills_filled_at ON fills (filled_at);

      CREATE TABLE journal (
        seq             INTEGER PRIMARY KEY AUTOINCREMENT,
        type            TEXT NOT NULL,
        mode            TEXT NOT NULL CHECK (mode IN ('backtest', 'paper', 'live')),
        strategy_id     TEXT,
        client_order_id TEXT,
        ts_event        INTEGER NOT NULL,
        ts_init         INTEGER NOT NULL,
        payload         TEXT NOT NULL
      );
      CREATE INDEX journal_client_order ON journal (client_order_id) WHERE client_order_id IS NOT NULL;
    `,
  },
  {
    version: 2,
    name: 'position snapshots, daily pnl ledger, token cache',
    sql: `
      CREATE TABLE position_snapshots (
        id          INTEGER PRIMARY KEY,
        ts          INTEGER NOT NULL,
        mode        TEXT NOT NULL CHECK (mode IN ('backtest', 'paper', 'live')),
        strategy_id TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX position_snapshots_scope ON position_snapshots (mode, strategy_id, ts);

      CREATE TABLE position_snapshot_items (
        snapshot_id   INTEGER NOT NULL REFERENCES position_snapshots (id) ON DELETE CASCADE,
        symbol        TEXT NOT NULL,
        market        TEXT NOT NULL,
        currency      TEXT NOT NULL,
        quantity      TEXT NOT NULL,
        average_price TEXT NOT NULL,
        realized_pnl  TEXT NOT NULL DEFAULT '0',
        PRIMARY KEY (snapshot_id, symbol)
      ) WITHOUT ROWID;

      CREATE TABLE pnl_ledger (
        trading_date TEXT NOT NULL,
        currency     TEXT NOT NULL,
        mode         TEXT NOT NULL CHECK (mode IN ('backtest', 'paper', 'live')),
        strategy_id  TEXT NOT NULL DEFAULT '',
        realized     TEXT NOT NULL,
        unrealized   TEXT NOT NULL,
        commission   TEXT NOT NULL,
        tax          TEXT NOT NULL,
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (trading_date, currency, mode, strategy_id)
      ) WITHOUT ROWID;

      CREATE TABLE token_cache (
        key          TEXT PRIMARY KEY,
        access_token TEXT NOT NULL,
        token_type   TEXT NOT NULL,
        expires_at   INTEGER NOT NULL,
        issued_at    INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE token_leases (
        key        TEXT PRIMARY KEY,
        owner      TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'candle cache with covered ranges, strategy key-value state',
    sql: `
      CREATE TABLE candles (
        symbol   TEXT NOT NULL,
        interval TEXT NOT NULL,
        adjusted INTEGER NOT NULL CHECK (adjusted IN (0, 1)),
        ts       INTEGER NOT NULL,
        open     TEXT NOT NULL,
        high     TEXT NOT NULL,
        low      TEXT NOT NULL,
        close    TEXT NOT NULL,
        volume   TEXT NOT NULL,
        PRIMARY KEY (symbol, interval, adjusted, ts)
      ) WITHOUT ROWID;

      CREATE TABLE candle_ranges (
        symbol   TEXT NOT NULL,
        interval TEXT NOT NULL,
        adjusted INTEGER NOT NULL CHECK (adjusted IN (0, 1)),
        start_ts INTEGER NOT NULL,
        end_ts   INTEGER NOT NULL CHECK (end_ts > start_ts),
        PRIMARY KEY (symbol, interval, adjusted, start_ts)
      ) WITHOUT ROWID;

      CREATE TABLE strategy_state (
        strategy_id TEXT NOT NULL,
        key         TEXT NOT NULL,
        value       TEXT NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (strategy_id, key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'order manager: commands, broker executions, positions',
    sql: MIGRATION_004_ORDER_MANAGER_SQL,
  },
  {
    version: 5,
    name: 'runs with their parameters, statistics, trades and equity curves',
    sql: MIGRATION_005_RUNS_SQL,
  },
  {
    version: 6,
    name: 'token cache: fingerprint of the credentials that issued each token',
    sql: MIGRATION_006_TOKEN_FINGERPRINT_SQL,
  },
  {
    version: 7,
    name: 'order manager: command log written before a create is sent',
    sql: MIGRATION_007_COMMAND_LOG_SQL,
  },
  {
    version: 8,
    name: 'candle cache: columnar blocks for the backtest read path, dropped by triggers on change',
    sql: MIGRATION_008_CANDLE_BLOCKS_SQL,
  },
  {
    version: 9,
    name: 'exchange-rate cache: the rates (and the times without one) the broker answered, history only',
    sql: MIGRATION_009_FX_RATES_SQL,
  },
  {
    version: 10,
    name: 'runs: the process (pid and host) that runs each one',
    sql: MIGRATION_010_RUN_PROCESS_SQL,
  },
  {
    version: 11,
    name: 'market-calendar cache: the KR and US calendars the broker answered, final ones kept, others briefly',
    sql: MIGRATION_011_MARKET_CALENDARS_SQL,
  },
  {
    version: 12,
    name: 'runs: when the process that runs each one started (a pid given again to another process reads as gone)',
    sql: MIGRATION_012_RUN_PROCESS_START_SQL,
  },
  {
    version: 13,
    name: 'position snapshots: an average price or realized PnL not known is NULL (live ones wrote 0)',
    sql: MIGRATION_013_POSITION_SNAPSHOT_UNKNOWNS_SQL,
  },
];

/** The schema version this code writes and reads. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.length;
