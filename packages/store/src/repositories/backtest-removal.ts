/**
 * Removing stored backtests: a backtest is deterministic and can be run again, so a user sweeping
 * parameters may drop the runs they no longer need. A backtest's rows are its `runs` row, its
 * `run_trades` and `run_equity`, its orders in the `journal` (mode `backtest`, one `OrderSummary`
 * per order, client order ids `<backtestOrderIdPrefix(runId)>-n`) and its strategies' persistent
 * state (`strategy_state` under `backtest/<runId>/<strategyId>`). Nothing else is keyed by a
 * backtest (its risk states live in memory; the candle and exchange-rate caches are shared).
 *
 * Paper and live runs are never removed: their orders and fills are the account's record. Nor is a
 * backtest still `running` whose process lives on this machine: it would go on writing rows under
 * a run that is gone (and fail on them). One whose process is gone (it crashed or was killed; its
 * pid now held by another process that started at another time, see `run-process`) is removed as
 * any.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { backtestOrderIdPrefix } from './journal-repository.js';
import { type RunProcess, runProcessAlive } from './run-process.js';
import type { RunKind, RunStatus } from './run-repository.js';

/** The rows one removal deleted, by table. */
export interface RemovedBacktestRows {
  readonly runs: number;
  readonly runTrades: number;
  readonly runEquity: number;
  readonly journal: number;
  readonly strategyState: number;
}

/** What {@link removeBacktestRun} did. */
export type BacktestRemoval =
  | {
      readonly outcome: 'removed';
      readonly runId: string;
      readonly removed: RemovedBacktestRows;
      /**
       * The stored backtests whose order ids begin as this run's (their run ids' first 12 hex
       * digits are the same): the journal cannot tell their orders apart, so this run's orders
       * were kept; empty (and the orders removed) otherwise.
       */
      readonly journalSharedWith: readonly string[];
    }
  | { readonly outcome: 'missing'; readonly runId: string }
  /** Still `running`, and its process lives on this machine: left whole. */
  | { readonly outcome: 'running'; readonly runId: string; readonly process: RunProcess }
  | { readonly outcome: 'not-backtest'; readonly runId: string; readonly kind: RunKind };

/** The end of a range of TEXT keys beginning with `prefix`: no key with the prefix sorts after it. */
function prefixEnd(prefix: string): string {
  return `${prefix}\uffff`;
}

/** What a removal reads of a run. */
interface StoredRun {
  readonly kind: RunKind;
  readonly status: RunStatus;
  /** Absent in a file of schema 9 or older. */
  readonly pid?: number | null;
  readonly host?: string | null;
  /** Absent in a file of schema 11 or older. */
  readonly process_start?: string | null;
}

/** The process of a `running` run when it lives on this machine; null otherwise. */
function runningProcess(run: StoredRun): RunProcess | null {
  if (run.status !== 'running' || run.pid === undefined || run.pid === null || !run.host) return null;
  const owner = { pid: run.pid, host: run.host, start: run.process_start ?? null };
  return runProcessAlive(owner) === true ? owner : null;
}

/**
 * The process of a stored backtest that is still running on this machine, or null (finished,
 * interrupted, another machine's, or none recorded): what {@link removeBacktestRun} refuses to remove.
 *
 * @param db - an open connection to a hoga database of schema 5 or later
 * @param runId - the run
 */
export function liveBacktestProcess(db: Database.Database, runId: string): RunProcess | null {
  const run = db.prepare('SELECT * FROM runs WHERE run_id = ?').get(runId) as StoredRun | undefined;
  return run === undefined || run.kind !== 'backtest' ? null : runningProcess(run);
}

/** A run stored as `running` whose process lives on this machine. */
export interface LiveRun {
  readonly runId: string;
  readonly kind: RunKind;
  readonly process: RunProcess;
}

/**
 * The runs of any kind (backtest, paper, live) stored as `running` whose process lives on this
 * machine: the writers a `VACUUM` of the file would hold up for its whole length.
 *
 * @param db - an open connection to a hoga database (none before schema 5)
 */
