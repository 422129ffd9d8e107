/**
 * What the `hoga db` listings share: opening an existing database file read-only with its
 * problems turned into messages and exit codes, the `--date` day bounds, cutting a listing to its
 * newest rows, and naming rows that could not be read.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { counted, HogaError, KST_ZONE, parseDate } from '@hoga/core';
import {
  type HogaDatabase,
  resolveDatabasePath,
  StoreErrorCode,
  type UnreadableOrderError,
} from '@hoga/store';
import { DateTime } from 'luxon';
import { directoryDatabase } from '../../runtime/database-path.js';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';
import type { DbCommandIo } from './db-io.js';
import { openForReading } from './open-for-reading.js';

/**
 * Names each stored order the listing left out because a value in it cannot be read, and what was
 * wrong; exit 1, so that a script reading the list notices it is not whole.
 */
export function leftOut(unreadable: readonly UnreadableOrderError[], io: DbCommandIo): void {
  if (unreadable.length === 0) return;
  io.failure(
    unreadable.map((e) => `order ${e.clientOrderId} (row ${e.rowId}) left out: ${e.problem}`),
    ExitCode.FAILURE,
    { code: StoreErrorCode.CORRUPT_ROW },
  );
}

/**
 * The newest `limit` of rows read oldest first with one row more than the limit: when that row is
 * there the list was cut, and stderr says so (before, `--limit` kept the oldest rows, so on a store
 * of a few weeks' trading today's were left out, silently).
 */
export function newestOf<T>(rows: T[], limit: number, noun: string, io: DbCommandIo): T[] {
  if (rows.length <= limit) return rows;
  io.err(
    `hoga: the newest ${counted(limit, noun)} shown; --limit to see more, --date or --symbol to narrow\n`,
  );
  return rows.slice(rows.length - limit);
}

/**
 * Opens an existing file read-only (nothing is created or written, so a file the user may not
 * write can be inspected), runs `fn` on one snapshot of it (every read sees the file as at the
 * first, while other processes write it; `snapshot: false` for a `VACUUM INTO`), closes it; errors
 * become messages.
 */
export function withExisting(
  flags: { readonly db?: string | undefined },
  io: DbCommandIo,
  fn: (db: HogaDatabase, file: string) => void,
  options: { readonly snapshot?: boolean } = {},
): void {
  const file = resolveDatabasePath(flags.db);
  guard(io, () => {
    if (file !== ':memory:' && !existsSync(file)) {
      throw new CliError(
        `no database at ${file}: give --db or HOGA_DB, or create it with hoga db migrate`,
        ExitCode.USAGE,
      );
    }
    const directory = directoryDatabase(file);
    if (directory !== undefined) throw new CliError(directory, ExitCode.USAGE);
    const reading = openForReading(file, { snapshot: options.snapshot ?? true });
    try {
      // (the file's path: the one read may be a private copy)
      fn(reading.db, file);
    } finally {
      reading.close();
    }
  });
}

/** Whether a listing was narrowed by a flag (then an empty one says that none match). */
export function filtered(flags: object): boolean {
  return ['state', 'strategy', 'symbol', 'date', 'order', 'run'].some(
    (k) => (flags as Record<string, unknown>)[k] !== undefined,
  );
}

/** Runs `fn`; a {@link CliError} or a {@link HogaError} it throws becomes a message and an exit code. */
export function guard(io: DbCommandIo, fn: () => void): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof CliError) {
      io.failure([e.message], e.exitCode);
      return;
    }
    if (!(e instanceof HogaError)) throw e;
    io.failure([e.message], 1, { code: e.code });
  }
}

/** The bounds (epoch ms) of a KST calendar day given as `--date YYYY-MM-DD`; none without one. */
export function kstDay(date: string | undefined): { from?: number; to?: number } {
  if (date === undefined) return {};
  const start = DateTime.fromISO(parseDate(date, '--date'), { zone: KST_ZONE });
  return { from: start.toMillis(), to: start.plus({ days: 1 }).toMillis() };
}
