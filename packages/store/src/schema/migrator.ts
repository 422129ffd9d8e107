/**
 * Recognising a hoga database file and bringing it to the current schema.
 *
 * @module
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { DatabaseFileError, SchemaVersionError, StoreError, StoreErrorCode } from '../store-error.js';
import { HOGA_APPLICATION_ID, LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from './migrations.js';

const SQLITE_HEADER = 'SQLite format 3\u0000';

/** What a connection's file holds, read without writing anything. */
export interface FileIdentity {
  /** `PRAGMA application_id`. */
  readonly applicationId: number;
  /** `PRAGMA user_version` (the schema version). */
  readonly userVersion: number;
  /** Number of entries in `sqlite_schema`. */
  readonly schemaObjects: number;
}

/**
 * Checks the first 16 bytes of an existing non-empty file before SQLite touches it.
 *
 * @throws {@link DatabaseFileError} `foreign-database` when the file is not a SQLite file
 */
export function assertSqliteHeader(file: string): void {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(16);
    const read = readSync(fd, header, 0, 16, 0);
    if (read > 0 && header.subarray(0, read).toString('latin1') !== SQLITE_HEADER.slice(0, read)) {
      throw new DatabaseFileError(StoreErrorCode.FOREIGN_DATABASE, file, 'the file is not a SQLite database');
    }
    if (read > 0 && read < 16) {
      throw new DatabaseFileError(
        StoreErrorCode.CORRUPT_DATABASE,
        file,
        `the file is truncated (${read} bytes)`,
      );
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the identity of the connection's file; a damaged file fails here.
 *
 * @throws {@link DatabaseFileError} when SQLite cannot read the file
 */
export function readIdentity(db: Database.Database, file: string): FileIdentity {
  try {
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    const row = db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number };
    return { applicationId, userVersion, schemaObjects: row.n };
  } catch (e) {
    throw wrapSqliteError(e, file);
  }
}

/**
 * Refuses a file this code must not touch: another application's SQLite file, or a newer schema.
 *
 * @throws {@link DatabaseFileError} `foreign-database`
 * @throws {@link SchemaVersionError} `schema-too-new`
 */
export function assertOurs(identity: FileIdentity, file: string): void {
  const fresh = identity.applicationId === 0 && identity.userVersion === 0 && identity.schemaObjects === 0;
  if (identity.applicationId !== HOGA_APPLICATION_ID && !fresh) {
    const id = `0x${identity.applicationId.toString(16).padStart(8, '0')}`;
    throw new DatabaseFileError(
      StoreErrorCode.FOREIGN_DATABASE,
      file,
      `it is a SQLite database of another application (application_id ${id}, ${identity.schemaObjects} schema objects)`,
    );
  }
  if (identity.userVersion > LATEST_SCHEMA_VERSION) {
    throw new SchemaVersionError(file, identity.userVersion, LATEST_SCHEMA_VERSION);
  }
}

/** Outcome of {@link migrate}. */
export interface MigrationResult {
  /** Version before. */
  readonly from: number;
  /** Version after. */
  readonly to: number;
}

/**
 * Applies the missing migrations up to `target` in one IMMEDIATE transaction, so two processes
 * opening a fresh file never both migrate it, and a failure leaves the file at its old version.
 *
 * @param db - an open connection to a file accepted by {@link assertOurs}
 * @param file - the file, for messages
 * @param nowMs - the time recorded in `meta`
 * @param target - version to reach (tests build older files with a lower target)
 * @param migrations - the migration list (tests only)
 * @throws {@link StoreError} `migration-failed`
 */
export function migrate(
  db: Database.Database,
  file: string,
  nowMs: number,
  target: number = LATEST_SCHEMA_VERSION,
  migrations: readonly Migration[] = MIGRATIONS,
): MigrationResult {
  const run = db.transaction((): MigrationResult => {
    const from = db.pragma('user_version', { simple: true }) as number;
    if (from > target) return { from, to: from };
    for (const migration of migrations) {
      if (migration.version <= from || migration.version > target) continue;
      try {
        db.exec(migration.sql);
      } catch (e) {
        throw new StoreError(
          StoreErrorCode.MIGRATION_FAILED,
          `${file}: migration ${migration.version} (${migration.name}) failed: ${(e as Error).message}; ` +
            `the file stays at version ${from}`,
          { cause: e, details: { file, version: migration.version } },
        );
      }
      if (migration.version === 1) {
        db.pragma(`application_id = ${HOGA_APPLICATION_ID}`);
        db.prepare("INSERT INTO meta (key, value) VALUES ('application', 'hoga'), ('created_at', ?)").run(
          String(nowMs),
        );
      }
      db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(
        `migration.${migration.version}`,
        JSON.stringify({ name: migration.name, appliedAt: nowMs }),
      );
      db.pragma(`user_version = ${migration.version}`);
    }
    return { from, to: db.pragma('user_version', { simple: true }) as number };
  });
  try {
    return run.immediate();
  } catch (e) {
    throw e instanceof StoreError ? e : wrapSqliteError(e, file);
  }
}

/**
 * Maps a SQLite error about the file itself to a {@link DatabaseFileError}, a lock held past the busy
 * timeout to `database-locked`, others to `database-open-failed`.
 */
export function wrapSqliteError(e: unknown, file: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = (e as { code?: unknown }).code;
  const message = (e as Error).message ?? String(e);
  if (code === 'SQLITE_NOTADB') {
    return new DatabaseFileError(StoreErrorCode.FOREIGN_DATABASE, file, message, e);
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_CORRUPT_VTAB') {
    return new DatabaseFileError(StoreErrorCode.CORRUPT_DATABASE, file, message, e);
  }
  if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
    // SQLite's "database is locked" names neither the cause nor the way out
    return new StoreError(
      StoreErrorCode.DATABASE_LOCKED,
      `${file} is locked by another process writing to it (a hoga run, a download, another command) ` +
        `past the busy timeout (${message}): run the command again when it is done`,
      { cause: e, details: { file } },
    );
  }
  return new StoreError(StoreErrorCode.OPEN_FAILED, `${file}: ${message}`, { cause: e, details: { file } });
}
