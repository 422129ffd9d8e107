/**
 * The writes of one kind a live or paper run keeps in the store beside its orders (a denied order's
 * row, a journal line), kept in memory while the store refuses them and written once it takes
 * them again: a write the store refuses (a full disk, an I/O error, the file locked by another
 * process past the busy timeout) is kept, with every one after it, in order; while the store
 * refuses (or another writer saw it refuse: the paper store), a new one is only kept (no write
 * tried), and what is kept is tried again, all in one
 * transaction, with the first new one after a pause (1 s, doubled after each refused try, at most
 * 30 s; call {@link StoreWriteBacklog.retry} to try without a new one). The first refused write is
 * logged with its cause, the refused tries counted ({@link StoreFailureLog}); the stop tries once
 * more ({@link StoreWriteBacklog.flush}) and logs what is still not stored.
 *
 * Before, each write was tried at once, one by one: while the file was locked, each blocked the
 * run's event loop (better-sqlite3 is synchronous) for the whole busy timeout (5 s by default),
 * so a strategy retrying an order every bar froze the run 10 s a denial (its row, its journal
 * line); and a write refused was lost.
 *
 * A write the store refuses for itself ({@link StoreError}: a duplicate `clientOrderId`, say) is
 * not the store's refusal of every write: it is logged and dropped, the others written.
 *
 * @module
 */
import type { Logger } from '@hoga/core';
import { type HogaDatabase, StoreError } from '@hoga/store';
import { RetryPause } from './retry-pause.js';
import { StoreFailureLog, type StoreFailureWords } from './store-failure-log.js';

/** The most writes kept; beyond, the oldest is dropped (and said at the stop). */
export const MAX_KEPT_WRITES = 10_000;

/** What the log lines of a backlog say ({@link StoreFailureWords}, its repeats being refused tries). */
export interface BacklogWords extends StoreFailureWords {
  /** What the stop left unstored, e.g. `denied orders are not stored (the store refused them to the stop)`. */
  readonly lost: string;
}

/** How the writes of one kind are made. */
export interface BacklogWriter<T> {
  /** Writes one (inside the batch's transaction). */
  write(item: T): void;
  /** What names one in the log. */
  fields(item: T): Record<string, unknown>;
  /** Whether a batch is committed durably (`synchronous=FULL`). */
  readonly durable: boolean;
}

/** See the module documentation. */
export class StoreWriteBacklog<T> {
  /** The writes not stored yet, in order. */
  private readonly kept: T[] = [];
  private readonly log: StoreFailureLog;
  /** When the next write is tried after a refused one. */
  private readonly pause: RetryPause;
  /** Kept writes dropped for the bound. */
  private dropped = 0;
  /** Tries the store refused since it last took one. */
  private tries = 0;

  /**
   * @param db - the run's store
   * @param writer - how one write is made
   * @param logger - the run's logger
   * @param words - what the log lines say
   * @param held - whether another writer of the store saw it refuse its last write (the paper
   *   store): then writes are kept, not tried, until it takes writes again
   * @param now - real time, ms (tests give their own)
   */
  constructor(
    private readonly db: Pick<HogaDatabase, 'transaction' | 'durableTransaction' | 'withoutBusyWait'>,
    private readonly writer: BacklogWriter<T>,
    private readonly logger: Logger,
    private readonly words: BacklogWords,
    private readonly held: () => boolean = () => false,
    now: () => number = () => performance.now(),
  ) {
    this.log = new StoreFailureLog(logger, words, now);
    this.pause = new RetryPause(now);
  }

  /** How many writes are kept, not stored yet. */
  get size(): number {
    return this.kept.length;
  }

  /** Writes `item` now, after those kept; or, while the store refuses and the pause is not over, keeps it. */
  add(item: T): void {
    if (this.kept.length >= MAX_KEPT_WRITES) {
      this.kept.shift();
      this.dropped += 1;
    }
    this.kept.push(item);
    if (this.pause.due() && !this.held()) this.write();
  }

  /** Tries what is kept, once the pause is over (cheap when nothing is kept). */
  retry(): void {
    if (this.kept.length > 0 && this.pause.due() && !this.held()) this.write();
  }

  /** At the run's stop: tries what is kept once more and logs what is still not stored. */
  flush(): void {
    if (this.kept.length > 0) this.write();
    this.log.flush();
    const lost = this.kept.length + this.dropped;
    if (lost === 0) return;
    this.logger.error({ writes: lost, dropped: this.dropped }, `${lost} ${this.words.lost}`);
    this.kept.length = 0;
    this.dropped = 0;
  }

  /** Writes what is kept in one transaction; one by one when one of them is refused for itself. */
  private write(): void {
    try {
      this.batch(this.kept);
      this.done(this.kept.length);
      this.kept.length = 0;
    } catch (error) {
      if (error instanceof StoreError) this.writeEach();
      else this.refused(error);
    }
  }

  private writeEach(): void {
    let stored = 0;
    while (this.kept.length > 0) {
      const item = this.kept[0] as T;
      try {
        this.batch([item]);
        stored += 1;
      } catch (error) {
        if (!(error instanceof StoreError)) {
          this.refused(error);
          return;
        }
        // refused for itself: never stored, logged on its own
        this.logger.error({ err: error, ...this.writer.fields(item) }, this.words.first);
      }
      this.kept.shift();
    }
    this.done(stored);
  }

  /** Writes `items` in one transaction; a retry after a refused try does not wait for a locked file. */
  private batch(items: readonly T[]): void {
    const writeAll = () => {
      for (const item of items) this.writer.write(item);
    };
    const commit = () =>
      this.writer.durable ? this.db.durableTransaction(writeAll) : this.db.transaction(writeAll);
    if (this.pause.refusing) this.db.withoutBusyWait(commit);
    else commit();
  }

  private done(stored: number): void {
    this.log.stored({ stored, tries: this.tries });
    this.tries = 0;
    this.pause.stored();
  }

  private refused(error: unknown): void {
    this.tries += 1;
    this.log.failed(error, { kept: this.kept.length, ...this.writer.fields(this.kept[0] as T) });
    this.pause.refused();
  }
}
