/**
 * Migration 12: a run records when its process started (`process_start`, `<boot id>:<starttime>`
 * read from Linux's `/proc`), beside its pid and host (migration 10). A pid the system gave again
 * to another process after the run's crashed no longer reads as the run's process: the run reads
 * `interrupted` and `hoga db runs --delete` deletes it. NULL where it cannot be read (no `/proc`:
 * macOS, Windows) and in runs stored before: those are checked by their pid alone.
 *
 * @module
 */

/** The DDL of migration 12. */
export const MIGRATION_012_RUN_PROCESS_START_SQL = `
  ALTER TABLE runs ADD COLUMN process_start TEXT;
`;
