/**
 * Orders and the lineage of their broker order ids.
 *
 * Write-ahead discipline: {@link OrderRepository.recordIntent} and
 * {@link OrderRepository.linkBrokerOrderId} commit with `synchronous=FULL` (the intent and the
 * mapping to broker ids exist only here: the broker's records carry no `clientOrderId`). State
 * updates commit with `synchronous=NORMAL`: they mirror what the broker reports and are re-derived
 * from it by reconciliation.
 *
 * @module
 */
import type { BrokerOrderId, OrderState } from '@hoga/core';
import { TERMINAL_ORDER_STATES } from '@hoga/core';
import type Database from 'better-sqlite3';
import { textToMember } from '../codec.js';
import { StoreError, StoreErrorCode } from '../store-error.js';
import type { TradingMode } from '../trading-mode.js';
import type { TransactionRunner } from '../transactions.js';
import type { JournalRepository, NewJournalEntry } from './journal-repository.js';
import {
  BROKER_ID_KINDS,
  type BrokerOrderIdKind,
  type BrokerOrderIdLink,
  decodeOrder,
  encodeNewOrder,
  encodeUpdate,
  type NewOrder,
  ORDER_COLUMNS,
  type OrderRecord,
  type OrderRow,
  type OrderUpdate,
  UnreadableOrderError,
  updateSql,
} from './order-record.js';

/** Filters of {@link OrderRepository.list}; all optional, combined with AND. */
export interface OrderQuery {
  /** One state or several. */
  readonly state?: OrderState | readonly OrderState[] | undefined;
  readonly strategyId?: string | undefined;
  readonly symbol?: string | undefined;
  readonly mode?: TradingMode | undefined;
  /** Created at or after (epoch ms). */
  readonly from?: number | undefined;
  /** Created before (epoch ms). */
  readonly to?: number | undefined;
  /** Most rows (default 1,000). */
  readonly limit?: number | undefined;
  /** With `limit`: keep the newest rows rather than the oldest (still returned oldest first). */
  readonly newest?: boolean | undefined;
  /**
   * Given, a row that cannot be read is handed to it and left out (a listing shows the others);
   * else reading it throws.
   */
  readonly onUnreadable?: ((error: UnreadableOrderError) => void) | undefined;
}

const PENDING_STATES = ['SUBMITTED', 'PENDING_CANCEL', 'PENDING_MODIFY'];
const TERMINAL_SQL = [...TERMINAL_ORDER_STATES].map((s) => `'${s}'`).join(', ');

/** Reads and writes `orders` and `order_broker_ids`. */
export class OrderRepository {
  private readonly insert: Database.Statement;
  private readonly updates: (Database.Statement | undefined)[] = [];
  private readonly byClientId: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly byBrokerId: Database.Statement;
  private readonly linkOwner: Database.Statement;
  private readonly nextOrdinal: Database.Statement;
  private readonly insertLink: Database.Statement;
  private readonly setCurrentBrokerId: Database.Statement;
  private readonly lineage: Database.Statement;
  private readonly unknown: Database.Statement;
  private readonly updateMany: (updates: readonly (readonly [string, OrderUpdate])[]) => void;
  private readonly listStatements = new Map<string, Database.Statement>();

