/**
 * Opens a database for reading only, also one the user may read but not write. SQLite cannot read a
 * WAL-mode file whose directory the reader may not write (it needs the `-shm` file); then the file
 * (and its `-wal`, if any) is copied to a private temporary directory (copied again if a checkpoint
 * changed it meanwhile: `copy-database.ts`), read there, and removed on close; a copy whose process was killed before is removed by the next one made (`read-copies.ts`).
 * Nothing is ever written next to the user's file.
 *
 * @module
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { copyDatabase } from './copy-database.js';
import { makeReadCopyDir } from './read-copies.js';

/** A database opened for reading, and how to let go of it. */
export interface ReadingDatabase {
  readonly db: HogaDatabase;
  close(): void;
}

/** Options of {@link openForReading}. */
export interface ReadingOptions {
  /**
   * Read one snapshot: a read transaction from the first read to `close()`, so that every read of
   * the command sees the file as it was at that first read, whatever another process commits
   * meanwhile (in WAL mode the writer goes on; only the checkpoint waits for the reader). Not for
   * `VACUUM INTO`, which takes its own.
   */
  readonly snapshot?: boolean | undefined;
}

/**
 * Opens `file` read-only.
 *
 * @param file - an existing hoga database
 * @param options - see {@link ReadingOptions}
 */
export function openForReading(file: string, options: ReadingOptions = {}): ReadingDatabase {
  const reading = open(file);
  return options.snapshot === true ? inOneSnapshot(reading) : reading;
}

/** The reads of `reading` in one read transaction, ended before the connection closes. */
function inOneSnapshot(reading: ReadingDatabase): ReadingDatabase {
  const connection = reading.db.connection;
  // deferred: the snapshot is taken at the first read, and no lock is taken before
  connection.exec('BEGIN');
  return {
    db: reading.db,
    close() {
      try {
        if (connection.open && connection.inTransaction) connection.exec('COMMIT');
      } finally {
        reading.close();
      }
    },
  };
}

function open(file: string): ReadingDatabase {
  try {
    const db = HogaDatabase.open(file, { migrate: false, readonly: true });
    db.connection.pragma('user_version');
    return { db, close: () => db.close() };
  } catch (error) {
    if (!/readonly database|unable to open/i.test(String((error as Error).message))) throw error;
  }
  const dir = makeReadCopyDir();
  try {
    const copy = join(dir, 'copy.sqlite');
    // both files of one moment, whatever another process writes meanwhile (copy-database.ts)
    copyDatabase(file, copy);
    const db = HogaDatabase.open(copy, { migrate: false, readonly: true });
    return {
      db,
      close() {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
