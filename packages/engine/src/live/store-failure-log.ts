/**
 * The log of one kind of store write that fails over and over (a full disk refuses every write): the
 * first failure is logged (error) with its cause; its repeats are counted and said together, with
 * the last cause, on the first repeat a minute after the last line (warn), when such a write goes
 * through again (info, once), and at the run's stop ({@link StoreFailureLog.flush}). Before, every
 * denied order of a strategy retrying each bar while the disk was full logged its own error lines
 * ("could not store a denied order", "could not journal an event"), burying the run's own lines.
 *
 * @module
 */
import type { Logger } from '@hoga/core';

/** How long the repeats of a failure are only counted, real ms (the pace of a reader). */
const QUIET_MS = 60_000;

/** What the lines of one kind of write say. */
export interface StoreFailureWords {
  /** The first failure's message, e.g. `could not store a denied order`. */
  readonly first: string;
  /** What could not be written, plural, e.g. `denied orders could not be stored`. */
  readonly more: string;
  /** What could not be written, singular, e.g. `denied order could not be stored`. */
  readonly moreOne: string;
  /** The write going through again, e.g. `denied orders are stored again`. */
  readonly again: string;
}

/** See the module documentation. */
export class StoreFailureLog {
  /** Whether the last write failed. */
  private failing = false;
  /** Failures since the last line, not said yet. */
  private repeats = 0;
  /** The cause of the last failure. */
  private cause = '';
  /** When the last line was logged (real ms). */
  private saidAt = 0;

  /**
   * @param logger - the run's logger
   * @param words - what the lines say
   * @param now - real time, ms (tests give their own)
   */
  constructor(
    private readonly logger: Logger,
    private readonly words: StoreFailureWords,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A write failed: logged with `fields` (and the error, `err`) when it is the first since the last
   * write that went through, else counted.
   */
  failed(error: unknown, fields: Record<string, unknown>): void {
    this.cause = error instanceof Error ? error.message : String(error);
    const now = this.now();
    if (!this.failing) {
      this.failing = true;
      this.saidAt = now;
      this.logger.error({ err: error, ...fields }, this.words.first);
      return;
    }
    this.repeats += 1;
    if (now - this.saidAt >= QUIET_MS) {
      this.saidAt = now;
      this.logger.warn({ repeats: this.repeats, cause: this.cause }, this.moreLine());
      this.repeats = 0;
    }
  }

  /** A write went through: after failures, said once (with `fields`), with the repeats not said yet. */
  stored(fields?: Record<string, unknown>): void {
    if (!this.failing) return;
    const repeats = this.repeats;
    const more = repeats === 0 ? '' : `; ${this.moreLine()}`;
    this.logger.info({ ...fields, repeats, cause: this.cause }, `${this.words.again}${more}`);
    this.failing = false;
    this.repeats = 0;
  }

  /** At the run's stop: the repeats not said yet. */
  flush(): void {
    if (this.repeats === 0) return;
    this.logger.warn({ repeats: this.repeats, cause: this.cause }, this.moreLine());
    this.repeats = 0;
  }

  private moreLine(): string {
    const n = this.repeats;
    return `${n} more ${n === 1 ? this.words.moreOne : this.words.more} (${this.cause})`;
  }
}
