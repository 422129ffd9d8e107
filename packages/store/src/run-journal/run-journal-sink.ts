/**
 * The writing side of {@link RunJournalWriter}: a run's order events arrive as compact records (see
 * {@link RunJournalRecord}), are folded into one `OrderSummary` journal entry per order (written
 * when the order ends) and, for a stored run, one `run_trades` row per fill, and are inserted in one
 * transaction per batch, many rows per INSERT. The journal's worker thread
 * (`run-journal-thread.ts`) runs it on a connection of its own; on the calling thread (an in-memory
 * database, a Node that cannot load the thread's module) the writer uses it directly.
 *
 * The thread loads this file as it is, with Node's own type stripping: it imports nothing at run
 * time but its sibling, by its `.ts` name (Node resolves no `.js` name to a `.ts` file), and uses
 * only erasable TypeScript (no parameter properties, enums or namespaces).
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { RUN_JOURNAL_EVENT_TYPES, RunJournalRecord } from './run-journal-record.ts';

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
  /**
   * The last state-changing event's type (`OrderFilled`, `OrderCanceled`, …): a refused modify or
   * cancel (`OrderModifyRejected`, `OrderCancelRejected`) is among the events, not here (the order
   * stands as it was).
   */
  last: string;
  /** Every event as `[type, tsEvent]`, in order. */
  events: [string, number][];
  /** Every fill as `[tsEvent, quantity, price, commission, tax]`. */
  fills: [number, string, string, string, string][];
  /** Why it was denied, rejected or canceled, when it was. */
  reason: string | null;
}

function typeOf(v: unknown): string {
  return typeof v === 'number' ? (RUN_JOURNAL_EVENT_TYPES[v] ?? String(v)) : (v as string);
}

function textOf(v: unknown): string {
  return typeof v === 'number' ? String(v) : (v as string);
}

function nullableTextOf(v: unknown): string | null {
  return v === null ? null : textOf(v);
}

/** What the sink writes: the journal's mode, and the stored run the fills are trades of (if any). */
export interface RunJournalTarget {
  readonly mode: string;
  /** The run whose `run_trades` get one row per fill (its `runs` row must exist), or null. */
  readonly runId: string | null;
}

/** The broker's refusals of a change: replies that leave the order as it was. */
const CHANGE_REFUSALS: ReadonlySet<string> = new Set(['OrderModifyRejected', 'OrderCancelRejected']);

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

  /**
   * Folds a batch of records into the open summaries and the completed rows (nothing written yet).
   * An order's summary opens at its submission or its intent: an event, a modify or a reason of an
   * order with no open summary is what came of it after it ended (a cancel or modify refused, a
   * cancel denied `order-closed`), not part of its history, and is dropped (before, it opened a
   * second, empty summary, written at the flush); a fill still makes its trade row.
   */
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
          if (!this.open.has(v[i + 1] as string)) {
            i += 5;
            break;
          }
          const type = typeOf(v[i]);
          this.summary(type, v[i + 1] as string, v[i + 2] as string | null, v[i + 3] as number);
          this.closeIfTerminal(type, v[i + 1] as string, v[i + 3] as number, v[i + 4] as number);
          i += 5;
          break;
        }
        case RunJournalRecord.MODIFIED: {
          if (!this.open.has(v[i] as string)) {
            i += 6;
            break;
          }
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
          if (!this.open.has(v[i + 1] as string)) {
            i += 6;
            break;
          }
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
    // before, a refused modify of an order still open at the run's end was its last state
    if (!CHANGE_REFUSALS.has(type)) s.last = type;
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
