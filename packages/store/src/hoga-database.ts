/**
 * The hoga database: one SQLite file opened once, checked, migrated, and wrapped with one
 * repository per table.
 *
 * @module
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Clock, LiveClock } from '@hoga/core';
import Database from 'better-sqlite3';
import { CommandJournal } from './command-journal.js';
import { type DatabaseInfo, describeDatabase } from './database-info.js';
import { CandleCache } from './repositories/candle-cache.js';
import { FillRepository } from './repositories/fill-repository.js';
import { FxRateCache } from './repositories/fx-rate-cache.js';
import { JournalRepository } from './repositories/journal-repository.js';
import { MarketCalendarCache } from './repositories/market-calendar-cache.js';
import { OrderRepository } from './repositories/order-repository.js';
import { PnlLedgerRepository } from './repositories/pnl-ledger-repository.js';
import { PositionRepository } from './repositories/position-repository.js';
import { StrategyStateRepository } from './repositories/strategy-state-repository.js';
import { LATEST_SCHEMA_VERSION } from './schema/migrations.js';
import {
  assertOurs,
  assertSqliteHeader,
  type MigrationResult,
  migrate,
  readIdentity,
  wrapSqliteError,
} from './schema/migrator.js';
import { SchemaVersionError } from './store-error.js';
import { TransactionRunner } from './transactions.js';
import { type CheckpointResult, type CheckpointStats, WalCheckpoints } from './wal-checkpoints.js';

export type { DatabaseInfo } from './database-info.js';

/** Options of {@link HogaDatabase.open}. */
export interface OpenDatabaseOptions {
  /**
   * Bring an older file to the current schema (default `true`); a schema version: bring it to that
   * version only (a file as an older hoga left it, for a tool or a test; a file past it is left as
   * it is).
   */
  readonly migrate?: boolean | number | undefined;
  /** How long a statement waits for another process's lock (default 5,000 ms). */
  readonly busyTimeoutMs?: number | undefined;
  /** Source of the times the store stamps itself (default: the wall clock). */
  readonly clock?: Clock | undefined;
  /**
   * Open an existing file for reading only: nothing is created, migrated or written (for `hoga db
   * info` and the other read commands; works on a file the user may not write).
   */
  readonly readonly?: boolean | undefined;
}

/**
 * One open hoga database file. Opening checks that the file is ours (or empty), refuses a newer
 * schema untouched, migrates an older one in place, and sets WAL, `synchronous=NORMAL`, foreign
 * keys and a busy timeout. Order intents are committed with `synchronous=FULL` (see
 * {@link HogaDatabase.durableTransaction}).
 *
 * @example
 * ```ts
 * const db = HogaDatabase.open(resolveDatabasePath());
 * const order = db.orders.recordIntent({ clientOrderId, strategyId: 'sma', mode: 'paper', symbol: '005930',
 *   market: 'KR', currency: 'KRW', side: 'BUY', orderType: 'LIMIT', timeInForce: 'DAY',
 *   price: new Decimal('72100'), quantity: new Decimal('10'), amount: null, createdAt: clock.nowMs() });
 * db.orders.linkBrokerOrderId(clientOrderId, answer.orderId, 'create', clock.nowMs());
 * db.close();
 * ```
 */
export class HogaDatabase {
  /** Runs the two kinds of transactions. */
  private readonly tx: TransactionRunner;
  /** The WAL checkpoints: now, or deferred onto a timer. */
  private readonly wal: WalCheckpoints;
  private repositories: Repositories | undefined;
  private journalFile: CommandJournal | null | undefined;

  private constructor(
    /** The raw better-sqlite3 connection (for tools and benchmarks; prefer the repositories). */
    readonly connection: Database.Database,
    /** Absolute path of the file, or `:memory:`. */
    readonly file: string,
    /** The clock the store stamps its own times with. */
    readonly clock: Clock,
  ) {
    this.tx = new TransactionRunner(connection);
    this.wal = new WalCheckpoints(connection, file);
  }

