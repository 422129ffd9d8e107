/**
 * `hoga db runs --delete RUN[,RUN…]` and `--delete-backtests --before DATE`: remove stored
 * backtests with every row kept under them (run, trades, equity, journal entries, strategy state),
 * one transaction per run. Paper and live runs are refused: their orders and fills are the
 * account's record. So is a backtest still running on this machine (its `hoga backtest` would go
 * on writing under a run that is gone); one whose process is gone (interrupted) is deleted. SQLite keeps the freed pages inside the file; `--vacuum` gives them back to
 * the disk, refused while a run of any kind is running on the file on this machine (VACUUM holds the
 * write lock for its whole length).
 *
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { KST_ZONE } from '@hoga/core';
import {
  type BacktestRemoval,
  backtestRunsStartedBefore,
  HogaDatabase,
  type LiveRun,
  liveBacktestProcess,
  liveRuns,
  type RemovedBacktestRows,
  type RunProcess,
  removeBacktestRuns,
  resolveDatabasePath,
  StoreErrorCode,
} from '@hoga/store';
import { DateTime } from 'luxon';
import { simulatorDatabaseHint } from '../simulator-database.js';
import type { DbCommandIo } from './db-io.js';

/** The flags of `db runs` that delete. */
export interface DbRunsDeleteFlags {
  readonly db?: string;
  readonly json?: boolean;
  /** Run ids, comma-separated. */
  readonly delete?: string;
  readonly deleteBacktests?: boolean;
  /** KST date `YYYY-MM-DD`: with `deleteBacktests`, the backtests started before its start. */
  readonly before?: string;
  readonly vacuum?: boolean;
}

/** `run paper-1 (paper, process 4242), run live-1 (live, process 4243) are running on it`. */
export function runningOnIt(writing: readonly LiveRun[]): string {
  const runs = writing.map((r) => `run ${r.runId} (${r.kind}, process ${r.process.pid})`).join(', ');
  return `${runs} ${writing.length === 1 ? 'is' : 'are'} running on it`;
}

/** Whether `db runs` was asked to delete (or vacuum) rather than list. */
export function deletes(flags: DbRunsDeleteFlags): boolean {
  return (
    flags.delete !== undefined ||
    flags.deleteBacktests === true ||
    flags.before !== undefined ||
    flags.vacuum === true
  );
}

/** The usage mistake in the delete flags, if any. */
function misuse(flags: DbRunsDeleteFlags & { id?: string; kind?: string; csv?: boolean }): string | null {
  if (flags.delete !== undefined && flags.deleteBacktests === true) {
    return '--delete and --delete-backtests: give one of them';
  }
  if (flags.deleteBacktests === true && flags.before === undefined) {
    return '--delete-backtests needs --before <yyyy-mm-dd>: the backtests started before that KST date are deleted';
  }
  if (flags.before !== undefined && flags.deleteBacktests !== true) {
    return '--before goes with --delete-backtests (the backtests started before that date are deleted)';
  }
  if (flags.id !== undefined || flags.kind !== undefined || flags.csv === true) {
    return '--delete, --delete-backtests and --vacuum take no --id, --kind or --csv (--delete names its runs)';
  }
  if (flags.delete !== undefined && ids(flags.delete).length === 0) {
    return '--delete: expected one or more run ids, comma-separated (hoga db runs lists them)';
  }
  return null;
}

function ids(list: string): string[] {
  return [...new Set(list.split(',').map((s) => s.trim()))].filter((s) => s !== '');
}

/** The main file's and its WAL's bytes. */
function fileBytes(file: string): number {
  const size = (f: string): number => (existsSync(f) ? statSync(f).size : 0);
  return size(file) + size(`${file}-wal`);
}

