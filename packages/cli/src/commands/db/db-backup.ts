/**
 * What `hoga db backup <file>` does.
 *
 * @module
 */
import { backupDatabase } from '@hoga/store';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';
import type { DbFlags } from './db-actions.js';
import type { DbCommandIo } from './db-io.js';
import { withExisting } from './db-listing.js';

/**
 * `db backup`: a consistent copy of the database (taken while a run writes it, without stopping
 * it), mode 0600, with its command journal; never over an existing file.
 *
 * @param target - where the backup goes (must not exist)
 * @param flags - `--db`, `--json`
 * @param io - output
 */
export function dbBackup(target: string, flags: DbFlags, io: DbCommandIo): void {
  withExisting(
    flags,
    io,
    (db, file) => {
      let result: ReturnType<typeof backupDatabase>;
      try {
        result = backupDatabase(db.connection, file, target);
      } catch (e) {
        // a name already taken is a usage error: nothing was read or written
        if ((e as { code?: unknown }).code === 'invalid-argument') {
          throw new CliError((e as Error).message, ExitCode.USAGE);
        }
        throw e;
      }
      if (flags.json === true) {
        io.out(`${JSON.stringify({ file, backup: result.file, ...withoutFile(result) })}\n`);
        return;
      }
      io.out(
        `${file} backed up to ${result.file} (${result.sizeBytes.toLocaleString('en-US')} bytes, schema version ${result.schemaVersion})\n` +
          (result.commandJournal === null ? '' : `its command journal to ${result.commandJournal}\n`),
      );
      // VACUUM INTO reads its own snapshot (it cannot run inside a transaction)
    },
    { snapshot: false },
  );
}

function withoutFile<T extends { readonly file: string }>(result: T): Omit<T, 'file'> {
  const { file: _, ...rest } = result;
  return rest;
}