  /**
   * Opens (creating when missing) a hoga database file.
   *
   * @param file - path of the file (its directory is created), or `:memory:` for unit tests
   * @param options - see {@link OpenDatabaseOptions}
   * @throws {@link DatabaseFileError} for a foreign or damaged file, {@link SchemaVersionError} for a
   *   newer schema (the file is left untouched), {@link StoreError} `database-open-failed` otherwise
   */
  static open(file: string, options: OpenDatabaseOptions = {}): HogaDatabase {
    const memory = file === ':memory:';
    const readonly = options.readonly === true && !memory;
    if (readonly) assertSqliteHeader(file);
    else if (!memory) prepareFile(file);
    let connection: Database.Database;
    try {
      connection = new Database(file, {
        timeout: options.busyTimeoutMs ?? 5_000,
        ...(readonly ? { readonly: true, fileMustExist: true } : {}),
      });
    } catch (e) {
      throw wrapSqliteError(e, file);
    }
    try {
      assertOurs(readIdentity(connection, file), file);
      if (!memory && !readonly) connection.pragma('journal_mode = WAL');
      connection.pragma('synchronous = NORMAL');
      connection.pragma('foreign_keys = ON');
      const database = new HogaDatabase(connection, file, options.clock ?? new LiveClock());
      if (readonly) return database;
      const migrateTo = options.migrate ?? true;
      if (migrateTo === true) database.migrate();
      else if (typeof migrateTo === 'number') database.migrate(migrateTo);
      if (!memory) restrictMode(file);
      return database;
    } catch (e) {
      connection.close();
      throw wrapSqliteError(e, file);
    }
  }

  /** The file's schema version (`PRAGMA user_version`). */
  get schemaVersion(): number {
    return this.connection.pragma('user_version', { simple: true }) as number;
  }

  /**
   * Brings the file to the latest schema, or to `target` (a no-op when it is there or past it).
   *
   * @throws {@link StoreError} `migration-failed` (the file stays at its version)
   */
  migrate(target?: number): MigrationResult {
    return migrate(this.connection, this.file, this.clock.nowMs(), target);
  }

  /** Orders and their broker-id lineage. */
  get orders(): OrderRepository {
    return this.repos().orders;
  }

  /** Fills. */
  get fills(): FillRepository {
    return this.repos().fills;
  }

  /** The append-only event journal. */
  get journal(): JournalRepository {
    return this.repos().journal;
  }

  /** Position snapshots. */
  get positions(): PositionRepository {
    return this.repos().positions;
  }

  /** The daily PnL ledger. */
  get pnl(): PnlLedgerRepository {
    return this.repos().pnl;
  }

  /** The candle cache. */
  get candles(): CandleCache {
    return this.repos().candles;
  }

  /** The exchange-rate cache (history only). */
  get fxRates(): FxRateCache {
    return this.repos().fxRates;
  }

  /** The market-calendar cache (final answers for good, others briefly). */
  get marketCalendars(): MarketCalendarCache {
    return this.repos().marketCalendars;
  }

  /** Key-value state per strategy. */
  get strategyState(): StrategyStateRepository {
    return this.repos().strategyState;
  }

  /**
   * The file beside the database (`<file>-commands`) where the order manager writes a command
   * before its send (see {@link CommandJournal}); null for `:memory:` (the caller keeps to a
   * table). Opened at the first call, closed with the database.
   */
  commandJournal(): CommandJournal | null {
    if (this.journalFile === undefined) {
      this.journalFile = this.file === ':memory:' ? null : new CommandJournal(`${this.file}-commands`);
    }
    return this.journalFile;
  }

  /**
   * Runs `fn` in one transaction (`synchronous=NORMAL`: survives a process crash); nested calls
   * become savepoints. Repository writes inside join it.
   */
  transaction<T>(fn: () => T): T {
    return this.tx.run(fn);
  }

  /**
   * Runs `fn` in one transaction committed with `synchronous=FULL` (survives power loss): for order
   * intents and anything that must be on disk before a request leaves the process.
   *
   * @throws {@link StoreError} `durability-conflict` when called inside {@link HogaDatabase.transaction}
   */
  durableTransaction<T>(fn: () => T): T {
    return this.tx.durable(fn);
  }

