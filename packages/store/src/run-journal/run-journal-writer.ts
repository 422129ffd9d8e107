/**
 * A run's order journal written off the main thread: the engine hands over each order event as a
 * compact record (a few strings and numbers pushed onto an array, decimals as their plain text),
 * and a worker thread with a connection of its own folds them into one `OrderSummary` journal entry
 * per order and, for a stored run, one `run_trades` row per fill, and commits them in batches while
 * the run goes on. A backtest's store work then costs its main thread little more than the pushes;
 * on a machine with two cores, the writes run beside it.
 *
 * An in-memory database, or a Node that cannot load the thread's TypeScript (before 22.18, outside
 * the CLI's bundle), is written on the calling thread by the same {@link RunJournalSink}.
 * A write that fails (a full disk, a lock held past the busy timeout) stops the writer: the records
 * after it are dropped, and {@link RunJournalWriter.close} rejects with a {@link StoreError}.
 *
 * @module
 */
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HogaDatabase } from '../hoga-database.js';
import { StoreError, StoreErrorCode } from '../store-error.js';
import type { TradingMode } from '../trading-mode.js';
import {
  type RecordedDecimal,
  type RecordedType,
  RUN_JOURNAL_EVENT_TYPES,
  RunJournalRecord,
} from './run-journal-record.js';
import { RunJournalSink } from './run-journal-sink.js';
import type { RunJournalMessage, RunJournalReply, RunJournalThreadData } from './run-journal-thread.js';

const TYPE_CODES: ReadonlyMap<string, number> = new Map(RUN_JOURNAL_EVENT_TYPES.map((t, i) => [t, i]));

/** An event type as its code, when it has one. */
function codeOf(type: string): RecordedType {
  return TYPE_CODES.get(type) ?? type;
}

/** Options of {@link RunJournalWriter.open}. */
export interface RunJournalWriterOptions {
  /** The mode written on each journal entry. */
  readonly mode: TradingMode;
  /** The stored run whose trades the fills are (its `runs` row written first), or none. */
  readonly runId?: string | null | undefined;
  /**
   * Write from a worker thread (default: yes for a database file when this Node can load the
   * thread; an in-memory database is always written on the calling thread).
   */
  readonly thread?: boolean | undefined;
  /**
   * Records' values buffered before a batch is sent (default 4,096: about 140 orders; small batches
   * die young in the main thread's heap instead of being copied into its old generation).
   */
  readonly batchValues?: number | undefined;
  /** How long the thread's statements wait for another connection's lock (default 5,000 ms). */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * Whether the thread runs at the lowest CPU priority (Linux, where a thread has its own; default
   * no): for a writer whose rows can wait while the calling thread runs, as a backtest's, whose
   * main thread is its critical path. Every row is still committed before {@link RunJournalWriter.close} answers.
   */
  readonly background?: boolean | undefined;
}

/** Values of the longest record (`FILLED`: its code and twelve values). */
const LONGEST_RECORD = 13;

/** Whether this module runs from the CLI's bundle (`dist/b-…/`, its thread beside the chunks). */
function bundled(): boolean {
  return (import.meta as { HOGA_BUNDLED?: boolean }).HOGA_BUNDLED === true;
}

/** Whether this Node can run the thread's module (its TypeScript needs Node's type stripping). */
function canRunThread(): boolean {
  return bundled() || Boolean((process.features as { typescript?: unknown }).typescript);
}

/**
 * The thread's environment: the process's, with Node's compile cache on unless the user set or
 * disabled it: from the CLI's bundle, beside the build (`dist/b-…/.compile-cache`, removed with it:
 * in Node's default place each build left its entries for ever), else in Node's default place.
 * Node strips the thread's TypeScript with a WebAssembly compiler it loads in every thread that
 * needs it (about 60 ms of a core at each start); the cache keeps the stripped module and its
 * compiled code from one start to the next.
 */
function threadEnv(): NodeJS.ProcessEnv {
  const env = process.env;
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return env;
  const place = bundled()
    ? join(dirname(fileURLToPath(import.meta.url)), '.compile-cache')
    : join(tmpdir(), 'node-compile-cache');
  return { ...env, NODE_COMPILE_CACHE: place };
}

/**
 * Buffers a run's order records and writes them from a worker thread (or in place).
 *
 * @example
 * ```ts
 * const writer = RunJournalWriter.open(db, { mode: 'backtest', runId });
 * writer.order(true, 'bt-1', 'sma', t, '005930', 'BUY', 'MARKET', null, '10', null);
 * writer.event('OrderAccepted', 'bt-1', 'sma', t, t);
 * writer.filled('OrderFilled', 'bt-1', 'sma', t2, t2, '005930', 'BUY', '10', '70000', 'KRW', '105', '0');
 * await writer.close(); // every row committed, or a StoreError
 * ```
 */
