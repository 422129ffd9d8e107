/**
 * Runs: one row per backtest, paper or live run (strategy, parameters, start and end, statistics),
 * with the fills it made (decimals as TEXT) and its equity curve (a number per point: statistics).
 * A backtest is removed by `removeBacktestRun` (`backtest-removal`), with its journal entries and
 * strategy state too; paper and live runs are never removed.
 *
 * @module
 */
import type { Decimal } from '@hoga/core';
import type Database from 'better-sqlite3';
import { decimalToText, fromJsonText, textToDecimal, toJsonText } from '../codec.js';
import { StoreError, StoreErrorCode } from '../store-error.js';
import { type RunProcess, thisProcess } from './run-process.js';

/** How a run traded. */
export type RunKind = 'backtest' | 'paper' | 'live';
/** Where a run stands. */
export type RunStatus = 'running' | 'completed' | 'failed' | 'stopped';

/** A run as it starts. */
export interface NewRun {
  readonly runId: string;
  readonly kind: RunKind;
  /** The strategy file, when loaded from one. */
  readonly strategyPath: string | null;
  /** The strategy's name (or names, for several). */
  readonly strategyName: string;
  /** The run's parameters (config, symbols, interval, range, cash …), JSON-serialisable. */
  readonly params: unknown;
  readonly startedAt: number;
  /**
   * The process that runs it (`hoga db runs --delete` keeps the rows of a `running` run whose
   * process lives); default: this process, the one that stores the run as started.
   */
  readonly process?: RunProcess | null;
}

/** One fill of a run. */
export interface RunTrade {
  /** Epoch ms. */
  readonly time: number;
  readonly strategyId?: string | null;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Decimal;
  readonly price: Decimal;
  readonly currency: string;
  readonly commission: Decimal;
  readonly tax: Decimal;
}

/** One point of a run's equity curve. */
export interface RunEquityPoint {
  readonly time: number;
  readonly equity: number;
}

/** A stored run. Decimals inside `params` and `stats` come back as strings. */
export interface RunRecord extends NewRun {
  /**
   * The process that ran it; null for a run stored before processes were (schema 9 and older). Its
   * `start` is null where none was recorded (no `/proc`, or a run stored before schema 12).
   */
  readonly process: RunProcess | null;
  readonly status: RunStatus;
  readonly endedAt: number | null;
  readonly stats: unknown;
}

/** How a run ended. */
export interface RunEnd {
  readonly status: Exclude<RunStatus, 'running'>;
  readonly endedAt: number;
  /** JSON-serialisable statistics (a `Decimal` is written as its plain string). */
  readonly stats: unknown;
}

interface RunRow {
  run_id: string;
  kind: RunKind;
  strategy_path: string | null;
  strategy_name: string;
  params: string;
  status: RunStatus;
  started_at: number;
  ended_at: number | null;
  stats: string | null;
  /** Absent in a file of schema 9 or older (read without migrating). */
  pid?: number | null;
  host?: string | null;
  /** Absent in a file of schema 11 or older. */
  process_start?: string | null;
}

interface TradeRow {
  time: number;
  strategy_id: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  quantity: string;
  price: string;
  currency: string;
  commission: string;
  tax: string;
}

/**
 * Reads and writes `runs`, `run_trades` and `run_equity`.
 *
 * @example
 * ```ts
 * const runs = new RunRepository(db.connection);
 * runs.record({ runId, kind: 'backtest', strategyPath: 'strategies/sma-crossover.ts', strategyName: 'sma',
 *   params, startedAt }, { status: 'completed', endedAt, stats }, outcome.trades, outcome.equity);
 * ```
 */
export class RunRepository {
  private insertRun: Database.Statement | undefined;
  private readonly updateEnd: Database.Statement;
  private readonly insertTrades: BlockInsert;
  private readonly insertEquity: BlockInsert;
  private readonly maxTradeSeq: Database.Statement;
  private readonly maxEquitySeq: Database.Statement;
  private readonly selectRun: Database.Statement;
  private readonly selectRuns: Database.Statement;
  private readonly selectRunsOfKind: Database.Statement;
  private readonly selectTrades: Database.Statement;
  private readonly selectEquity: Database.Statement;
  private readonly tx: <T>(fn: () => T) => T;

