/**
 * The order manager's row shapes and prepared statements (migration 4's tables): commands, broker
 * executions, positions, blocked symbols, progress values.
 *
 * @module
 */
import { type Currency, Decimal, type OrderState, TERMINAL_ORDER_STATES } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import type { CumulativeExecution, ExecutionDelta } from './execution-delta.js';

/** The raw better-sqlite3 connection of the store. */
export type Connection = HogaDatabase['connection'];
/** A prepared statement, loosely typed (the rows are cast where they are read). */
export interface Statement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** A transaction built once (better-sqlite3): call it, or run it with `BEGIN IMMEDIATE`. */
export interface Transaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  immediate(...args: Parameters<F>): ReturnType<F>;
}

/** Where a command stands. */
export const CommandStatus = {
  /** Written, being sent (after a crash: outcome unknown until checked). */
  SENDING: 'sending',
  /** The answer was lost or unclear; the outcome is looked for on a schedule. */
  AMBIGUOUS: 'ambiguous',
  /** The broker answered with (or the history showed) the order it made. */
  DONE: 'done',
  /** The broker refused it, or the history shows it did not take effect. */
  REJECTED: 'rejected',
  /** Could not be settled with certainty: reported, never re-sent. */
  UNKNOWN: 'unknown',
} as const;
/** One of {@link CommandStatus}. */
export type CommandStatus = (typeof CommandStatus)[keyof typeof CommandStatus];

/** A stored command. */
export interface StoredCommand {
  readonly commandId: string;
  readonly clientOrderId: string;
  readonly kind: 'create' | 'modify' | 'cancel';
  readonly targetBrokerOrderId: string | null;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  /** The request body as sent (JSON). */
  readonly content: Record<string, unknown>;
  readonly strategyId: string | null;
  readonly status: CommandStatus;
  readonly resultBrokerOrderId: string | null;
  readonly error: string | null;
  readonly checks: number;
  readonly createdAt: number;
  readonly sentAt: number;
}

/** A broker order the manager owns (own or adopted). */
export interface StoredExecution extends CumulativeExecution {
  readonly brokerOrderId: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly status: string;
  readonly closed: boolean;
}

/** A row of `order_commands`. */
export interface CommandRow {
  command_id: string;
  client_order_id: string;
  kind: 'create' | 'modify' | 'cancel';
  target_broker_order_id: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  content: string;
  strategy_id: string | null;
  status: CommandStatus;
  result_broker_order_id: string | null;
  error: string | null;
  checks: number;
  created_at: number;
  sent_at: number | null;
}

/** A row of `broker_executions`. */
export interface ExecutionRow {
  broker_order_id: string;
  client_order_id: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  status: string;
  closed: number;
  filled_quantity: string;
  filled_amount: string;
  commission: string;
  tax: string;
}

/** Decodes a command row. */
export function command(row: CommandRow): StoredCommand {
  return {
    commandId: row.command_id,
    clientOrderId: row.client_order_id,
    kind: row.kind,
    targetBrokerOrderId: row.target_broker_order_id,
    symbol: row.symbol,
    side: row.side,
    content: JSON.parse(row.content) as Record<string, unknown>,
    strategyId: row.strategy_id,
    status: row.status,
    resultBrokerOrderId: row.result_broker_order_id,
    error: row.error,
    checks: row.checks,
    createdAt: row.created_at,
    sentAt: row.sent_at ?? row.created_at,
  };
}

/** Decodes an execution row. */
export function execution(row: ExecutionRow): StoredExecution {
  return {
    brokerOrderId: row.broker_order_id,
    clientOrderId: row.client_order_id,
    symbol: row.symbol,
    side: row.side,
    status: row.status,
    closed: row.closed === 1,
    filledQuantity: new Decimal(row.filled_quantity),
    filledAmount: new Decimal(row.filled_amount),
    commission: new Decimal(row.commission),
    tax: new Decimal(row.tax),
  };
}

/** What the fill path reads of a logical order. */
export interface OrderHead {
  readonly id: number;
  readonly currency: Currency;
  readonly state: OrderState;
  readonly brokerOrderId: string | null;
}

/** A fill as counted: the delta plus what identifies it. */
export interface CountedFill {
  readonly brokerOrderId: string;
  readonly clientOrderId: string;
  readonly delta: ExecutionDelta;
  /** The logical order's total filled quantity after this fill (all its broker orders). */
  readonly logicalCumulative: Decimal;
  /** The logical order's total filled amount after this fill. */
  readonly logicalAmount: Decimal;
  /** The logical order's row as it was when the fill was counted (null for an adopted one without). */
  readonly order: OrderHead | null;
}

