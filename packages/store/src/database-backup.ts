/**
 * A backup of a hoga database taken while other processes write it: SQLite's `VACUUM INTO` reads
 * one snapshot in one read transaction (in WAL mode the writers go on meanwhile, and nothing they
 * have not committed is copied) and writes it, compacted, to a new file.
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError, StoreErrorCode } from './store-error.js';

/** What {@link backupDatabase} wrote. */
export interface BackupResult {
  /** The backup (absolute path). */
  readonly file: string;
  /** Its size. */
  readonly sizeBytes: number;
  /** Its schema version (the source's). */
  readonly schemaVersion: number;
  /** The copy of the source's command journal (`<file>-commands`), or null when it had none. */
  readonly commandJournal: string | null;
}

/**
 * Writes a consistent copy of the database open on `connection` to `target`, a file that must not
 * exist, mode 0600 (it holds the access token) in a directory made 0700 when missing. The command
 * journal beside the source (`<source>-commands`: commands written before their send, not yet in
 * the tables) is copied first, beside the backup, so that a command whose rows the snapshot misses
 * is in the copied journal (the engine stores its lines at its next start; a line twice is stored
 * once). Both are written under a temporary name, synced and checked (`PRAGMA quick_check`), then
 * hard-linked into place (never over a name taken meanwhile): a backup cut short leaves no file
 * under the name asked for.
 *
 * @param connection - an open connection to the source (read-only is enough)
 * @param source - the source's file as the user knows it (its command journal is beside it)
 * @param target - where the backup goes
 * @throws {@link StoreError} `invalid-argument` when `target` exists or is the source,
 *   `write-failed` when the copy cannot be written or does not check
 */
export function backupDatabase(connection: Database.Database, source: string, target: string): BackupResult {
  const file = resolve(target);
  const journal = `${resolve(source)}-commands`;
  for (const taken of [file, `${file}-commands`, `${file}-wal`]) {
    // lstat: a symbolic link is a name taken, also one to nothing (existsSync follows it)
    if (taken === resolve(source) || lstatSync(taken, { throwIfNoEntry: false }) !== undefined) {
      throw nameTaken(taken);
    }
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial-${process.pid}`;
  const partialJournal = `${partial}-commands`;
  // what this call put under the names asked for, removed again if a later step fails
  const placed: string[] = [];
  try {
    const hasJournal = existsSync(journal);
    if (hasJournal) {
      copyFileSync(journal, partialJournal);
      chmodSync(partialJournal, 0o600);
      syncFile(partialJournal);
    }
    // an empty file of mode 0600 that VACUUM INTO fills (it keeps the file's mode)
    closeSync(openSync(partial, 'wx', 0o600));
    connection.prepare('VACUUM INTO ?').run(partial);
    chmodSync(partial, 0o600);
    syncFile(partial);
    const schemaVersion = check(partial);
    placeNew(partial, file);
    placed.push(file);
    if (hasJournal) placeNew(partialJournal, `${file}-commands`);
    syncFile(dirname(file));
    return {
      file,
      sizeBytes: statSync(file).size,
      schemaVersion,
      commandJournal: hasJournal ? `${file}-commands` : null,
    };
  } catch (e) {
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`, partialJournal, ...placed]) {
      rmSync(f, { force: true });
    }
    if (e instanceof StoreError) throw e;
    throw new StoreError(
      StoreErrorCode.WRITE_FAILED,
      `the backup of ${source} to ${file} failed: ${(e as Error).message}; nothing was left under that name`,
      { cause: e, details: { file } },
    );
  }
}

function nameTaken(file: string): StoreError {
  return new StoreError(
    StoreErrorCode.INVALID_ARGUMENT,
    `${file} exists: a backup never writes over a file; give it a new name`,
    { details: { file } },
  );
}

/**
 * Gives `from` the name `to` where `to` is free, never replacing what another process put there
 * meanwhile: a hard link fails on a name taken (a rename would replace it). A file system without
 * hard links gets a rename after a last look.
 */
function placeNew(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw nameTaken(to);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
    if (lstatSync(to, { throwIfNoEntry: false }) !== undefined) throw nameTaken(to);
    renameSync(from, to);
    return;
  }
  rmSync(from);
}

/** `PRAGMA quick_check` of a written backup; its schema version. */
function check(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') {
      throw new StoreError(
        StoreErrorCode.WRITE_FAILED,
        `the backup written to ${file} does not check: ${result}`,
      );
    }
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** Flushes a file (or a directory's entries) to the disk. */
function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
