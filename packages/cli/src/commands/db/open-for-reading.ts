/**
 * Opens a database for reading only, also one the user may read but not write. SQLite cannot read a
 * WAL-mode file whose directory the reader may not write (it needs the `-shm` file); then the file
 * (and its `-wal`, if any) is copied to a private temporary directory, read there, and removed on
 * close; a copy whose process was killed before is removed by the next one made (`read-copies.ts`).
 * Nothing is ever written next to the user's file.
 *
 * @module
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { makeReadCopyDir } from './read-copies.js';

/** A database opened for reading, and how to let go of it. */
export interface ReadingDatabase {
  readonly db: HogaDatabase;
  close(): void;
}

/**
 * Opens `file` read-only.
 *
 * @param file - an existing hoga database
 */
export function openForReading(file: string): ReadingDatabase {
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
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
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
