/**
 * Migration 10: a run records the process that runs it (its pid and the machine's host name), so
 * that a backtest still `running` can be told from one whose process is gone (it crashed or was
 * killed): `hoga db runs --delete` keeps the rows of a run whose process lives, and deletes those of
 * an interrupted one. Runs stored before it have no process (NULL): nothing can be checked of them.
 *
 * @module
 */

/** The DDL of migration 10. */
export const MIGRATION_010_RUN_PROCESS_SQL = `
  ALTER TABLE runs ADD COLUMN pid INTEGER;
  ALTER TABLE runs ADD COLUMN host TEXT;
`;
