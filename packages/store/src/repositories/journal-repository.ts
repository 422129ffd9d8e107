/**
 * The append-only event journal: every order event and every market event the engine acted on,
 * under a monotonic sequence number, so that a session can be replayed in order.
 *
 * @module
 */
import type Database from 'better-sqlite3';
import { fromJsonText, textToMember, toJsonText } from '../codec.js';
import { TRADING_MODES, type TradingMode } from '../trading-mode.js';

/** An event to append. */
export interface NewJournalEntry {
  /** Event type, e.g. `OrderSubmitted`, `BarClosed`. */
  readonly type: string;
  /** When the event happened (epoch ms). */
  readonly tsEvent: number;
  /** When the engine created the event object (epoch ms). */
  readonly tsInit: number;
  /** Mode of the session that wrote it. */
  readonly mode: TradingMode;
  /** Strategy the event belongs to, if any. */
  readonly strategyId?: string | null | undefined;
  /** Order the event belongs to, if any (indexed). */
  readonly clientOrderId?: string | null | undefined;
  /** The event itself; serialised as JSON with every `Decimal` as a plain string. */
  readonly payload: unknown;
}

/** Any engine event: a `type`, its two timestamps and, for order events, the order and strategy. */
export interface JournalableEvent {
  readonly type: string;
  readonly tsEvent: number;
  readonly tsInit: number;
  readonly clientOrderId?: string | undefined;
  readonly strategyId?: string | undefined;
}

/** An appended event, as read back. */
export interface JournalEntry {
  /** Monotonic sequence number (1, 2, 3, …; never reused). */
  readonly seq: number;
  /** Event type. */
  readonly type: string;
  /** When the event happened (epoch ms). */
  readonly tsEvent: number;
  /** When the engine created the event (epoch ms). */
  readonly tsInit: number;
  /** Mode of the session that wrote it. */
  readonly mode: TradingMode;
  /** Strategy, or `null`. */
  readonly strategyId: string | null;
  /** Order, or `null`. */
  readonly clientOrderId: string | null;
  /** The parsed JSON payload (decimals are strings: the reader knows the event's schema). */
  readonly payload: unknown;
}

interface JournalRow {
  seq: number;
  type: string;
  mode: string;
  strategy_id: string | null;
  client_order_id: string | null;
  ts_event: number;
  ts_init: number;
  payload: string;
}

const COLUMNS = 'seq, type, mode, strategy_id, client_order_id, ts_event, ts_init, payload';

/** Appends to and reads the `journal` table. */
export class JournalRepository {
  private readonly insert: Database.Statement;
  private readonly selectFrom: Database.Statement;
  private readonly selectByOrder: Database.Statement;
  private readonly selectLast: Database.Statement;
  private readonly selectSummaries: Database.Statement;
  private readonly insertMany: (entries: readonly NewJournalEntry[]) => number;

  /** @param db - an open, migrated connection */
  constructor(db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO journal (type, mode, strategy_id, client_order_id, ts_event, ts_init, payload)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectFrom = db.prepare(`SELECT ${COLUMNS} FROM journal WHERE seq >= ? ORDER BY seq LIMIT ?`);
    this.selectByOrder = db.prepare(`SELECT ${COLUMNS} FROM journal WHERE client_order_id = ? ORDER BY seq`);
    this.selectLast = db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM journal');
    // a range of client order ids (a prefix): the journal's index on them finds the run's orders
    this.selectSummaries = db.prepare(
      `SELECT ${COLUMNS} FROM journal WHERE type = 'OrderSummary' AND mode = ?
         AND client_order_id >= ? AND client_order_id < ? ORDER BY seq`,
    );
    this.insertMany = db.transaction((entries: readonly NewJournalEntry[]): number => {
      let last = 0;
      for (const entry of entries) last = this.appendOne(entry);
      return last;
    });
  }

  /**
   * Appends one event (in the caller's transaction, if any).
   *
   * @returns its sequence number
   */
  append(entry: NewJournalEntry): number {
    return this.appendOne(entry);
  }

  /**
   * Appends an engine event (e.g. core's `OrderEvent`) whole as the payload, taking type,
   * timestamps, order and strategy from it.
   *
   * @returns its sequence number
   */
  appendEvent(event: JournalableEvent, mode: TradingMode): number {
    return this.appendOne({
      type: event.type,
      tsEvent: event.tsEvent,
      tsInit: event.tsInit,
      mode,
      strategyId: event.strategyId ?? null,
      clientOrderId: event.clientOrderId ?? null,
      payload: event,
    });
  }

  /**
   * Appends events in one transaction, all or none.
   *
   * @returns the sequence number of the last one (0 for an empty list)
   */
  appendMany(entries: readonly NewJournalEntry[]): number {
    return entries.length === 0 ? 0 : this.insertMany(entries);
  }

  /**
   * Events with `seq >= fromSeq`, in sequence order.
   *
   * @param fromSeq - first sequence number wanted (1 for everything)
   * @param limit - most entries returned (default 10,000); page with `last.seq + 1`
   */
  readFrom(fromSeq: number, limit = 10_000): JournalEntry[] {
    return (this.selectFrom.all(fromSeq, limit) as JournalRow[]).map(decode);
  }

  /** Iterates lazily over every event with `seq >= fromSeq` (for replaying long sessions). */
  *iterateFrom(fromSeq: number): IterableIterator<JournalEntry> {
    const page = 1_000;
    let next = fromSeq;
    for (;;) {
      const rows = this.readFrom(next, page);
      yield* rows;
      if (rows.length < page) return;
      next = rows[rows.length - 1]!.seq + 1;
    }
  }

  /**
   * The `OrderSummary` entries of one mode (one per order of a run that journals its orders so: a
   * backtest), those whose client order id starts with `idPrefix` (a backtest run's: see
   * {@link backtestOrderIdPrefix}), in the order they were written; read lazily.
   */
  *orderSummaries(mode: TradingMode, idPrefix = ''): IterableIterator<JournalEntry> {
    for (const row of this.selectSummaries.iterate(mode, idPrefix, `${idPrefix}\uffff`)) {
      yield decode(row as JournalRow);
    }
  }

  /** Every event of one order, in sequence order. */
  forOrder(clientOrderId: string): JournalEntry[] {
    return (this.selectByOrder.all(clientOrderId) as JournalRow[]).map(decode);
  }

  /** The highest sequence number written so far (0 when empty). */
  lastSequence(): number {
    return (this.selectLast.get() as { seq: number }).seq;
  }

  private appendOne(entry: NewJournalEntry): number {
    const result = this.insert.run(
      entry.type,
      entry.mode,
      entry.strategyId ?? null,
      entry.clientOrderId ?? null,
      entry.tsEvent,
      entry.tsInit,
      toJsonText(entry.payload),
    );
    return Number(result.lastInsertRowid);
  }
}

function decode(row: JournalRow): JournalEntry {
  return {
    seq: row.seq,
    type: row.type,
    tsEvent: row.ts_event,
    tsInit: row.ts_init,
    mode: textToMember<TradingMode>(row.mode, TRADING_MODES, 'journal.mode'),
    strategyId: row.strategy_id,
    clientOrderId: row.client_order_id,
    payload: fromJsonText(row.payload, 'journal.payload'),
  };
}

/**
 * The head of the client order ids a backtest run gives its orders (`bt` and the run id's first 12
 * hex digits; its orders are `<head>-1`, `<head>-2`, …).
 */
export function backtestOrderIdPrefix(runId: string): string {
  return `bt${runId.replaceAll('-', '').slice(0, 12)}`;
}
