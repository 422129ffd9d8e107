/**
 * A file another process holds locked for writing, as `hoga` reports it: the store's `database-locked`
 * failure keeps its message as it is (the file, the lock and the way out), and SQLite's own
 * `SQLITE_BUSY` met outside the store's wrapping gets the same code and a sentence saying the same;
 * before, it was `unexpected error: database is locked`. Real SQLite files, two connections.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase, LATEST_SCHEMA_VERSION, StoreErrorCode } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeError } from './describe-error.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-describe-locked-'));
  file = join(dir, 'hoga.sqlite');
  HogaDatabase.open(file).close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What `fn` throws while another connection holds the write lock of `locked` (default the file). */
function thrownWhileLocked(fn: () => unknown, locked = file): unknown {
  const holder = HogaDatabase.open(locked, { migrate: false });
  holder.connection.exec('BEGIN IMMEDIATE');
  try {
    fn();
  } catch (error) {
    return error;
  } finally {
    holder.connection.exec('ROLLBACK');
    holder.close();
  }
  throw new Error('nothing was thrown');
}

describe('describeError of a locked database', () => {
  it("SQLite's own SQLITE_BUSY: database-locked, saying who may hold it and to run again, exit 1", () => {
    const other = HogaDatabase.open(file, { migrate: false });
    try {
      const error = thrownWhileLocked(() =>
        other.withoutBusyWait(() => other.connection.exec("INSERT INTO meta (key, value) VALUES ('x', 'y')")),
      );
      expect((error as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      const report = describeError(error);
      expect(report.code).toBe('database-locked');
      expect(report.exitCode).toBe(1);
      expect(report.lines).toEqual([
        'the database is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout (SQLite: database is locked): run the command again when it is done',
      ]);
    } finally {
      other.close();
    }
  });

  it("the store's database-locked failure (a migration that met the lock): its message alone, not prefixed by its code", () => {
    // a file one schema version behind: opening it migrates, which needs the write lock
    const older = join(dir, 'older.sqlite');
    HogaDatabase.open(older, { migrate: LATEST_SCHEMA_VERSION - 1 }).close();
    const error = thrownWhileLocked(() => HogaDatabase.open(older, { busyTimeoutMs: 50 }).close(), older);
    expect((error as { code?: string }).code).toBe(StoreErrorCode.DATABASE_LOCKED);
    const report = describeError(error);
    expect(report.code).toBe('database-locked');
    expect(report.lines).toHaveLength(1);
    expect(report.lines[0]).toMatch(
      new RegExp(`^${older.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is locked by another process`),
    );
  });
});
