/**
 * The writing side of {@link RunJournalWriter}: a run's order events arrive as compact records
 * (flat arrays of strings, numbers and null), are folded into one `OrderSummary` journal entry per
 * order (written when the order ends) and, for a stored run, one `run_trades` row per fill, and are
 * inserted in one transaction per batch, many rows per INSERT. In a worker thread it owns a
 * connection of its own to the database file and answers each batch once it is committed; on the
 * calling thread (an in-memory database, a Node that cannot load this file in a worker) the writer
 * uses {@link RunJournalSink} directly.
 *
 * Node loads this file in the worker as it is, with its own type stripping: it imports nothing but
 * `node:` modules and `better-sqlite3`, and uses only erasable TypeScript (no parameter properties,
 * enums or namespaces). The CLI's bundle builds it as a second entry
 * (`dist/b-…/run-journal-thread.mjs`).
 *
 * @module
 */
import { isMainThread, parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * The payload of an `OrderSummary` journal entry (decimals as strings, times epoch ms): what an
 * order's events said, the intent, each event's type and time, every fill with its commission and
 * tax, the final state and any reason.
 */
export interface OrderSummary {
  clientOrderId: string;
  strategyId: string | null;
  symbol: string;
  side: string;
  orderType: string;
  /** Limit price, quantity or amount as ordered (strings), null when not applicable. */
  price: string | null;
  quantity: string | null;
  amount: string | null;
  /** The last state-changing event's type (`OrderFilled`, `OrderCanceled`, …). */
  last: string;
  /** Every event as `[type, tsEvent]`, in order. */
  events: [string, number][];
  /** Every fill as `[tsEvent, quantity, price, commission, tax]`. */
  fills: [number, string, string, string, string][];
  /** Why it was denied, rejected or canceled, when it was. */
  reason: string | null;
}

/**
 * Event types sent as their index here (a number clones cheaper than a string); a type not listed
 * is sent as its name.
 */
export const RUN_JOURNAL_EVENT_TYPES: readonly string[] = [
  'OrderSubmitted',
  'OrderAccepted',
  'OrderFilled',
  'OrderPartiallyFilled',
  'OrderRejected',
  'OrderDenied',
  'OrderCanceled',
  'OrderExpired',
  'OrderModified',
  'OrderModifyRequested',
  'OrderModifyRejected',
  'OrderCancelRequested',
  'OrderCancelRejected',
];

/**
 * A record's event type: its index in {@link RUN_JOURNAL_EVENT_TYPES}, or its name. A record's
 * decimal: a safe integer as a number (whole won, whole shares: written back as the same digits),
 * or its plain text.
 */
export type RecordedType = number | string;
/** See {@link RecordedType}. */
export type RecordedDecimal = number | string;

function typeOf(v: unknown): string {
  return typeof v === 'number' ? (RUN_JOURNAL_EVENT_TYPES[v] ?? String(v)) : (v as string);
}

function textOf(v: unknown): string {
  return typeof v === 'number' ? String(v) : (v as string);
}

function nullableTextOf(v: unknown): string | null {
  return v === null ? null : textOf(v);
}

/**
 * Record codes: each record is its code followed by its values (types and decimals as above).
 * - `SUBMITTED`: clientOrderId, strategyId, tsEvent, symbol, side, orderType, price, quantity, amount
 * - `INTENT`: the same values as `SUBMITTED`, for an order that was never submitted (denied before
 *   it reached the venue): what it asked for, with no event of its own (its denial follows)
 * - `EVENT`: type, clientOrderId, strategyId, tsEvent, tsInit (any event with nothing more to keep)
 * - `MODIFIED`: clientOrderId, strategyId, tsEvent, tsInit, price, quantity
 * - `FILLED`: type, clientOrderId, strategyId, tsEvent, tsInit, symbol, side, quantity, price,
 *   currency, commission, tax
 * - `REASON`: type, clientOrderId, strategyId, tsEvent, tsInit, reason (rejections, denials, cancels)
 * - `FLUSH`: nothing (the orders still open are journalled as they stand)
 */
export const RunJournalRecord = {
  SUBMITTED: 1,
  EVENT: 2,
  MODIFIED: 3,
  FILLED: 4,
  REASON: 5,
  FLUSH: 6,
  INTENT: 7,
} as const;

/** What the main thread sends: records, or the end (close the connection and stop). */
export type RunJournalMessage =
  | { readonly kind: 'records'; readonly values: unknown[] }
  | { readonly kind: 'close' };

/** What the thread answers: closed (everything committed), or the first failure (then it stops). */
export type RunJournalReply =
  | { readonly kind: 'closed' }
  | { readonly kind: 'failed'; readonly message: string; readonly code: string | null };

/** What the sink writes: the journal's mode, and the stored run the fills are trades of (if any). */
export interface RunJournalTarget {
  readonly mode: string;
  /** The run whose `run_trades` get one row per fill (its `runs` row must exist), or null. */
  readonly runId: string | null;
}

/** What the thread is started with. */
export interface RunJournalThreadData extends RunJournalTarget {
  readonly hogaRunJournal: true;
  /** The database file (already created and migrated by the main thread). */
  readonly file: string;
  readonly busyTimeoutMs: number;
}

const TERMINAL: ReadonlySet<string> = new Set([
  'OrderFilled',
  'OrderRejected',
  'OrderDenied',
  'OrderCanceled',
  'OrderExpired',
]);

/** Values per journal row: strategy_id, client_order_id, ts_event, ts_init, payload (type and mode are the statement's). */
const JOURNAL_WIDTH = 5;
/** Values per trade row: seq, time, strategy_id, symbol, side, quantity, price, currency, commission, tax (run_id is the statement's). */
const TRADE_WIDTH = 10;
/**
 * Rows the thread gathers before it commits (held in memory, not in an open transaction: another
 * connection's writes never wait for it), all that remain once no batch came for
 * {@link IDLE_COMMIT_MS}, and all at the close.
 */
const ROWS_PER_COMMIT = 4_096;
const IDLE_COMMIT_MS = 20;
/** Rows per INSERT statement (5 × 256 and 10 × 128 bound values, well under SQLite's 32,766). */
const JOURNAL_ROWS_PER_INSERT = 256;
const TRADE_ROWS_PER_INSERT = 128;

/** `text` as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * An INSERT of `rows` rows into `target` (`table (columns)`): each row the `fixed` SQL values
 * (the same in every row of a run: written once into the statement rather than bound per row),
 * then `width` bound values.
 */
function insertSql(target: string, fixed: readonly string[], width: number, rows: number): string {
  const tuple = `(${[...fixed, ...new Array<string>(width).fill('?')].join(', ')})`;
  return `INSERT INTO ${target} VALUES ${new Array<string>(rows).fill(tuple).join(', ')}`;
}

/** Inserts rows of one table, `perInsert` rows per statement, the rest one by one. */
class TableInserter {
  private readonly block: Database.Statement;
  private readonly one: Database.Statement;
  private readonly width: number;
  private readonly perInsert: number;

  constructor(
    db: Database.Database,
    target: string,
    fixed: readonly string[],
    width: number,
    perInsert: number,
  ) {
    this.block = db.prepare(insertSql(target, fixed, width, perInsert));
    this.one = db.prepare(insertSql(target, fixed, width, 1));
    this.width = width;
    this.perInsert = perInsert;
  }

  insert(values: readonly unknown[]): void {
    const { width, perInsert } = this;
    const rows = Math.floor(values.length / width);
    let row = 0;
    for (; row + perInsert <= rows; row += perInsert) {
      this.block.run(values.slice(row * width, (row + perInsert) * width));
    }
    for (; row < rows; row++) this.one.run(values.slice(row * width, (row + 1) * width));
  }
}

/**
 * Folds records into journal and trade rows and writes each batch of them in one transaction (on
 * whichever thread owns `db`).
 */
export class RunJournalSink {
  private readonly db: Database.Database;
  private readonly target: RunJournalTarget;
  private readonly journal: TableInserter;
  private readonly trades: TableInserter;
  private readonly open = new Map<string, OrderSummary>();
  private tradeSeq = 0;
  private journalRows: unknown[] = [];
  private tradeRows: unknown[] = [];

  /**
   * @param db - an open connection to a migrated hoga database
   * @param target - the journal's mode and the stored run, if any
   */
  constructor(db: Database.Database, target: RunJournalTarget) {
    this.db = db;
    this.target = target;
    this.journal = new TableInserter(
      db,
      'journal (type, mode, strategy_id, client_order_id, ts_event, ts_init, payload)',
      [sqlText('OrderSummary'), sqlText(target.mode)],
      JOURNAL_WIDTH,
      JOURNAL_ROWS_PER_INSERT,
    );
    this.trades = new TableInserter(
      db,
      'run_trades (run_id, seq, time, strategy_id, symbol, side, quantity, price, currency, commission, tax)',
      [target.runId === null ? 'NULL' : sqlText(target.runId)],
      TRADE_WIDTH,
      TRADE_ROWS_PER_INSERT,
    );
  }

  /** Folds one batch of records and commits the rows they completed. */
  write(values: readonly unknown[]): void {
    this.fold(values);
    this.commit();
  }

  /** Rows folded and not committed yet. */
  get pendingRows(): number {
    return this.journalRows.length / JOURNAL_WIDTH + this.tradeRows.length / TRADE_WIDTH;
  }

  /** Commits the rows the records folded so far completed, in one transaction. */
  commit(): void {
    const journal = this.journalRows;
    const trades = this.tradeRows;
    if (journal.length === 0 && trades.length === 0) return;
    this.journalRows = [];
    this.tradeRows = [];
    this.db.transaction(() => {
      // a trade's run row exists before the run starts; the journal has no foreign key
      this.trades.insert(trades);
      this.journal.insert(journal);
    })();
  }

  /** Folds a batch of records into the open summaries and the completed rows (nothing written yet). */
  fold(v: readonly unknown[]): void {
    const n = v.length;
    let i = 0;
    while (i < n) {
      const code = v[i++] as number;
      switch (code) {
        case RunJournalRecord.SUBMITTED:
        case RunJournalRecord.INTENT: {
          const clientOrderId = v[i] as string;
          const strategyId = v[i + 1] as string | null;
          const s =
            code === RunJournalRecord.SUBMITTED
              ? this.summary('OrderSubmitted', clientOrderId, strategyId, v[i + 2] as number)
              : this.opened(clientOrderId, strategyId);
          s.symbol = v[i + 3] as string;
          s.side = v[i + 4] as string;
          s.orderType = v[i + 5] as string;
          s.price = nullableTextOf(v[i + 6]);
          s.quantity = nullableTextOf(v[i + 7]);
          s.amount = nullableTextOf(v[i + 8]);
          i += 9;
          break;
        }
        case RunJournalRecord.EVENT: {
          const type = typeOf(v[i]);
          this.summary(type, v[i + 1] as string, v[i + 2] as string | null, v[i + 3] as number);
          this.closeIfTerminal(type, v[i + 1] as string, v[i + 3] as number, v[i + 4] as number);
          i += 5;
          break;
        }
        case RunJournalRecord.MODIFIED: {
          const s = this.summary(
            'OrderModified',
            v[i] as string,
            v[i + 1] as string | null,
            v[i + 2] as number,
          );
          if (v[i + 4] !== null) s.price = textOf(v[i + 4]);
          if (v[i + 5] !== null) s.quantity = textOf(v[i + 5]);
          i += 6;
          break;
        }
        case RunJournalRecord.FILLED: {
          this.filled(v, i);
          i += 12;
          break;
        }
        case RunJournalRecord.REASON: {
          const type = typeOf(v[i]);
          const s = this.summary(type, v[i + 1] as string, v[i + 2] as string | null, v[i + 3] as number);
          s.reason = v[i + 5] as string | null;
          this.closeIfTerminal(type, v[i + 1] as string, v[i + 3] as number, v[i + 4] as number);
          i += 6;
          break;
        }
        case RunJournalRecord.FLUSH: {
          for (const summary of [...this.open.values()]) {
            const last = summary.events[summary.events.length - 1];
            this.close(summary, last?.[1] ?? 0, last?.[1] ?? 0);
          }
          break;
        }
        default:
          throw new Error(`run journal: unknown record code ${String(code)} at value ${i - 1}`);
      }
    }
  }

  private filled(v: readonly unknown[], i: number): void {
    const type = typeOf(v[i]);
    const clientOrderId = v[i + 1] as string;
    const strategyId = v[i + 2] as string | null;
    const tsEvent = v[i + 3] as number;
    const symbol = v[i + 5] as string;
    const side = v[i + 6] as string;
    const quantity = textOf(v[i + 7]);
    const price = textOf(v[i + 8]);
    const commission = textOf(v[i + 10]);
    const tax = textOf(v[i + 11]);
    const s = this.summary(type, clientOrderId, strategyId, tsEvent);
    s.symbol = symbol;
    s.side = side;
    s.fills.push([tsEvent, quantity, price, commission, tax]);
    const runId = this.target.runId;
    if (runId !== null) {
      this.tradeRows.push(
        this.tradeSeq++,
        tsEvent,
        strategyId,
        symbol,
        side,
        quantity,
        price,
        v[i + 9],
        commission,
        tax,
      );
    }
    this.closeIfTerminal(type, clientOrderId, tsEvent, v[i + 4] as number);
  }

  /** The open summary of an order (made at its first event) with the event appended. */
  private summary(
    type: string,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
  ): OrderSummary {
    const s = this.opened(clientOrderId, strategyId);
    s.events.push([type, tsEvent]);
    s.last = type;
    return s;
  }

  /** The open summary of an order, made (with no event yet) at its first record. */
  private opened(clientOrderId: string, strategyId: string | null): OrderSummary {
    let s = this.open.get(clientOrderId);
    if (s === undefined) {
      s = {
        clientOrderId,
        strategyId,
        symbol: '',
        side: '',
        orderType: '',
        price: null,
        quantity: null,
        amount: null,
        last: '',
        events: [],
        fills: [],
        reason: null,
      };
      this.open.set(clientOrderId, s);
    }
    return s;
  }

  private closeIfTerminal(type: string, clientOrderId: string, tsEvent: number, tsInit: number): void {
    if (!TERMINAL.has(type)) return;
    const s = this.open.get(clientOrderId);
    if (s !== undefined) this.close(s, tsEvent, tsInit);
  }

  private close(s: OrderSummary, tsEvent: number, tsInit: number): void {
    this.open.delete(s.clientOrderId);
    this.journalRows.push(
      s.strategyId,
      s.clientOrderId,
      tsEvent,
      tsInit,
      // only strings, numbers and null: the same text as the journal repository's codec writes
      JSON.stringify(s),
    );
  }
}

/** The worker thread's loop: one connection, a batch per message, the first failure ends it. */
function serve(data: RunJournalThreadData): void {
  const port = parentPort;
  if (port === null) return;
  let db: Database.Database | null = null;
  let sink: RunJournalSink | null = null;
  const fail = (error: unknown): void => {
    const code = (error as { code?: unknown } | null)?.code;
    const reply: RunJournalReply = {
      kind: 'failed',
      message: error instanceof Error ? error.message : String(error),
      code: typeof code === 'string' ? code : null,
    };
    port.postMessage(reply);
    try {
      db?.close();
    } catch {
      // the failure above is the one reported
    }
    db = null;
    port.close();
  };
  try {
    db = new Database(data.file, { timeout: data.busyTimeoutMs, fileMustExist: true });
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    sink = new RunJournalSink(db, { mode: data.mode, runId: data.runId });
  } catch (error) {
    fail(error);
    return;
  }
  let idle: NodeJS.Timeout | undefined;
  const commitWhenIdle = (): void => {
    idle = undefined;
    if (db === null || sink === null) return;
    try {
      sink.commit();
    } catch (error) {
      fail(error);
    }
  };
  port.on('message', (first: RunJournalMessage) => {
    if (db === null || sink === null) return;
    if (idle !== undefined) clearTimeout(idle);
    idle = undefined;
    try {
      // the batches already waiting are folded too; rows are committed a few thousand at a time
      // (a commit costs about as much as a few dozen rows) and at the close
      let message: RunJournalMessage | undefined = first;
      while (message !== undefined && message.kind === 'records') {
        sink.fold(message.values);
        message = (receiveMessageOnPort(port)?.message as RunJournalMessage | undefined) ?? undefined;
      }
      if (message?.kind === 'close' || sink.pendingRows >= ROWS_PER_COMMIT) sink.commit();
      else if (sink.pendingRows > 0) idle = setTimeout(commitWhenIdle, IDLE_COMMIT_MS);
      if (message?.kind === 'close') {
        db.close();
        db = null;
        const reply: RunJournalReply = { kind: 'closed' };
        port.postMessage(reply);
        port.close();
      }
    } catch (error) {
      fail(error);
    }
  });
}

if (!isMainThread && (workerData as RunJournalThreadData | undefined)?.hogaRunJournal === true) {
  serve(workerData as RunJournalThreadData);
}