  /** @param db - an open, migrated connection */
  constructor(private readonly db: Database.Database) {
    this.updateEnd = db.prepare('UPDATE runs SET status = ?, ended_at = ?, stats = ? WHERE run_id = ?');
    this.insertTrades = new BlockInsert(
      db,
      'run_trades (run_id, seq, time, strategy_id, symbol, side, quantity, price, currency, commission, tax)',
      9,
      TRADES_PER_INSERT,
    );
    this.insertEquity = new BlockInsert(db, 'run_equity (run_id, seq, time, equity)', 2, POINTS_PER_INSERT);
    this.maxTradeSeq = db.prepare('SELECT coalesce(max(seq), -1) FROM run_trades WHERE run_id = ?').pluck();
    this.maxEquitySeq = db.prepare('SELECT coalesce(max(seq), -1) FROM run_equity WHERE run_id = ?').pluck();
    this.selectRun = db.prepare('SELECT * FROM runs WHERE run_id = ?');
    this.selectRuns = db.prepare('SELECT * FROM runs ORDER BY started_at DESC, run_id LIMIT ?');
    this.selectRunsOfKind = db.prepare(
      'SELECT * FROM runs WHERE kind = ? ORDER BY started_at DESC, run_id LIMIT ?',
    );
    this.selectTrades = db.prepare(
      `SELECT time, strategy_id, symbol, side, quantity, price, currency, commission, tax
       FROM run_trades WHERE run_id = ? ORDER BY seq`,
    );
    this.selectEquity = db.prepare('SELECT time, equity FROM run_equity WHERE run_id = ? ORDER BY seq').raw();
    this.tx = <T>(fn: () => T): T => (db.inTransaction ? fn() : db.transaction(fn).immediate());
  }

