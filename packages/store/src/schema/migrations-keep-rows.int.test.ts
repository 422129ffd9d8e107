/**
 * A file an older hoga wrote years ago, full of rows, brought to the current schema: every row is
 * still there and readable through the repositories; a migration that fails half-way leaves the file
 * at its old version with nothing of the failed step in it.
 */
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { T0, tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { SqliteTokenCache } from '../token/sqlite-token-cache.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';
import { migrate } from './migrator.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function tempFile(): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  return join(dir, 'hoga.sqlite');
}

/** Tables whose rows the test writes at version 5, with the count written to each. */
const WRITTEN: Record<string, number> = {
  orders: 2,
  order_broker_ids: 1,
  fills: 2,
  journal: 3,
  token_cache: 1,
  candles: 2,
  candle_ranges: 1,
  runs: 1,
  run_trades: 1,
  run_equity: 2,
  position_snapshots: 2,
  position_snapshot_items: 2,
  strategy_state: 1,
};

/** A version-5 file (the runs table's first version) holding rows in every table a user keeps. */
function fileAtVersion5(): string {
  const file = tempFile();
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  migrate(raw, file, T0, 5);
  raw.exec(`
    INSERT INTO orders (id, client_order_id, strategy_id, mode, symbol, market, currency, side, order_type,
      time_in_force, price, quantity, state, filled_quantity, average_fill_price, created_at, updated_at)
    VALUES (1, 'old-1', 's', 'live', '005930', 'KR', 'KRW', 'BUY', 'LIMIT', 'DAY', '72100', '3', 'FILLED', '3', '72100', 1, 2),
           (2, 'old-2', 's', 'paper', 'AAPL', 'US', 'USD', 'SELL', 'LIMIT', 'DAY', '190.25', '1.5', 'ACCEPTED', '0', NULL, 3, 3);
    INSERT INTO order_broker_ids (broker_order_id, order_id, ordinal, kind, created_at) VALUES ('B-1', 1, 0, 'create', 1);
    INSERT INTO fills (order_id, broker_order_id, symbol, side, quantity, price, commission, commission_currency, tax, filled_at, cumulative_quantity)
    VALUES (1, 'B-1', '005930', 'BUY', '1', '72100', '10.8', 'KRW', NULL, 5, '1'),
           (1, 'B-1', '005930', 'BUY', '2', '72100', '21.6', 'KRW', NULL, 6, '3');
    INSERT INTO journal (type, mode, strategy_id, client_order_id, ts_event, ts_init, payload)
    VALUES ('OrderSubmitted', 'live', 's', 'old-1', 1, 1, '{}'), ('OrderFilled', 'live', 's', 'old-1', 5, 5, '{}'),
           ('OrderFilled', 'live', 's', 'old-1', 6, 6, '{}');
    INSERT INTO token_cache (key, access_token, token_type, expires_at, issued_at) VALUES ('k', 'tok', 'Bearer', 9e15, 1);
    INSERT INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
    VALUES ('005930', '1d', 1, 0, '1', '2', '0.5', '1.5', '100'), ('005930', '1d', 1, 86400000, '1.5', '2', '1', '1.75', '200');
    INSERT INTO candle_ranges (symbol, interval, adjusted, start_ts, end_ts) VALUES ('005930', '1d', 1, 0, 172800000);
    INSERT INTO runs (run_id, kind, strategy_path, strategy_name, params, status, started_at, ended_at, stats)
    VALUES ('bt-1', 'backtest', 'sma.ts', 'sma', '{}', 'completed', 10, 20, NULL);
    INSERT INTO run_trades (run_id, seq, time, strategy_id, symbol, side, quantity, price, currency, commission, tax)
    VALUES ('bt-1', 0, 11, 'sma', '005930', 'BUY', '1', '72100', 'KRW', '10', '0');
    INSERT INTO run_equity (run_id, seq, time, equity) VALUES ('bt-1', 0, 10, 1000000), ('bt-1', 1, 20, 1000100);
    INSERT INTO position_snapshots (id, ts, mode, strategy_id) VALUES (1, 7, 'live', ''), (2, 8, 'paper', 's');
    INSERT INTO position_snapshot_items (snapshot_id, symbol, market, currency, quantity, average_price, realized_pnl)
    VALUES (1, '005930', 'KR', 'KRW', '3', '0', '0'), (2, 'AAPL', 'US', 'USD', '2', '190', '4.5');
    INSERT INTO strategy_state (strategy_id, key, value, updated_at) VALUES ('s', 'k', '"v"', 1);
  `);
  raw.close();
  return file;
}