  /**
   * @param db - an open, migrated connection
   * @param tx - the connection's transaction runner
   * @param journal - the journal, for intents recorded together with their event
   */
  constructor(
    private readonly db: Database.Database,
    private readonly tx: TransactionRunner,
    private readonly journal: JournalRepository,
  ) {
    this.insert = db.prepare(
      `INSERT INTO orders (client_order_id, strategy_id, mode, symbol, market, currency, side, order_type,
         time_in_force, price, quantity, amount, state, created_at, updated_at)
       VALUES (@client_order_id, @strategy_id, @mode, @symbol, @market, @currency, @side, @order_type,
         @time_in_force, @price, @quantity, @amount, @state, @created_at, @created_at)
       RETURNING ${ORDER_COLUMNS}`,
    );
    this.byClientId = db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE client_order_id = ?`);
    this.byId = db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = ?`);
    this.byBrokerId = db.prepare(
      `SELECT ${ORDER_COLUMNS.split(', ')
        .map((c) => `o.${c}`)
        .join(', ')}
       FROM order_broker_ids l JOIN orders o ON o.id = l.order_id WHERE l.broker_order_id = ?`,
    );
    this.linkOwner = db.prepare('SELECT order_id FROM order_broker_ids WHERE broker_order_id = ?');
    this.nextOrdinal = db.prepare(
      'SELECT coalesce(max(ordinal), 0) + 1 AS n FROM order_broker_ids WHERE order_id = ?',
    );
    this.insertLink = db.prepare(
      'INSERT INTO order_broker_ids (broker_order_id, order_id, ordinal, kind, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.setCurrentBrokerId = db.prepare(
      'UPDATE orders SET broker_order_id = ?, updated_at = ? WHERE id = ?',
    );
    this.lineage = db.prepare(
      `SELECT l.broker_order_id, l.ordinal, l.kind, l.created_at FROM order_broker_ids l
       JOIN orders o ON o.id = l.order_id WHERE o.client_order_id = ? ORDER BY l.ordinal`,
    );
    this.unknown = db.prepare(
      `SELECT ${ORDER_COLUMNS} FROM orders
       WHERE mode <> 'backtest' AND state NOT IN (${TERMINAL_SQL})
         AND (broker_order_id IS NULL OR state IN (${PENDING_STATES.map((s) => `'${s}'`).join(', ')}))
       ORDER BY id`,
    );
    this.updateMany = db.transaction((updates: readonly (readonly [string, OrderUpdate])[]) => {
      for (const [clientOrderId, update] of updates) this.applyUpdate(clientOrderId, update);
    });
  }

  /**
   * Records an order intent durably (`synchronous=FULL`) before its request leaves the process,
   * together with its journal event when one is given.
   *
   * @returns the stored order
   * @throws {@link StoreError} `duplicate-client-order-id` when the `clientOrderId` is taken
   */
  recordIntent(order: NewOrder, event?: NewJournalEntry): OrderRecord {
    return this.tx.durable(() => {
      let row: OrderRow;
      try {
        row = this.insert.get(encodeNewOrder(order)) as OrderRow;
      } catch (e) {
        if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreError(
            StoreErrorCode.DUPLICATE_CLIENT_ORDER_ID,
            `clientOrderId ${order.clientOrderId} is already stored; every order needs a new one`,
            { cause: e, details: { clientOrderId: order.clientOrderId } },
          );
        }
        throw e;
      }
      if (event !== undefined) this.journal.append(event);
      return decodeOrder(row);
    });
  }

  /**
   * Links a broker order id (from a create, modify or cancel answer) to our order durably and makes
   * it the order's current id. Linking the same id to the same order again is a no-op.
   *
   * @throws {@link StoreError} `order-not-found`, or `duplicate-broker-order-id` when the id
   *   belongs to another order
   */
  linkBrokerOrderId(clientOrderId: string, brokerOrderId: string, kind: BrokerOrderIdKind, at: number): void {
    this.tx.durable(() => {
      const order = this.requireRow(clientOrderId);
      const owner = this.linkOwner.get(brokerOrderId) as { order_id: number } | undefined;
      if (owner !== undefined) {
        if (owner.order_id === order.id) return;
        throw new StoreError(
          StoreErrorCode.DUPLICATE_BROKER_ORDER_ID,
          `broker order id ${brokerOrderId} already belongs to order #${owner.order_id}, not ${clientOrderId}`,
          { details: { brokerOrderId, clientOrderId } },
        );
      }
      const { n } = this.nextOrdinal.get(order.id) as { n: number };
      this.insertLink.run(brokerOrderId, order.id, n, kind, at);
      this.setCurrentBrokerId.run(brokerOrderId, at, order.id);
    });
  }

  /**
   * Changes an order's state and the fields given (normal durability; in the caller's transaction
   * when there is one).
   *
   * @throws {@link StoreError} `order-not-found`
   */
  updateState(clientOrderId: string, update: OrderUpdate): void {
    this.applyUpdate(clientOrderId, update);
  }

  /** Applies several updates in one transaction, all or none. */
  updateStates(updates: readonly (readonly [clientOrderId: string, update: OrderUpdate])[]): void {
    this.updateMany(updates);
  }

  /** The order with this `clientOrderId`, or `null`. */
  get(clientOrderId: string): OrderRecord | null {
    const row = this.byClientId.get(clientOrderId) as OrderRow | undefined;
    return row === undefined ? null : decodeOrder(row);
  }

  /** The order with this row id, or `null`. */
  getById(id: number): OrderRecord | null {
    const row = this.byId.get(id) as OrderRow | undefined;
    return row === undefined ? null : decodeOrder(row);
  }

  /** The order any of whose broker ids (original, modified or cancel) is `brokerOrderId`, or `null`. */
  findByBrokerOrderId(brokerOrderId: string): OrderRecord | null {
    const row = this.byBrokerId.get(brokerOrderId) as OrderRow | undefined;
    return row === undefined ? null : decodeOrder(row);
  }

  /** Every broker id the order has had, oldest first. */
  brokerOrderIds(clientOrderId: string): BrokerOrderIdLink[] {
    const rows = this.lineage.all(clientOrderId) as {
      broker_order_id: string;
      ordinal: number;
      kind: string;
      created_at: number;
    }[];
    return rows.map((r) => ({
      brokerOrderId: r.broker_order_id as BrokerOrderId,
      ordinal: r.ordinal,
      kind: textToMember<BrokerOrderIdKind>(r.kind, BROKER_ID_KINDS, 'order_broker_ids.kind'),
      createdAt: r.created_at,
    }));
  }

  /** Orders matching every filter given, oldest first. */
  list(query: OrderQuery = {}): OrderRecord[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const states =
      query.state === undefined ? [] : typeof query.state === 'string' ? [query.state] : query.state;
    if (states.length > 0) {
      where.push(`state IN (${states.map(() => '?').join(', ')})`);
      params.push(...states);
    }
    for (const [column, value] of [
      ['strategy_id', query.strategyId],
      ['symbol', query.symbol],
      ['mode', query.mode],
    ] as const) {
      if (value !== undefined) {
        where.push(`${column} = ?`);
        params.push(value);
      }
    }
    if (query.from !== undefined) {
      where.push('created_at >= ?');
      params.push(query.from);
    }
    if (query.to !== undefined) {
      where.push('created_at < ?');
      params.push(query.to);
    }
    const sql =
      `SELECT ${ORDER_COLUMNS} FROM orders` +
      (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
      (query.newest === true
        ? ' ORDER BY created_at DESC, id DESC LIMIT ?'
        : ' ORDER BY created_at, id LIMIT ?');
    params.push(query.limit ?? 1_000);
    let statement = this.listStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    const rows: OrderRecord[] = [];
    const skip = query.onUnreadable;
    for (const row of statement.all(...params) as OrderRow[]) {
      if (skip === undefined) {
        rows.push(decodeOrder(row));
        continue;
      }
      try {
        rows.push(decodeOrder(row));
      } catch (error) {
        if (!(error instanceof UnreadableOrderError)) throw error;
        skip(error);
      }
    }
    return query.newest === true ? rows.reverse() : rows;
  }

  /**
   * Intents whose outcome is unknown — the input of the engine's reconciliation: orders of paper or
   * live sessions, not in a terminal state, that have no broker id yet (the create request may or
   * may not have reached the broker) or wait for the answer of a request (`SUBMITTED`,
   * `PENDING_CANCEL`, `PENDING_MODIFY`).
   */
  unknownOutcome(): OrderRecord[] {
    return (this.unknown.all() as OrderRow[]).map(decodeOrder);
  }

  private applyUpdate(clientOrderId: string, update: OrderUpdate): void {
    const { mask, values } = encodeUpdate(clientOrderId, update);
    let statement = this.updates[mask];
    if (statement === undefined) {
      statement = this.db.prepare(updateSql(mask));
      this.updates[mask] = statement;
    }
    const result = statement.run(values);
    if (result.changes === 0) throw notFound(clientOrderId);
  }

  private requireRow(clientOrderId: string): OrderRow {
    const row = this.byClientId.get(clientOrderId) as OrderRow | undefined;
    if (row === undefined) throw notFound(clientOrderId);
    return row;
  }
}

function notFound(clientOrderId: string): StoreError {
  return new StoreError(
    StoreErrorCode.ORDER_NOT_FOUND,
    `no stored order has clientOrderId ${clientOrderId}`,
    {
      details: { clientOrderId },
    },
  );
}