export class RunJournalWriter {
  /**
   * The batch being filled: its first `count` values. One packed array for the writer's life, each
   * batch sent as a copy of its used part: an array grown by `push` to a few thousand values would
   * be copied a dozen times on the way, for every batch (23 of the 251 MB the daily bench allocated
   * per run; the copies sent are 11 MB).
   */
  private readonly buffer: unknown[];
  private count = 0;
  private failure: StoreError | null = null;
  private closing: Promise<void> | null = null;
  private readonly worker: Worker | null;
  private readonly sink: RunJournalSink | null;
  private readonly batchValues: number;
  private settled: (() => void) | null = null;
  /** Whether the thread answered the close (it ended having committed everything). */
  private closed = false;

  private constructor(db: HogaDatabase, options: RunJournalWriterOptions) {
    this.batchValues = Math.max(1, options.batchValues ?? 4_096);
    // room for a full batch and the longest record after it; filled by push, so that it is packed
    this.buffer = [];
    for (let i = 0; i < this.batchValues + LONGEST_RECORD; i++) this.buffer.push(null);
    const target = { mode: options.mode, runId: options.runId ?? null };
    if ((options.thread ?? canRunThread()) && db.file !== ':memory:') {
      const data: RunJournalThreadData = {
        ...target,
        hogaRunJournal: true,
        file: db.file,
        busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
        background: options.background ?? false,
      };
      const url = new URL(
        bundled() ? './run-journal-thread.mjs' : './run-journal-thread.ts',
        import.meta.url,
      );
      // the thread's module needs none of the parent's flags (a loader such as tsx); it runs with
      // Node's compile cache, where its TypeScript is stripped once instead of at every start
      const worker = new Worker(url, { workerData: data, execArgv: [], env: threadEnv() });
      // a writer left open never holds the process; close() holds it while it waits
      worker.unref();
      worker.on('message', (reply: RunJournalReply) => {
        if (reply.kind === 'closed') {
          this.closed = true;
          this.settle();
        } else if (reply.kind === 'failed') this.fail(reply.message, reply.code);
      });
      worker.on('error', (error) => this.fail(error.message, errorCodeOf(error), error));
      worker.on('exit', (code) => {
        if (!this.closed)
          this.fail(`the journal thread stopped (exit code ${code}) before its rows were written`, null);
      });
      this.worker = worker;
      this.sink = null;
    } else {
      this.worker = null;
      this.sink = new RunJournalSink(db.connection, target);
    }
  }

  /**
   * Opens a writer on a hoga database (open and migrated; a stored run's row already written).
   *
   * @param db - the database
   * @param options - see {@link RunJournalWriterOptions}
   */
  static open(db: HogaDatabase, options: RunJournalWriterOptions): RunJournalWriter {
    return new RunJournalWriter(db, options);
  }

  /** Whether a worker thread writes the rows. */
  get threaded(): boolean {
    return this.worker !== null;
  }

  /** The first failed write, or null. */
  get error(): StoreError | null {
    return this.failure;
  }

  /**
   * An order and what it asked for (decimals as plain text, null when not applicable): submitted
   * (its `OrderSubmitted` event), or, `submitted` false, denied before it reached the venue (its
   * summary keeps the intent with no submission among its events; its denial follows through
   * {@link RunJournalWriter.reason}).
   */
  order(
    submitted: boolean,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
    symbol: string,
    side: string,
    orderType: string,
    price: RecordedDecimal | null,
    quantity: RecordedDecimal | null,
    amount: RecordedDecimal | null,
  ): void {
    const code = submitted ? RunJournalRecord.SUBMITTED : RunJournalRecord.INTENT;
    const v = this.buffer;
    const n = this.count;
    v[n] = code;
    v[n + 1] = clientOrderId;
    v[n + 2] = strategyId;
    v[n + 3] = tsEvent;
    v[n + 4] = symbol;
    v[n + 5] = side;
    v[n + 6] = orderType;
    v[n + 7] = price;
    v[n + 8] = quantity;
    v[n + 9] = amount;
    this.count = n + 10;
    this.sendIfFull();
  }

  /** Any other event of an order with nothing more to keep (accepted, expired, a modify asked for …). */
  event(
    type: string,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
    tsInit: number,
  ): void {
    this.count = this.begin(RunJournalRecord.EVENT, type, clientOrderId, strategyId, tsEvent, tsInit);
    this.sendIfFull();
  }