function counts(db: Database.Database): Record<string, number> {
  return Object.fromEntries(
    Object.keys(WRITTEN).map((t) => [
      t,
      (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
    ]),
  );
}

describe('migrating a file full of rows', () => {
  it('keeps every order, fill, journal entry, run, candle, token and position of a version-5 file', async () => {
    const file = fileAtVersion5();
    const db = HogaDatabase.open(file);
    try {
      expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(counts(db.connection)).toEqual(WRITTEN);
      expect(db.info().integrity).toEqual(['ok']);
      expect(db.connection.pragma('foreign_key_check')).toEqual([]);
      expect(db.orders.get('old-1')).toMatchObject({ state: 'FILLED', filledQuantity: new Decimal('3') });
      expect(db.orders.get('old-2')?.price).toEqual(new Decimal('190.25'));
      expect(db.orders.brokerOrderIds('old-1').map((l) => l.brokerOrderId)).toEqual(['B-1']);
      expect(db.fills.list({ symbol: '005930' }).map((f) => f.cumulativeQuantity.toString())).toEqual([
        '1',
        '3',
      ]);
      expect(db.journal.forOrder('old-1').map((e) => e.type)).toEqual([
        'OrderSubmitted',
        'OrderFilled',
        'OrderFilled',
      ]);
      const key = { symbol: '005930', interval: '1d', adjusted: true } as const;
      expect(db.candles.coverage(key)).toEqual([{ start: 0, end: 172_800_000 }]);
      expect(db.candles.get(key, { start: 0, end: 172_800_000 }).map((c) => c.close.toString())).toEqual([
        '1.5',
        '1.75',
      ]);
      const runs = db.connection.prepare('SELECT run_id, status, pid, host, process_start FROM runs').all();
      expect(runs).toEqual([
        { run_id: 'bt-1', status: 'completed', pid: null, host: null, process_start: null },
      ]);
      // migration 13: the live snapshot's 0 average was never known; the paper one is kept as it was
      const items = db.connection
        .prepare('SELECT symbol, average_price, realized_pnl FROM position_snapshot_items ORDER BY symbol')
        .all();
      expect(items).toEqual([
        { symbol: '005930', average_price: null, realized_pnl: null },
        { symbol: 'AAPL', average_price: '190', realized_pnl: '4.5' },
      ]);
      const token = await new SqliteTokenCache(db).read('k');
      expect(token).toMatchObject({ accessToken: 'tok', tokenType: 'Bearer' });
      expect(token?.credentialFingerprint).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('leaves the file at its old version, without a trace of the step, when a migration fails half-way', () => {
    const file = fileAtVersion5();
    const before = new Database(file, { readonly: true });
    const schemaBefore = before.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all();
    const countsBefore = counts(before);
    before.close();
    const raw = new Database(file);
    const failing = [
      ...MIGRATIONS.slice(0, 6),
      {
        version: 7,
        name: 'a step that fails after its first statement',
        sql: `CREATE TABLE half_done (x INTEGER);
              INSERT INTO half_done VALUES (1);
              DELETE FROM journal;
              ALTER TABLE runs ADD COLUMN pid INTEGER;
              INSERT INTO no_such_table VALUES (1);`,
      },
    ];
    try {
      expect(() => migrate(raw, file, T0, 7, failing)).toThrow(
        expect.objectContaining({
          code: 'migration-failed',
          message: expect.stringMatching(/migration 7 .*no such table.*stays at version 5/),
        }),
      );
    } finally {
      raw.close();
    }
    const after = new Database(file, { readonly: true });
    try {
      expect(after.pragma('user_version', { simple: true })).toBe(5);
      expect(after.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all()).toEqual(
        schemaBefore,
      );
      expect(counts(after)).toEqual(countsBefore);
      expect(after.prepare("SELECT count(*) AS n FROM meta WHERE key LIKE 'migration.%'").get()).toEqual({
        n: 5,
      });
    } finally {
      after.close();
    }
    // and the real migrations still take it to the latest version afterwards
    const db = HogaDatabase.open(file);
    expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(counts(db.connection)).toEqual(WRITTEN);
    db.close();
  });
});