function sizeText(bytes: number): string {
  return bytes < 1_048_576 ? `${Math.ceil(bytes / 1_024)} KB` : `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function removedText(runId: string, r: RemovedBacktestRows, sharedWith: readonly string[]): string {
  const journal =
    sharedWith.length > 0
      ? `its journal entries kept (backtest ${sharedWith.join(', ')} has orders of the same ids; they go with it)`
      : plural(r.journal, 'journal entry', 'journal entries');
  return (
    `deleted backtest ${runId}: ${plural(r.runs, 'run')}, ${plural(r.runTrades, 'trade')}, ` +
    `${plural(r.runEquity, 'equity point')}, ${journal}, ${plural(r.strategyState, 'strategy state key')}\n`
  );
}

/** Why a backtest still running is not deleted, and what to do. */
function runningSentence(runId: string, owner: RunProcess): string {
  return `backtest ${runId} is still running (process ${owner.pid} on this machine): wait for it to finish, or stop it (Ctrl-C where it runs, or kill ${owner.pid}), then delete it`;
}

/** {@link runningSentence} as a line of stderr. */
function runningText(runId: string, owner: RunProcess): string {
  return `hoga db: ${runningSentence(runId, owner)}\n`;
}

/** The code a failure on a file another process holds locked is given (as every command gives it). */
const LOCKED = StoreErrorCode.DATABASE_LOCKED;

/** Whether SQLite gave up waiting for another connection's write lock (`database is locked`). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Of `targets`, the runs no longer stored (deleted before the lock stopped the rest). */
function deletedOf(c: HogaDatabase['connection'], targets: readonly string[], hasRuns: boolean): string[] {
  if (!hasRuns) return [];
  const stored = c.prepare('SELECT 1 FROM runs WHERE run_id = ?').pluck();
  return targets.filter((id) => stored.get(id) === undefined);
}

/**
 * Why a deletion stopped on a file another process holds locked (SQLite's own `database is
 * locked` names neither the cause nor the way out), and what of it was done.
 */
function lockedSentence(file: string, deleted: readonly string[]): string {
  const done =
    deleted.length === 0
      ? 'nothing was deleted'
      : `deleted ${deleted.length === 1 ? 'backtest' : 'backtests'} ${deleted.join(', ')} before it, the others not`;
  return `${file} is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout: ${done}; run the command again when it is done`;
}

/** What a deletion did, as {@link report} prints it. */
interface Report {
  readonly file: string;
  readonly done: readonly Extract<BacktestRemoval, { outcome: 'removed' }>[];
  /** Backtests asked for but left (still running, or gone meanwhile). */
  readonly left: number;
  /** Bytes of free pages inside the file. */
  readonly freeBytes: number;
  readonly vacuum: { readonly beforeBytes: number; readonly afterBytes: number } | null;
  /** `--before`, if given. */
  readonly before: string | undefined;
  /** `--db`, if given. */
  readonly db: string | undefined;
}

function report(r: Report, json: boolean, io: DbCommandIo): void {
  if (json) {
    const deleted = r.done.map((d) => ({
      runId: d.runId,
      ...d.removed,
      journalSharedWith: d.journalSharedWith,
    }));
    const out = {
      file: r.file,
      deleted,
      freeBytes: r.freeBytes,
      ...(r.vacuum === null ? {} : { vacuum: r.vacuum }),
    };
    io.out(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  if (r.before !== undefined && r.done.length === 0 && r.left === 0) {
    io.out(`no backtest in ${r.file} started before ${r.before} (KST); nothing deleted\n`);
  }
  for (const d of r.done) io.out(removedText(d.runId, d.removed, d.journalSharedWith));
  if (r.vacuum !== null) {
    io.out(`vacuumed ${r.file}: ${sizeText(r.vacuum.beforeBytes)} → ${sizeText(r.vacuum.afterBytes)}\n`);
  } else if (r.freeBytes > 0 && r.done.length > 0) {
    io.out(
      // (said after a deletion only: a file whose other rows left free pages is not this command's doing)
      `${sizeText(r.freeBytes)} free inside ${r.file}: SQLite reuses it for new rows; the file keeps its size until hoga db runs --vacuum${r.db === undefined ? '' : ` --db ${r.file}`} gives the space back to the disk\n`,
    );
  }
}

/**
 * Deletes the backtests the flags name (or vacuums the file), and says what it removed.
 *
 * @param flags - `--db`, `--json`, `--delete`, `--delete-backtests`, `--before`, `--vacuum`
 * @param io - output
 */
export function dbRunsDelete(
  flags: DbRunsDeleteFlags & { id?: string; kind?: string; csv?: boolean },
  io: DbCommandIo,
): void {
  const wrong = misuse(flags);
  if (wrong !== null) {
    io.failure([wrong], 2);
    return;
  }
  const file = resolveDatabasePath(flags.db);
  if (file !== ':memory:' && (!existsSync(file) || statSync(file).isDirectory())) {
    io.failure([`no database at ${file}: give --db or HOGA_DB${simulatorDatabaseHint(flags.db)}`], 2);
    return;
  }
  const db = HogaDatabase.open(file, { migrate: false });
  try {
    const c = db.connection;
    const hasRuns =
      c.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").get() !== undefined;
    let targets: string[] = [];
    if (flags.delete !== undefined) {
      targets = ids(flags.delete);
      // every id checked before any is deleted: a typo or a paper run among them deletes nothing
      const kinds = new Map(
        targets.map((id) => [
          id,
          hasRuns
            ? (c.prepare('SELECT kind FROM runs WHERE run_id = ?').pluck().get(id) as string | undefined)
            : undefined,
        ]),
      );
      const refused = [...kinds].filter(([, kind]) => kind !== undefined && kind !== 'backtest');
      const missing = [...kinds].filter(([, kind]) => kind === undefined).map(([id]) => id);
      const running = targets.flatMap((id) => {
        const owner = kinds.get(id) === 'backtest' ? liveBacktestProcess(c, id) : null;
        return owner === null ? [] : [[id, owner] as const];
      });
      const reasons = [
        ...refused.map(
          ([id, kind]) =>
            `run ${id} is a ${kind} run: its orders and fills are the account's record and are never deleted; only backtests are (hoga db runs --kind backtest lists them)`,
        ),
        ...running.map(([id, owner]) => runningSentence(id, owner)),
        ...missing.map(
          (id) => `no run ${id} in ${file} (hoga db runs lists them)${simulatorDatabaseHint(flags.db)}`,
        ),
      ];
      if (reasons.length > 0) {
        // the headline first: under --json it is the error's message, the reasons its details
        io.failure(['nothing was deleted', ...reasons], refused.length > 0 || running.length > 0 ? 2 : 1);
        return;
      }
    } else if (flags.before !== undefined) {
      const before = DateTime.fromISO(flags.before, { zone: KST_ZONE }).toMillis();
      targets = hasRuns ? backtestRunsStartedBefore(c, before) : [];
    }
    let results: BacktestRemoval[];
    try {
      results = removeBacktestRuns(c, targets);
    } catch (error) {
      if (!isBusy(error)) throw error;
      // one transaction per run: those before the lock are deleted, the rest are not
      io.failure([lockedSentence(file, deletedOf(c, targets, hasRuns))], 1, { code: LOCKED });
      return;
    }
    const done = results.filter(
      (r): r is Extract<BacktestRemoval, { outcome: 'removed' }> => r.outcome === 'removed',
    );
    for (const r of results) {
      // a backtest of --before still running; or one of --delete that started meanwhile
      if (r.outcome === 'running') io.err(runningText(r.runId, r.process));
      // another process deleted one meanwhile (or, never seen, stored a paper run under its id)
      else if (r.outcome !== 'removed')
        io.err(`hoga db: run ${r.runId} was no longer a stored backtest; left alone\n`);
    }
    const left = results.length - done.length;
    // the others are deleted; the exit code says that not all were
    if (results.some((r) => r.outcome === 'running')) io.fail(2);
    const freeBytes =
      (c.pragma('freelist_count', { simple: true }) as number) *
      (c.pragma('page_size', { simple: true }) as number);
    if (flags.vacuum !== true) {
      report(
        { file, done, left, freeBytes, vacuum: null, before: flags.before, db: flags.db },
        flags.json === true,
        io,
      );
      return;
    }
    // VACUUM holds the write lock throughout: a running run's writes (its orders) would wait or fail
    const writing = liveRuns(c);
    if (writing.length > 0) {
      report(
        { file, done, left, freeBytes, vacuum: null, before: flags.before, db: flags.db },
        flags.json === true,
        io,
      );
      io.failure(
        [
          `did not vacuum ${file}: ${runningOnIt(writing)}, and VACUUM holds the file's write lock for its whole length (minutes on a large file), its writes, orders included, waiting or failing meanwhile: run hoga db runs --vacuum again once ${writing.length === 1 ? 'it has' : 'they have'} stopped`,
        ],
        2,
      );
      return;
    }
    const beforeBytes = fileBytes(file);
    try {
      c.exec('VACUUM');
      c.pragma('wal_checkpoint(TRUNCATE)');
    } catch (error) {
      report(
        { file, done, left, freeBytes, vacuum: null, before: flags.before, db: flags.db },
        flags.json === true,
        io,
      );
      io.failure(
        [
          `VACUUM of ${file} failed (${(error as Error).message})${done.length > 0 ? '; the backtests listed are deleted' : ''}: run hoga db runs --vacuum again when no other hoga process uses the file (it needs free disk space about the file's size)`,
        ],
        1,
        isBusy(error) ? { code: LOCKED } : {},
      );
      return;
    }
    const vacuum = { beforeBytes, afterBytes: fileBytes(file) };
    report(
      { file, done, left, freeBytes: 0, vacuum, before: flags.before, db: flags.db },
      flags.json === true,
      io,
    );
  } finally {
    db.close();
  }
}
