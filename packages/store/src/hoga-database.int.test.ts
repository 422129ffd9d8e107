import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleOrder, T0, tempDir } from '../test/support.js';
import { HogaDatabase } from './hoga-database.js';
import { HOGA_APPLICATION_ID, LATEST_SCHEMA_VERSION, MIGRATIONS } from './schema/migrations.js';
import { migrate } from './schema/migrator.js';
import { DatabaseFileError, SchemaVersionError, StoreError } from './store-error.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function tempFile(name = 'hoga.sqlite'): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, name);
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Builds a file at schema `version` with the real migrations, as an older hoga would have left it. */
function fileAtVersion(version: number): string {
  const file = tempFile();
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  migrate(raw, file, T0, version);
  if (version >= 1) {
    raw
      .prepare(
        `INSERT INTO orders (client_order_id, strategy_id, mode, symbol, market, currency, side, order_type,
           time_in_force, price, quantity, state, created_at, updated_at)
         VALUES ('old-1', 's', 'live', '005930', 'KR', 'KRW', 'BUY', 'LIMIT', 'DAY', '72100', '3', 'ACCEPTED', 1, 1)`,
      )
      .run();
  }
  raw.close();
  return file;
}

describe('HogaDatabase', () => {
  describe('.open', () => {
    it('creates the directory and a WAL file of mode 0600 with foreign keys on when the file is missing', () => {
      const file = join(tempFile('unused'), '..', 'nested', 'dir', 'hoga.sqlite');
      const db = HogaDatabase.open(file);
      try {
        const info = db.info();
        expect(info.journalMode).toBe('wal');
        expect(info.foreignKeys).toBe(true);
        expect(info.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        expect(info.integrity).toEqual(['ok']);
        expect(db.connection.pragma('application_id', { simple: true })).toBe(HOGA_APPLICATION_ID);
        expect(db.connection.pragma('synchronous', { simple: true })).toBe(1);
        db.journal.append({ type: 'Ping', tsEvent: 1, tsInit: 1, mode: 'live', payload: {} });
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
      } finally {
        db.close();
      }
    });

    it('makes an older file of mode 0644, and the command journal beside it, 0600 as it migrates it', () => {
      const file = fileAtVersion(3);
      chmodSync(file, 0o644);
      writeFileSync(`${file}-commands`, '');
      chmodSync(`${file}-commands`, 0o644);
      const db = HogaDatabase.open(file);
      try {
        db.journal.append({ type: 'Ping', tsEvent: 1, tsInit: 1, mode: 'live', payload: {} });
        expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        for (const f of [file, `${file}-wal`, `${file}-commands`])
          expect(statSync(f).mode & 0o777, f).toBe(0o600);
        db.connection.exec('VACUUM');
        expect(statSync(file).mode & 0o777).toBe(0o600);
      } finally {
        db.close();
      }
    });

    it('migrates an empty file to the latest version', () => {
      const file = tempFile();
      writeFileSync(file, '');
      const db = HogaDatabase.open(file);
      expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(db.info().tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['orders', 'order_broker_ids', 'fills', 'journal', 'candles', 'token_cache']),
      );
      db.close();
    });

    it.each(Array.from({ length: LATEST_SCHEMA_VERSION }, (_, v) => v))(
      'upgrades a file of version %i in place, keeping its rows',
      (version) => {
        const file = fileAtVersion(version);
        const db = HogaDatabase.open(file);
        try {
          expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
          expect(db.info().integrity).toEqual(['ok']);
          if (version >= 1) expect(db.orders.get('old-1')?.quantity).toEqual(new Decimal('3'));
          const applied = db.connection
            .prepare(
              "SELECT key FROM meta WHERE key LIKE 'migration.%' ORDER BY CAST(substr(key, 11) AS INTEGER)",
            )
            .pluck()
            .all();
          expect(applied).toEqual(MIGRATIONS.map((m) => `migration.${m.version}`));
          db.candles.store({ symbol: '005930', interval: '1d', adjusted: true }, { start: 0, end: 10 }, []);
          expect(db.candles.coverage({ symbol: '005930', interval: '1d', adjusted: true })).toEqual([
            { start: 0, end: 10 },
          ]);
        } finally {
          db.close();
        }
      },
    );

    it('refuses a newer file with both versions named and leaves it byte for byte untouched', () => {
      const file = fileAtVersion(LATEST_SCHEMA_VERSION);
      const raw = new Database(file);
      raw.pragma('journal_mode = DELETE');
      raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
      raw.close();
      const before = sha256(file);
      const error = captureOpen(file);
      expect(error).toBeInstanceOf(SchemaVersionError);
      expect(error).toMatchObject({ code: 'schema-too-new', file, fileVersion: LATEST_SCHEMA_VERSION + 1 });
      expect(error.message).toContain(file);
      expect(error.message).toContain(String(LATEST_SCHEMA_VERSION + 1));
      expect(error.message).toContain(String(LATEST_SCHEMA_VERSION));
      expect(sha256(file)).toBe(before);
    });

    it.each([
      [
        'a text file',
        (file: string) => writeFileSync(file, 'buy low, sell high\n'.repeat(100)),
        'foreign-database',
      ],
      [
        'a SQLite database of another application',
        (file: string) => {
          const raw = new Database(file);
          raw.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
          raw.close();
        },
        'foreign-database',
      ],
      [
        'a SQLite file with another application_id',
        (file: string) => {
          const raw = new Database(file);
          raw.pragma('application_id = 1234');
          raw.close();
        },
        'foreign-database',
      ],
      [
        'a SQLite header followed by garbage',
        (file: string) => {
          const bytes = Buffer.alloc(8192, 0xa5);
          bytes.write('SQLite format 3\u0000', 0, 'latin1');
          writeFileSync(file, bytes);
        },
        undefined,
      ],
      ['a truncated SQLite header', (file: string) => writeFileSync(file, 'SQLite f'), 'corrupt-database'],
    ] as const)('refuses %s with an error naming the file, leaving it untouched', (_, make, code) => {
      const file = tempFile();
      make(file);
      const before = sha256(file);
      const error = captureOpen(file);
      expect(error).toBeInstanceOf(DatabaseFileError);
      expect(error.message).toContain(file);
      if (code !== undefined) expect(error.code).toBe(code);
      expect(sha256(file)).toBe(before);
    });

    it('refuses a hoga file whose schema page is damaged with corrupt-database naming the file', () => {
      const file = fileAtVersion(LATEST_SCHEMA_VERSION);
      const bytes = readFileSync(file);
      bytes.fill(0xa5, 100, 4096); // page 1 after the header: the root of sqlite_schema
      writeFileSync(file, bytes);
      const error = captureOpen(file);
      expect(error).toBeInstanceOf(DatabaseFileError);
      expect(error.code).toBe('corrupt-database');
      expect(error.message).toContain(file);
    });

    it('opens :memory: migrated, for unit tests', () => {
      const db = HogaDatabase.open(':memory:');
      try {
        expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        db.orders.recordIntent(sampleOrder('m-1'));
        expect(db.info()).toMatchObject({
          file: ':memory:',
          sizeBytes: 0,
          journalMode: 'memory',
          integrity: ['ok'],
        });
      } finally {
        db.close();
      }
    });

    it('builds a new file at an older schema version when asked for one, and migrates it on the next open', () => {
      const file = tempFile();
      const older = HogaDatabase.open(file, { migrate: LATEST_SCHEMA_VERSION - 1 });
      try {
        expect(older.schemaVersion).toBe(LATEST_SCHEMA_VERSION - 1);
      } finally {
        older.close();
      }
      // a version below the file's leaves it as it is
      const past = HogaDatabase.open(file, { migrate: 3 });
      past.close();
      const reopened = new Database(file);
      expect(reopened.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION - 1);
      reopened.close();
      const db = HogaDatabase.open(file);
      try {
        expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      } finally {
        db.close();
      }
    });

    it('opens an older file without migrating when asked, and refuses repository use until migrated', () => {
      const file = fileAtVersion(1);
      const db = HogaDatabase.open(file, { migrate: false });
      try {
        expect(db.schemaVersion).toBe(1);
        expect(() => db.orders).toThrow(expect.objectContaining({ code: 'schema-too-old' }));
        expect(db.migrate()).toEqual({ from: 1, to: LATEST_SCHEMA_VERSION });
        expect(db.orders.get('old-1')?.state).toBe('ACCEPTED');
      } finally {
        db.close();
      }
    });
  });

  describe('.durableTransaction', () => {
    it('commits with synchronous=FULL and restores NORMAL afterwards', () => {
      const db = HogaDatabase.open(tempFile());
      try {
        const seen = db.durableTransaction(() => db.connection.pragma('synchronous', { simple: true }));
        expect(seen).toBe(2);
        expect(db.connection.pragma('synchronous', { simple: true })).toBe(1);
      } finally {
        db.close();
      }
    });

    it('throws durability-conflict when nested inside a normal transaction, and writes nothing', () => {
      const db = HogaDatabase.open(tempFile());
      try {
        expect(() => db.transaction(() => db.orders.recordIntent(sampleOrder('c-1')))).toThrow(
          expect.objectContaining({ code: 'durability-conflict' }),
        );
        expect(db.orders.get('c-1')).toBeNull();
        expect(db.connection.pragma('synchronous', { simple: true })).toBe(1);
      } finally {
        db.close();
      }
    });

    it('rolls back every write when the function throws', () => {
      const db = HogaDatabase.open(tempFile());
      try {
        expect(() =>
          db.durableTransaction(() => {
            db.orders.recordIntent(sampleOrder('c-1'));
            throw new Error('boom');
          }),
        ).toThrow('boom');
        expect(db.orders.get('c-1')).toBeNull();
      } finally {
        db.close();
      }
    });
  });

  describe('.info', () => {
    it('lists every table with its row count', () => {
      const db = HogaDatabase.open(tempFile());
      try {
        db.orders.recordIntent(sampleOrder('c-1'));
        db.orders.recordIntent(sampleOrder('c-2'));
        const rows = Object.fromEntries(db.info().tables.map((t) => [t.name, t.rows]));
        expect(rows.orders).toBe(2);
        expect(rows.fills).toBe(0);
        expect(rows.meta).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    });
  });
});

function captureOpen(file: string): StoreError & { file?: string } {
  try {
    HogaDatabase.open(file).close();
  } catch (e) {
    if (e instanceof StoreError) return e;
    throw e;
  }
  throw new Error(`expected ${file} to be refused`);
}

describe('HogaDatabase.withoutBusyWait', () => {
  it('refuses a write to a file another connection holds locked at once, and restores the busy timeout', () => {
    const file = tempFile();
    // a busy timeout far beyond the test's own: waiting it out would fail the test
    const db = HogaDatabase.open(file, { busyTimeoutMs: 600_000 });
    const other = new Database(file);
    try {
      other.exec('BEGIN IMMEDIATE');
      const write = () =>
        db.transaction(() =>
          db.journal.append({ type: 'Ping', tsEvent: 1, tsInit: 1, mode: 'live', payload: {} }),
        );
      expect(() => db.withoutBusyWait(write)).toThrow(/database is locked/);
      expect(db.connection.pragma('busy_timeout', { simple: true })).toBe(600_000);
      other.exec('COMMIT');
      expect(
        db.withoutBusyWait(() => {
          write();
          return 'stored';
        }),
      ).toBe('stored');
      expect(db.connection.pragma('busy_timeout', { simple: true })).toBe(600_000);
    } finally {
      other.close();
      db.close();
    }
  });
});