export function liveRuns(db: Database.Database): LiveRun[] {
  const hasRuns = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get();
  if (hasRuns === undefined) return [];
  const rows = db.prepare("SELECT * FROM runs WHERE status = 'running'").all() as (StoredRun & {
    readonly run_id: string;
  })[];
  return rows.flatMap((run) => {
    const owner = runningProcess(run);
    return owner === null ? [] : [{ runId: run.run_id, kind: run.kind, process: owner }];
  });
}

/** SQL of the stored backtests' run ids. */
const BACKTEST_IDS = "SELECT run_id FROM runs WHERE kind = 'backtest'";

/**
 * Removes one backtest run and every row stored under it, in one immediate transaction; a paper or
 * live run is left untouched (`not-backtest`), as is a backtest still running on this machine
 * (`running`) and everything not of this run.
 *
 * @param db - an open connection to a hoga database of schema 5 or later (runs stored)
 * @param runId - the run
 */
export function removeBacktestRun(db: Database.Database, runId: string): BacktestRemoval {
  return removeBacktestRuns(db, [runId])[0] as BacktestRemoval;
}

/**
 * Removes backtest runs as {@link removeBacktestRun} does, one immediate transaction each, in order.
 * The stored backtests' order-id heads are read once, before the first (a prune of thousands of runs
 * reads them once, not once per run).
 *
 * @param db - an open connection to a hoga database of schema 5 or later (runs stored)
 * @param runIds - the runs
 */
export function removeBacktestRuns(db: Database.Database, runIds: readonly string[]): BacktestRemoval[] {
  const byHead = new Map<string, string[]>();
  for (const id of db.prepare(BACKTEST_IDS).pluck().iterate() as IterableIterator<string>) {
    const head = backtestOrderIdPrefix(id);
    byHead.set(head, [...(byHead.get(head) ?? []), id]);
  }
  // (`*`: a file of schema 9 or older has no process columns)
  const runOf = db.prepare('SELECT * FROM runs WHERE run_id = ?');
  const journalOf = db.prepare(
    "DELETE FROM journal WHERE mode = 'backtest' AND client_order_id >= ? AND client_order_id < ?",
  );
  const stateOf = db.prepare('DELETE FROM strategy_state WHERE strategy_id >= ? AND strategy_id < ?');
  const tradesOf = db.prepare('DELETE FROM run_trades WHERE run_id = ?');
  const equityOf = db.prepare('DELETE FROM run_equity WHERE run_id = ?');
  const deleteRun = db.prepare('DELETE FROM runs WHERE run_id = ?');
  const remove = db.transaction((runId: string): BacktestRemoval => {
    const run = runOf.get(runId) as StoredRun | undefined;
    if (run === undefined) return { outcome: 'missing', runId };
    if (run.kind !== 'backtest') return { outcome: 'not-backtest', runId, kind: run.kind };
    const owner = runningProcess(run);
    if (owner !== null) return { outcome: 'running', runId, process: owner };
    const head = backtestOrderIdPrefix(runId);
    const sharing = (byHead.get(head) ?? []).filter((id) => id !== runId);
    const orders = `${head}-`;
    const journal = sharing.length > 0 ? 0 : journalOf.run(orders, prefixEnd(orders)).changes;
    const state = `backtest/${runId}/`;
    const removed = {
      runs: 0,
      runTrades: tradesOf.run(runId).changes,
      runEquity: equityOf.run(runId).changes,
      journal,
      strategyState: stateOf.run(state, prefixEnd(state)).changes,
    };
    removed.runs = deleteRun.run(runId).changes;
    byHead.set(head, sharing);
    return { outcome: 'removed', runId, removed, journalSharedWith: sharing };
  });
  return runIds.map((runId) => remove.immediate(runId));
}

/**
 * The stored backtests started before `beforeMs` (epoch ms), oldest first.
 *
 * @param db - an open connection to a hoga database of schema 5 or later
 */
export function backtestRunsStartedBefore(db: Database.Database, beforeMs: number): string[] {
  return db
    .prepare(`${BACKTEST_IDS} AND started_at < ? ORDER BY started_at, run_id`)
    .pluck()
    .all(beforeMs) as string[];
}