  /**
   * Records a run as started (status `running`).
   *
   * @throws {@link StoreError} `invalid-argument` when the run id is taken
   */
  start(run: NewRun): void {
    // prepared on first use: a file of an older schema (no process columns) is read with this class
    this.insertRun ??= this.db.prepare(
      `INSERT INTO runs (run_id, kind, strategy_path, strategy_name, params, status, started_at, pid, host,
         process_start)
       VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
    );
    const owner = run.process === undefined ? thisProcess() : run.process;
    try {
      this.insertRun.run(
        run.runId,
        run.kind,
        run.strategyPath,
        run.strategyName,
        toJsonText(run.params),
        run.startedAt,
        owner?.pid ?? null,
        owner?.host ?? null,
        owner?.start ?? null,
      );
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
        throw new StoreError(StoreErrorCode.INVALID_ARGUMENT, `run ${run.runId} is already stored`, {
          cause: e,
        });
      }
      throw e;
    }
  }

  /** Appends fills to a run's trades (after those already stored), in one transaction. */
  appendTrades(runId: string, trades: readonly RunTrade[]): void {
    if (trades.length === 0) return;
    this.tx(() => {
      this.insertTrades.insert(
        runId,
        (this.maxTradeSeq.get(runId) as number) + 1,
        trades.length,
        (i, p, at) => {
          const t = trades[i] as RunTrade;
          p[at] = t.time;
          p[at + 1] = t.strategyId ?? null;
          p[at + 2] = t.symbol;
          p[at + 3] = t.side;
          p[at + 4] = decimalToText(t.quantity);
          p[at + 5] = decimalToText(t.price);
          p[at + 6] = t.currency;
          p[at + 7] = decimalToText(t.commission);
          p[at + 8] = decimalToText(t.tax);
        },
      );
    });
  }

  /** Appends points to a run's equity curve, in one transaction. */
  appendEquity(runId: string, points: readonly RunEquityPoint[]): void {
    if (points.length === 0) return;
    this.tx(() => {
      this.insertEquity.insert(
        runId,
        (this.maxEquitySeq.get(runId) as number) + 1,
        points.length,
        (i, p, at) => {
          const point = points[i] as RunEquityPoint;
          p[at] = point.time;
          p[at + 1] = point.equity;
        },
      );
    });
  }

  /**
   * Records how a run ended, with its statistics.
   *
   * @throws {@link StoreError} `invalid-argument` for an unknown run
   */
  finish(runId: string, end: RunEnd): void {
    const changed = this.updateEnd.run(end.status, end.endedAt, toJsonText(end.stats), runId).changes;
    if (changed === 0) throw new StoreError(StoreErrorCode.INVALID_ARGUMENT, `no run ${runId} is stored`);
  }

  /** A whole run at once (start, trades, equity, end) in one transaction: what a backtest stores. */
  record(run: NewRun, end: RunEnd, trades: readonly RunTrade[], equity: readonly RunEquityPoint[]): void {
    this.tx(() => {
      this.start(run);
      this.appendTrades(run.runId, trades);
      this.appendEquity(run.runId, equity);
      this.finish(run.runId, end);
    });
  }

  /** A run, or undefined. */
  get(runId: string): RunRecord | undefined {
    const row = this.selectRun.get(runId) as RunRow | undefined;
    return row === undefined ? undefined : toRecord(row);
  }

  /** The newest runs first (of one kind, when given). */
  list(query: { readonly kind?: RunKind; readonly limit?: number } = {}): RunRecord[] {
    const limit = query.limit ?? 100;
    const rows = (
      query.kind === undefined ? this.selectRuns.all(limit) : this.selectRunsOfKind.all(query.kind, limit)
    ) as RunRow[];
    return rows.map(toRecord);
  }

  /** A run's trades in the order they were stored. */
  trades(runId: string): RunTrade[] {
    return (this.selectTrades.all(runId) as TradeRow[]).map((r) => ({
      time: r.time,
      strategyId: r.strategy_id,
      symbol: r.symbol,
      side: r.side,
      quantity: textToDecimal(r.quantity, 'run_trades.quantity'),
      price: textToDecimal(r.price, 'run_trades.price'),
      currency: r.currency,
      commission: textToDecimal(r.commission, 'run_trades.commission'),
      tax: textToDecimal(r.tax, 'run_trades.tax'),
    }));
  }

  /** A run's equity curve. */
  equity(runId: string): RunEquityPoint[] {
    return (this.selectEquity.all(runId) as [number, number][]).map(([time, equity]) => ({ time, equity }));
  }
}

/** Rows per INSERT statement: 9 bound values per trade, 2 per equity point (SQLite allows 32,766). */
const TRADES_PER_INSERT = 128;
const POINTS_PER_INSERT = 256;

/**
 * Inserts a run's rows many per statement: each row is `(@run, @seq + i, ?, …)`, so a row binds only
 * its own values and the run id and first sequence number are bound once per statement. The
 * statements are prepared on first use; rows short of a whole block go one per statement.
 */
class BlockInsert {
  private block: Database.Statement | undefined;
  private one: Database.Statement | undefined;
  private readonly params: unknown[];
  private readonly row: unknown[];

  /**
   * @param db - the connection
   * @param target - `table (run_id, seq, …columns)`
   * @param width - values bound per row (the columns after `run_id` and `seq`)
   * @param rows - rows per statement
   */
  constructor(
    private readonly db: Database.Database,
    private readonly target: string,
    private readonly width: number,
    private readonly rows: number,
  ) {
    this.params = new Array<unknown>(width * rows);
    this.row = new Array<unknown>(width);
  }

  /**
   * Inserts `count` rows numbered from `seq`; `fill(i, params, at)` writes row `i`'s values into
   * `params` from index `at`.
   */
  insert(
    runId: string,
    seq: number,
    count: number,
    fill: (i: number, params: unknown[], at: number) => void,
  ): void {
    const { width, rows } = this;
    let i = 0;
    if (count >= rows) {
      this.block ??= this.db.prepare(this.sql(rows));
      const params = this.params;
      for (; i + rows <= count; i += rows) {
        for (let r = 0; r < rows; r++) fill(i + r, params, r * width);
        this.block.run(params, { run: runId, seq: seq + i });
      }
    }
    if (i < count) {
      this.one ??= this.db.prepare(this.sql(1));
      for (; i < count; i++) {
        fill(i, this.row, 0);
        this.one.run(this.row, { run: runId, seq: seq + i });
      }
    }
  }

  private sql(rows: number): string {
    const values = new Array<string>(this.width).fill('?').join(', ');
    const tuples = Array.from({ length: rows }, (_, r) => `(@run, @seq + ${r}, ${values})`);
    return `INSERT INTO ${this.target} VALUES ${tuples.join(', ')}`;
  }
}

function toRecord(r: RunRow): RunRecord {
  return {
    runId: r.run_id,
    kind: r.kind,
    strategyPath: r.strategy_path,
    strategyName: r.strategy_name,
    params: fromJsonText(r.params, 'runs.params'),
    status: r.status,
    startedAt: r.started_at,
    process:
      r.pid === null || r.pid === undefined || r.host === null || r.host === undefined
        ? null
        : { pid: r.pid, host: r.host, start: r.process_start ?? null },
    endedAt: r.ended_at,
    stats: r.stats === null ? null : fromJsonText(r.stats, 'runs.stats'),
  };
}