/** The terminal order states as an SQL list. */
const TERMINAL = [...TERMINAL_ORDER_STATES].map((s) => `'${s}'`).join(', ');

/** Prepares every statement the store runs. */
export function prepareStatements(conn: Connection) {
  const p = (sql: string): Statement => conn.prepare(sql) as unknown as Statement;
  return {
    commandChecks: p('SELECT checks FROM order_commands WHERE command_id = ?'),
    idUse: p(`SELECT (SELECT state FROM orders WHERE client_order_id = @id) AS state,
        EXISTS (SELECT 1 FROM order_commands WHERE client_order_id = @id) AS commanded`),
    linkOwner: p('SELECT order_id FROM order_broker_ids WHERE broker_order_id = ?'),
    nextOrdinal: p('SELECT coalesce(max(ordinal), 0) + 1 AS n FROM order_broker_ids WHERE order_id = ?'),
    insertLink: p(
      'INSERT INTO order_broker_ids (broker_order_id, order_id, ordinal, kind, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    setCurrentBrokerId: p('UPDATE orders SET broker_order_id = ?, updated_at = ? WHERE id = ?'),
    insertIntent:
      p(`INSERT OR IGNORE INTO orders (client_order_id, strategy_id, mode, symbol, market, currency, side,
        order_type, time_in_force, price, quantity, amount, state, created_at, updated_at)
        VALUES (@clientOrderId, @strategyId, @mode, @symbol, @market, @currency, @side, @orderType, @timeInForce,
        @price, @quantity, @amount, 'SUBMITTED', @at, @at)`),
    insertCommand: p(`INSERT INTO order_commands (command_id, client_order_id, kind, target_broker_order_id,
        symbol, side, content, strategy_id, status, created_at, sent_at, updated_at)
        VALUES (@commandId, @clientOrderId, @kind, @target, @symbol, @side, @content, @strategyId, 'sending',
        @at, @at, @at)`),
    insertCommandIfNew:
      p(`INSERT OR IGNORE INTO order_commands (command_id, client_order_id, kind, target_broker_order_id,
        symbol, side, content, strategy_id, status, created_at, sent_at, updated_at)
        VALUES (@commandId, @clientOrderId, @kind, @target, @symbol, @side, @content, @strategyId, 'sending',
        @at, @at, @at)`),
    // (`:memory:` databases, which have no journal file) The append and the check that the command
    // id is new, in one statement (one lock, one commit).
    appendLogIfNew: p(
      'INSERT INTO om_command_log (row) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM order_commands WHERE command_id = ?)',
    ),
    deleteLog: p('DELETE FROM om_command_log WHERE seq = ?'),
    logEntries: p('SELECT seq, row FROM om_command_log ORDER BY seq'),
    updateCommand: p(`UPDATE order_commands SET status = @status, result_broker_order_id = coalesce(@result,
        result_broker_order_id), error = coalesce(@error, error), checks = @checks, updated_at = @at WHERE command_id = @id`),
    // only while still `sending`: the process that sent it may have settled it since it was read
    interruptSending: p(`UPDATE order_commands SET status = 'ambiguous', error = @error, updated_at = @at
        WHERE command_id = @id AND status = 'sending'`),
    // Commands in the order they were stored: the rowid breaks the ties of one millisecond (the
    // table has no INTEGER PRIMARY KEY, but VACUUM keeps their order: command-order.int.test.ts)
    unresolved: p(
      `SELECT * FROM order_commands WHERE status IN ('sending', 'ambiguous') ORDER BY created_at, rowid`,
    ),
    createsWithoutOrder:
      p(`SELECT c.* FROM order_commands c LEFT JOIN orders o ON o.client_order_id = c.client_order_id
        WHERE c.kind = 'create' AND o.id IS NULL ORDER BY c.created_at, c.rowid`),
    // 1 when a cancel of the order is unanswered or done (the order is on its way out), 0 when
    // only a modify is unanswered, NULL when neither (the order's commands only, by its index)
    pendingChangeOf: p(`SELECT max(kind = 'cancel') AS cancel FROM order_commands WHERE client_order_id = ?
        AND kind IN ('modify', 'cancel')
        AND (status IN ('sending', 'ambiguous') OR (kind = 'cancel' AND status = 'done'))`),
    orderHead: p('SELECT id, currency, state, broker_order_id FROM orders WHERE client_order_id = ?'),
    setState: p('UPDATE orders SET state = ?, updated_at = ? WHERE client_order_id = ?'),
    setFilled: p(
      'UPDATE orders SET updated_at = ?, filled_quantity = ?, average_fill_price = ? WHERE client_order_id = ?',
    ),
    setStateFilled: p(
      'UPDATE orders SET state = ?, updated_at = ?, filled_quantity = ?, average_fill_price = ? WHERE client_order_id = ?',
    ),
    setTerms: p(
      'UPDATE orders SET order_type = ?, price = ?, quantity = coalesce(?, quantity), updated_at = ? WHERE client_order_id = ?',
    ),
    retarget: p('UPDATE order_commands SET target_broker_order_id = ?, updated_at = ? WHERE command_id = ?'),
    // live logical orders still open whose every broker order is closed (to be settled)
    finishedOpen: p(`SELECT o.client_order_id FROM orders o WHERE o.mode = 'live'
        AND o.state NOT IN (${TERMINAL})
        AND EXISTS (SELECT 1 FROM broker_executions e WHERE e.client_order_id = o.client_order_id)
        AND NOT EXISTS (SELECT 1 FROM broker_executions e WHERE e.client_order_id = o.client_order_id
          AND e.closed = 0)`),
    // the open live orders and their current broker order (whose terms their strategy knows)
    openHeads: p(`SELECT client_order_id, broker_order_id FROM orders WHERE mode = 'live'
        AND state NOT IN (${TERMINAL}) AND broker_order_id IS NOT NULL`),
    // each open live order's last confirmed modify (repairs what an older hoga left in orders)
    lastModifies: p(`SELECT c.client_order_id, c.content, c.result_broker_order_id FROM order_commands c
        JOIN orders o ON o.client_order_id = c.client_order_id
        WHERE c.kind = 'modify' AND c.status = 'done' AND o.mode = 'live'
          AND o.state NOT IN (${TERMINAL})
          AND c.rowid = (SELECT max(m.rowid) FROM order_commands m WHERE m.client_order_id = c.client_order_id
            AND m.kind = 'modify' AND m.status = 'done')`),
    commandById: p('SELECT * FROM order_commands WHERE command_id = ?'),
    commandsOf: p('SELECT * FROM order_commands WHERE client_order_id = ? ORDER BY created_at, rowid'),
    execution: p('SELECT * FROM broker_executions WHERE broker_order_id = ?'),
    executionsIn: p(
      'SELECT * FROM broker_executions WHERE broker_order_id IN (SELECT value FROM json_each(?))',
    ),
    openExecutions: p('SELECT * FROM broker_executions WHERE closed = 0'),
    executionsOf: p('SELECT * FROM broker_executions WHERE client_order_id = ?'),
    insertExecution:
      p(`INSERT OR IGNORE INTO broker_executions (broker_order_id, client_order_id, symbol, side,
        status, closed, filled_quantity, filled_amount, commission, tax, ordered_at, updated_at)
        VALUES (@id, @clientOrderId, @symbol, @side, @status, 0, @q, @a, @c, @t, @orderedAt, @at)`),
    // Only over the quantity and status the report was counted from: another process sharing the
    // store may have counted it since (compared as numbers: the same quantity in any decimal text).
    updateExecution: p(`UPDATE broker_executions SET status = @status, closed = @closed, filled_quantity = @q,
        filled_amount = @a, commission = @c, tax = @t, updated_at = @at WHERE broker_order_id = @id
        AND CAST(filled_quantity AS REAL) = CAST(@wasQ AS REAL) AND status = @wasStatus`),
    updateTotals:
      p(`UPDATE broker_executions SET filled_quantity = ?, filled_amount = ?, commission = ?, tax = ?,
        updated_at = ? WHERE broker_order_id = ? AND CAST(filled_quantity AS REAL) = CAST(? AS REAL)
        AND status = ?`),
    position: p('SELECT quantity FROM om_positions WHERE symbol = ?'),
    positions: p('SELECT symbol, quantity FROM om_positions ORDER BY symbol'),
    setPosition: p(`INSERT INTO om_positions (symbol, quantity, updated_at) VALUES (?, ?, ?)
        ON CONFLICT (symbol) DO UPDATE SET quantity = excluded.quantity, updated_at = excluded.updated_at`),
    block: p('INSERT OR REPLACE INTO om_blocked_symbols (symbol, reason, since) VALUES (?, ?, ?)'),
    unblock: p('DELETE FROM om_blocked_symbols WHERE symbol = ?'),
    blocked: p('SELECT symbol, reason FROM om_blocked_symbols ORDER BY symbol'),
    getMeta: p('SELECT value FROM om_meta WHERE key = ?'),
    setMeta: p('INSERT OR REPLACE INTO om_meta (key, value) VALUES (?, ?)'),
    unlinked: p(`SELECT e.broker_order_id, e.client_order_id, e.ordered_at FROM broker_executions e
        LEFT JOIN order_broker_ids l ON l.broker_order_id = e.broker_order_id WHERE l.broker_order_id IS NULL`),
  };
}
