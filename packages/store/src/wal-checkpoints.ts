/**
 * The WAL checkpoints of the hoga database's connection: run now, or on a timer between events
 * instead of inside the commits (see {@link HogaDatabase.deferCheckpoints}), and their counters.
 *
 * @module
 */
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { StoreError, StoreErrorCode } from './store-error.js';

/** What one passive checkpoint found and did. */
export interface CheckpointResult {
  /** Frames in the WAL. */
  readonly walFrames: number;
  /** How many of them are now in the database. */
  readonly checkpointed: number;
}

/** The checkpoints run so far and their time in ms; `failures`: deferred checkpoints that failed. */
export interface CheckpointStats {
  readonly count: number;
  readonly totalMs: number;
  readonly maxMs: number;
  readonly failures: number;
}

/**
 * The checkpoints of one connection, owned by its {@link HogaDatabase}, which delegates to it. Does
 * nothing for `:memory:`.
 */
export class WalCheckpoints {
  private timer: NodeJS.Timeout | undefined;
  private counts: CheckpointStats = { count: 0, totalMs: 0, maxMs: 0, failures: 0 };
  /** `total_changes()` after the last deferred checkpoint (null: none yet). */
  private changesAfterCheckpoint: number | null = null;
  private statements:
    | { readonly changes: Database.Statement; readonly restart: Database.Statement }
    | undefined;

  /**
   * @param connection - the database's connection
   * @param file - the database's file, or `:memory:`
   */
  constructor(
    private readonly connection: Database.Database,
    private readonly file: string,
  ) {}

  /**
   * Turns off SQLite's automatic checkpoint and starts the timer (replacing a running one); see
   * {@link HogaDatabase.deferCheckpoints}.
   *
   * @param intervalMs - time between checkpoints
   * @param onError - told of each failed checkpoint
   * @throws {@link StoreError} `invalid-argument` for an interval that is not a positive number
   */
  defer(intervalMs: number, onError: ((error: unknown) => void) | undefined): void {
    if (this.file === ':memory:') return;
    if (!Number.isFinite(intervalMs) || intervalMs <= 0) {
      throw new StoreError(
        StoreErrorCode.INVALID_ARGUMENT,
        `checkpoint interval: expected a positive number of ms, found ${intervalMs}`,
      );
    }
    this.stop();
    this.connection.pragma('wal_autocheckpoint = 0');
    this.timer = setInterval(() => {
      try {
        this.deferredCheckpoint();
      } catch (error) {
        this.changesAfterCheckpoint = null;
        this.counts = { ...this.counts, failures: this.counts.failures + 1 };
        try {
          onError?.(error);
        } catch {
          // a listener's own failure must not end the process either
        }
      }
    }, intervalMs);
    this.timer.unref();
  }

  /**
   * The timer's checkpoint. Once SQLite has copied every WAL frame back, the next commit reuses the
   * WAL from its start, and with `synchronous=NORMAL` SQLite fsyncs the WAL header when it does (a
   * few hundred µs on a disk): that fell on the first write after each checkpoint, often an order's
   * write-before-send. So the WAL is started over here, between events, by rewriting page 1 with
   * nothing changed in it (the restart, its header fsync and one frame), and the next commit appends. With
   * nothing written since the last one, a tick does nothing: an idle database is not written to,
   * and the frame left in the WAL keeps the next commit from restarting it.
   */
  private deferredCheckpoint(): void {
    const c = this.connection;
    if (!c.open || c.inTransaction) return;
    this.statements ??= {
      changes: c.prepare('SELECT total_changes()').pluck(),
      // The file's own application id written again: page 1 is rewritten (an unchanged row is not).
      restart: c.prepare(`PRAGMA application_id = ${Number(c.pragma('application_id', { simple: true }))}`),
    };
    const { changes, restart } = this.statements;
    if (changes.get() === this.changesAfterCheckpoint) return;
    const t0 = performance.now();
    const done = this.passiveCheckpoint();
    const complete = done.walFrames > 0 && done.checkpointed === done.walFrames;
    // A checkpoint a reader held back, or a restart another writer's lock held back, is tried again
    // at the next tick.
    this.changesAfterCheckpoint = complete && this.restartWal(restart) ? (changes.get() as number) : null;
    this.countCheckpoint(performance.now() - t0);
  }

  /**
   * Runs the write that starts the WAL over unless another connection holds the write lock: a timer
   * tick never waits for one (the busy timeout is 0 for it). Returns whether it ran.
   */
  private restartWal(restart: Database.Statement): boolean {
    const c = this.connection;
    const timeout = c.pragma('busy_timeout', { simple: true }) as number;
    c.pragma('busy_timeout = 0');
    try {
      restart.run();
      return true;
    } catch (e) {
      if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return false;
      throw e;
    } finally {
      c.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** Runs a passive checkpoint now and counts it; see {@link HogaDatabase.checkpoint}. */
  checkpoint(): CheckpointResult {
    if (!this.connection.open || this.file === ':memory:') return { walFrames: 0, checkpointed: 0 };
    const t0 = performance.now();
    const done = this.passiveCheckpoint();
    this.countCheckpoint(performance.now() - t0);
    return done;
  }

  private passiveCheckpoint(): CheckpointResult {
    const row = this.connection.pragma('wal_checkpoint(PASSIVE)') as {
      busy: number;
      log: number;
      checkpointed: number;
    }[];
    return { walFrames: row[0]?.log ?? 0, checkpointed: row[0]?.checkpointed ?? 0 };
  }

  private countCheckpoint(ms: number): void {
    this.counts = {
      ...this.counts,
      count: this.counts.count + 1,
      totalMs: this.counts.totalMs + ms,
      maxMs: Math.max(this.counts.maxMs, ms),
    };
  }

  /** The counters; see {@link HogaDatabase.checkpointStats}. */
  get stats(): CheckpointStats {
    return this.counts;
  }

  /** Stops the timer (if any). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