  /** An order modified: its new price or quantity (null: unchanged). */
  modified(
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
    tsInit: number,
    price: RecordedDecimal | null,
    quantity: RecordedDecimal | null,
  ): void {
    const v = this.buffer;
    const n = this.count;
    v[n] = RunJournalRecord.MODIFIED;
    v[n + 1] = clientOrderId;
    v[n + 2] = strategyId;
    v[n + 3] = tsEvent;
    v[n + 4] = tsInit;
    v[n + 5] = price;
    v[n + 6] = quantity;
    this.count = n + 7;
    this.sendIfFull();
  }

  /** A fill (`OrderFilled` or `OrderPartiallyFilled`); also a trade of the stored run, if any. */
  filled(
    type: string,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
    tsInit: number,
    symbol: string,
    side: string,
    quantity: RecordedDecimal,
    price: RecordedDecimal,
    currency: string,
    commission: RecordedDecimal,
    tax: RecordedDecimal,
  ): void {
    const n = this.begin(RunJournalRecord.FILLED, type, clientOrderId, strategyId, tsEvent, tsInit);
    const v = this.buffer;
    v[n] = symbol;
    v[n + 1] = side;
    v[n + 2] = quantity;
    v[n + 3] = price;
    v[n + 4] = currency;
    v[n + 5] = commission;
    v[n + 6] = tax;
    this.count = n + 7;
    this.sendIfFull();
  }

  /** An event that gives the order a reason (a rejection, a denial, a cancel; null: none). */
  reason(
    type: string,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
    tsInit: number,
    reason: string | null,
  ): void {
    const n = this.begin(RunJournalRecord.REASON, type, clientOrderId, strategyId, tsEvent, tsInit);
    this.buffer[n] = reason;
    this.count = n + 1;
    this.sendIfFull();
  }

  /** Journals the orders still open as they stand and sends everything buffered. */
  flush(): void {
    const v = this.buffer;
    const n = this.count;
    v[n] = RunJournalRecord.FLUSH;
    this.count = n + 1;
    this.send();
  }

  /**
   * Sends what is buffered and stops: resolves once every row is committed.
   *
   * @throws {@link StoreError} `write-failed` when a write failed (the rows after it were not written)
   */
  close(): Promise<void> {
    if (this.closing === null) {
      this.send();
      this.closing = this.finish();
    }
    return this.closing;
  }

  /**
   * Writes the start the event records share (`EVENT`, `FILLED`, `REASON`: their code, the event's
   * type, order, strategy and times) after the buffered values; answers where the record's own
   * values go.
   */
  private begin(
    code: number,
    type: string,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
    tsInit: number,
  ): number {
    const v = this.buffer;
    const n = this.count;
    v[n] = code;
    v[n + 1] = codeOf(type);
    v[n + 2] = clientOrderId;
    v[n + 3] = strategyId;
    v[n + 4] = tsEvent;
    v[n + 5] = tsInit;
    return n + 6;
  }

  private sendIfFull(): void {
    if (this.count >= this.batchValues) this.send();
  }

  private send(): void {
    const count = this.count;
    this.count = 0;
    if (count === 0 || this.failure !== null || this.closing !== null) return;
    // a packed copy (sent densely, as the structured clone writes a packed array)
    const values = this.buffer.slice(0, count);
    if (this.worker === null) {
      try {
        this.sink?.write(values);
      } catch (error) {
        this.fail(error instanceof Error ? error.message : String(error), errorCodeOf(error), error);
      }
      return;
    }
    const message: RunJournalMessage = { kind: 'records', values };
    this.worker.postMessage(message);
  }

  private async finish(): Promise<void> {
    const worker = this.worker;
    if (worker !== null) {
      if (this.failure === null) {
        const done = new Promise<void>((resolve) => {
          this.settled = resolve;
        });
        worker.ref();
        const message: RunJournalMessage = { kind: 'close' };
        worker.postMessage(message);
        await done;
      }
      await worker.terminate();
    }
    if (this.failure !== null) throw this.failure;
  }

  private fail(message: string, code: string | null, cause?: unknown): void {
    if (this.failure === null) {
      this.failure = new StoreError(
        StoreErrorCode.WRITE_FAILED,
        `writing the run's journal failed${code === null ? '' : ` (${code})`}: ${message}`,
        cause === undefined ? {} : { cause },
      );
    }
    this.settle();
  }

  private settle(): void {
    const settled = this.settled;
    this.settled = null;
    settled?.();
  }
}

function errorCodeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}
