/**
 * The report of `hoga db info`: what a hoga database file holds and whether SQLite finds it sound.
 *
 * @module
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { LATEST_SCHEMA_VERSION } from './schema/migrations.js';

/** What `hoga db info` shows. */
export interface DatabaseInfo {
  readonly file: string;
  /** Size of the main file in bytes (0 for `:memory:`). */
  readonly sizeBytes: number;
  readonly schemaVersion: number;
  readonly latestSchemaVersion: number;
  /** `wal` for files. */
  readonly journalMode: string;
  readonly foreignKeys: boolean;
  readonly tables: readonly { readonly name: string; readonly rows: number }[];
  /** `['ok']` when `PRAGMA integrity_check` found nothing, else its messages. */
  readonly integrity: readonly string[];
}

/**
 * Describes the database on `connection` (see {@link HogaDatabase.info}).
 *
 * @param connection - the database's connection
 * @param file - the database's file, or `:memory:`
 * @param options - `integrity: false` skips `PRAGMA integrity_check`
 */
export function describeDatabase(
  connection: Database.Database,
  file: string,
  options: { readonly integrity?: boolean },
): DatabaseInfo {
  const c = connection;
  const names = c
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const integrity =
    options.integrity === false ? [] : (c.prepare('PRAGMA integrity_check').pluck().all() as string[]);
  return {
    file,
    sizeBytes: file === ':memory:' ? 0 : statSync(file).size,
    schemaVersion: c.pragma('user_version', { simple: true }) as number,
    latestSchemaVersion: LATEST_SCHEMA_VERSION,
    journalMode: c.pragma('journal_mode', { simple: true }) as string,
    foreignKeys: (c.pragma('foreign_keys', { simple: true }) as number) === 1,
    tables: names.map((name) => ({
      name,
      rows:
        (c
          .prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`)
          .pluck()
          .get() as number) ?? 0,
    })),
    integrity,
  };
}
