/**
 * Migration 4: the live order manager's own tables. Order identity stays in `orders` and
 * `order_broker_ids`; these add what the manager needs to never lose or double an order or a fill:
 * every command with its full content written before it is sent (`order_commands`), the last
 * cumulative execution seen per broker order (`broker_executions`, the identity of fills), the
 * account's positions as the fills built them (`om_positions`), symbols barred from trading until a
 * position difference is resolved (`om_blocked_symbols`) and the manager's progress (`om_meta`).
 *
 * @module
 */

/** The DDL of migration 4. */
export const MIGRATION_004_ORDER_MANAGER_SQL = `
  CREATE TABLE order_commands (
    command_id             TEXT PRIMARY KEY,
    client_order_id        TEXT NOT NULL,
    kind                   TEXT NOT NULL CHECK (kind IN ('create', 'modify', 'cancel')),
    target_broker_order_id TEXT,
    symbol                 TEXT NOT NULL,
    side                   TEXT NOT NULL,
    content                TEXT NOT NULL,
    strategy_id            TEXT,
    status                 TEXT NOT NULL,
    result_broker_order_id TEXT,
    error                  TEXT,
    checks                 INTEGER NOT NULL DEFAULT 0,
    created_at             INTEGER NOT NULL,
    sent_at                INTEGER,
    updated_at             INTEGER NOT NULL
  );
  CREATE INDEX order_commands_status ON order_commands (status);
  CREATE INDEX order_commands_order ON order_commands (client_order_id);

  CREATE TABLE broker_executions (
    broker_order_id TEXT PRIMARY KEY,
    client_order_id TEXT NOT NULL,
    symbol          TEXT NOT NULL,
    side            TEXT NOT NULL,
    status          TEXT NOT NULL,
    closed          INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
    filled_quantity TEXT NOT NULL,
    filled_amount   TEXT NOT NULL,
    commission      TEXT NOT NULL,
    tax             TEXT NOT NULL,
    ordered_at      INTEGER,
    updated_at      INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX broker_executions_open ON broker_executions (closed);
  CREATE INDEX broker_executions_order ON broker_executions (client_order_id);

  CREATE TABLE om_positions (
    symbol     TEXT PRIMARY KEY,
    quantity   TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE om_blocked_symbols (
    symbol     TEXT PRIMARY KEY,
    reason     TEXT NOT NULL,
    since      INTEGER NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE om_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
`;