  /**
   * Runs `fn` with the connection's busy timeout at 0, restored after: a write that finds the file
   * locked by another connection is refused at once (`SQLITE_BUSY`: `database is locked`) instead of
   * waiting out the busy timeout, which blocks the thread (better-sqlite3 is synchronous). For a
   * retry of writes the store refused before, kept in memory meanwhile: a run whose file another
   * process holds locked then stalls once, at its first refused write, not at every retry.
   */
  withoutBusyWait<T>(fn: () => T): T {
    const connection = this.connection;
    const timeout = connection.pragma('busy_timeout', { simple: true }) as number;
    connection.pragma('busy_timeout = 0');
    try {
      return fn();
    } finally {
      connection.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /**
   * Describes the file: version, journal mode, tables with row counts and, unless disabled, the
   * result of `PRAGMA integrity_check`.
   */
  info(options: { readonly integrity?: boolean } = {}): DatabaseInfo {
    return describeDatabase(this.connection, this.file, options);
  }

  /**
   * Moves the WAL checkpoints of this connection out of its commits and onto a timer: SQLite's
   * automatic checkpoint runs inside the commit that crosses 1,000 WAL pages, so one write in a
   * few hundred (an order's write-before-send among them) pays for copying the WAL back into the
   * database. With this, commits only append to the WAL, and a passive checkpoint runs every
   * `intervalMs` when the event loop is free (between events, never inside a synchronous write),
   * followed by the WAL's restart (whose header SQLite fsyncs) so the next commit does not pay for
   * it; a tick with nothing written since the last one does nothing. The WAL then holds at most one
   * interval's writes; other connections keep their own setting.
   * `close()` stops the timer. Calling it again changes the interval.
   *
   * A checkpoint that fails (a full disk, an I/O error) never escapes the timer: the commits
   * already in the WAL are safe there, the failure is counted in {@link checkpointStats} and
   * handed to `onError`, and the next tick tries again.
   *
   * @param intervalMs - time between checkpoints (default 1,000 ms)
   * @param options - `onError`: told of each failed checkpoint (the caller logs it)
   */
  deferCheckpoints(
    intervalMs = 1_000,
    options: { readonly onError?: ((error: unknown) => void) | undefined } = {},
  ): void {
    this.wal.defer(intervalMs, options.onError);
  }

  /**
   * Runs a passive WAL checkpoint now (copies what no reader still needs back into the database,
   * waiting for no one).
   *
   * @returns the WAL's frames and how many of them are now in the database
   */
  checkpoint(): CheckpointResult {
    return this.wal.checkpoint();
  }

  /**
   * Checkpoints run through {@link checkpoint} (the deferred ones included) and their time, for
   * figures; `failures`: deferred checkpoints that failed (see {@link deferCheckpoints}).
   */
  get checkpointStats(): CheckpointStats {
    return this.wal.stats;
  }

  /** Closes the connection (checkpointing the WAL). Further use throws. */
  close(): void {
    this.wal.stop();
    this.journalFile?.close();
    this.journalFile = undefined;
    if (this.connection.open) this.connection.close();
  }

  private repos(): Repositories {
    if (this.repositories === undefined) {
      const version = this.schemaVersion;
      if (version !== LATEST_SCHEMA_VERSION) {
        throw new SchemaVersionError(this.file, version, LATEST_SCHEMA_VERSION);
      }
      const c = this.connection;
      const journal = new JournalRepository(c);
      this.repositories = {
        journal,
        orders: new OrderRepository(c, this.tx, journal),
        fills: new FillRepository(c),
        positions: new PositionRepository(c),
        pnl: new PnlLedgerRepository(c),
        candles: new CandleCache(c),
        fxRates: new FxRateCache(c, this.clock),
        marketCalendars: new MarketCalendarCache(c, this.clock),
        strategyState: new StrategyStateRepository(c, this.clock),
      };
    }
    return this.repositories;
  }
}

interface Repositories {
  readonly orders: OrderRepository;
  readonly fills: FillRepository;
  readonly journal: JournalRepository;
  readonly positions: PositionRepository;
  readonly pnl: PnlLedgerRepository;
  readonly candles: CandleCache;
  readonly fxRates: FxRateCache;
  readonly marketCalendars: MarketCalendarCache;
  readonly strategyState: StrategyStateRepository;
}

/**
 * Creates the directory (a new one 0700: in a directory others may write, another user could put a
 * `-wal` or `-shm` of their own beside the file before SQLite makes it, and read what goes into it)
 * and, for a new file, an empty file of mode 0600; checks an existing one.
 */
function prepareFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (existsSync(file)) {
    if (statSync(file).size > 0) assertSqliteHeader(file);
    return;
  }
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/**
 * The file holds tokens: owner read/write only (SQLite gives its -wal and -shm files the same mode),
 * and the command journal beside it (its orders) too: one copied or restored with a looser mode.
 */
function restrictMode(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-commands`]) {
    try {
      chmodSync(f, 0o600);
    } catch {
      // missing sidecar, or a file owned by someone else: leave it
    }
  }
}
