/**
 * Migration 7: the order manager's command log. A create is written here before its request is
 * sent: one append to a table with a single B-tree (one page per commit, where the full
 * `order_commands` row with its indexes and the `orders` row touch ten), so the write that must
 * precede the send is as small as it can be. The `order_commands` and `orders` rows follow right
 * after the send and the log entry is then deleted; entries left by a crash in between are turned
 * into their rows at the next start.
 *
 * @module
 */

/** The DDL of migration 7. `row` is the command as JSON (what its `order_commands` row holds). */
export const MIGRATION_007_COMMAND_LOG_SQL = `
  CREATE TABLE om_command_log (
    seq INTEGER PRIMARY KEY,
    row TEXT NOT NULL
  );
`;
