/**
 * The backtest's journal: one `OrderSummary` entry per order, written when the order ends (or when
 * the run stops, for an order still open), holding what its events said — the intent, each event's
 * type and time, every fill with its commission and tax, the final state and any reason. A backtest
 * is deterministic and rerunnable, so its orders need not be journalled event by event with the
 * durability a live order needs; a third of the rows and compact payloads keep the store's share of
 * a backtest small.
 *
 * @module
 */
import type { OrderEvent } from '@hoga/core';
import type { HogaDatabase, TradingMode } from '@hoga/store';
import type { EventRecorder } from './event-recorder.js';

/** Rows per INSERT statement (5 bound values each, well under SQLite's 32,766). */
const ROWS_PER_INSERT = 256;
/** Values bound per row: strategy id, client order id, tsEvent, tsInit, payload (the type and the mode are SQL literals). */
const COLUMNS = 5;

/** A prepared statement's `run`, as far as this module uses it. */
interface InsertStatement {
  run(params: unknown[]): unknown;
}

/** The payload of an `OrderSummary` journal entry (decimals as strings, times epoch ms). */
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

const TERMINAL: ReadonlySet<string> = new Set([
  'OrderFilled',
  'OrderRejected',
  'OrderDenied',
  'OrderCanceled',
  'OrderExpired',
]);

/**
 * Journals one summary per order (see the module documentation). The closed orders' summaries are
 * buffered as journal rows and written in one transaction per batch, many rows per INSERT; the
 * payload holds only strings, numbers and null, so plain `JSON.stringify` writes the same text as
 * the journal repository's codec.
 */
export class OrderSummaryRecorder implements EventRecorder {
  private readonly open = new Map<string, OrderSummary>();
  /** The buffered rows' parameters, `COLUMNS` per row, in the journal's column order. */
  private params: unknown[] = [];
  private rows = 0;
  private insertBlock: InsertStatement | undefined;
  private insertOne: InsertStatement | undefined;

  /**
   * @param db - the store
   * @param mode - the mode written on each entry
   * @param batchSize - entries per transaction (default 50,000)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly mode: TradingMode = 'backtest',
    private readonly batchSize = 50_000,
  ) {}

  /** @inheritdoc */
  record(event: OrderEvent): void {
    let summary = this.open.get(event.clientOrderId);
    if (summary === undefined) {
      summary = {
        clientOrderId: event.clientOrderId,
        strategyId: event.strategyId ?? null,
        symbol: '',
        side: '',
        orderType: '',
        price: null,
        quantity: null,
        amount: null,
        last: event.type,
        events: [],
        fills: [],
        reason: null,
      };
      this.open.set(event.clientOrderId, summary);
    }
    summary.events.push([event.type, event.tsEvent]);
    summary.last = event.type;
    switch (event.type) {
      case 'OrderSubmitted': {
        const intent = event.intent;
        summary.symbol = intent.instrument.symbol;
        summary.side = intent.side;
        summary.orderType = intent.orderType;
        if (intent.sizing === 'AMOUNT') summary.amount = intent.amount.toFixed();
        else {
          summary.quantity = intent.quantity.toFixed();
          if (intent.orderType === 'LIMIT') summary.price = intent.price.toFixed();
        }
        break;
      }
      case 'OrderFilled':
      case 'OrderPartiallyFilled': {
        const f = event.fill;
        summary.symbol = f.symbol;
        summary.side = f.side;
        summary.fills.push([
          f.tsEvent,
          f.quantity.toFixed(),
          f.price.toFixed(),
          f.commission.amount.toFixed(),
          f.tax === undefined ? '0' : f.tax.amount.toFixed(),
        ]);
        break;
      }
      case 'OrderModified':
        if (event.price !== undefined) summary.price = event.price.toFixed();
        if (event.quantity !== undefined) summary.quantity = event.quantity.toFixed();
        break;
      case 'OrderRejected':
      case 'OrderDenied':
        summary.reason = event.code === undefined ? event.reason : `${event.code}: ${event.reason}`;
        break;
      case 'OrderCanceled':
        summary.reason = event.reason ?? null;
        break;
      default:
        break;
    }
    if (TERMINAL.has(event.type)) this.close(summary, event.tsEvent, event.tsInit);
  }

  /** Writes the closed orders' summaries and, as they stand, those still open. */
  flush(): void {
    for (const summary of [...this.open.values()]) {
      const last = summary.events[summary.events.length - 1];
      this.close(summary, last?.[1] ?? 0, last?.[1] ?? 0);
    }
    this.write();
  }

  private close(summary: OrderSummary, tsEvent: number, tsInit: number): void {
    this.open.delete(summary.clientOrderId);
    this.params.push(summary.strategyId, summary.clientOrderId, tsEvent, tsInit, JSON.stringify(summary));
    this.rows++;
    if (this.rows >= this.batchSize) this.write();
  }

  private write(): void {
    if (this.rows === 0) return;
    const params = this.params;
    const rows = this.rows;
    this.params = [];
    this.rows = 0;
    const conn = this.db.connection;
    if (this.insertBlock === undefined || this.insertOne === undefined) {
      this.insertBlock = conn.prepare(insertSql(ROWS_PER_INSERT, this.mode)) as unknown as InsertStatement;
      this.insertOne = conn.prepare(insertSql(1, this.mode)) as unknown as InsertStatement;
    }
    const block = this.insertBlock;
    const one = this.insertOne;
    conn.transaction(() => {
      let row = 0;
      for (; row + ROWS_PER_INSERT <= rows; row += ROWS_PER_INSERT) {
        block.run(params.slice(row * COLUMNS, (row + ROWS_PER_INSERT) * COLUMNS));
      }
      for (; row < rows; row++) one.run(params.slice(row * COLUMNS, (row + 1) * COLUMNS));
    })();
  }
}

/** The INSERT of `rows` journal rows, the entry type and the mode written as SQL literals. */
function insertSql(rows: number, mode: string): string {
  const tuple = `('OrderSummary', '${mode.replaceAll("'", "''")}', ?, ?, ?, ?, ?)`;
  const values = Array.from({ length: rows }, () => tuple).join(', ');
  return `INSERT INTO journal (type, mode, strategy_id, client_order_id, ts_event, ts_init, payload) VALUES ${values}`;
}
