import { hostname } from 'node:os';
import { Decimal, VirtualClock } from '@hoga/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileAtVersion, openTemp, T0, tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { LATEST_SCHEMA_VERSION } from '../schema/migrations.js';
import { processStart } from './run-process.js';
import { type NewRun, RunRepository, type RunTrade } from './run-repository.js';

let db: HogaDatabase;
let file: string;
let cleanup: () => void;
let runs: RunRepository;
beforeEach(() => {
  ({ db, file, cleanup } = openTemp());
  runs = new RunRepository(db.connection);
});
afterEach(() => cleanup());

const T = Date.parse('2026-11-23T09:00:00+09:00');
const run = (runId: string, startedAt = T, kind: NewRun['kind'] = 'backtest'): NewRun => ({
  runId,
  kind,
  strategyPath: 'strategies/sma-crossover.ts',
  strategyName: 'sma-crossover',
  params: {
    config: { fast: 5, slow: 20, quantity: 10 },
    symbols: ['005930', 'AAPL'],
    cash: { KRW: new Decimal('1e8') },
  },
  startedAt,
});
const trades: RunTrade[] = [
  {
    time: T + 60_000,
    strategyId: 'sma',
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal(10),
    price: new Decimal(72100),
    currency: 'KRW',
    commission: new Decimal('108.15'),
    tax: new Decimal(0),
  },
  {
    time: T + 120_000,
    strategyId: 'sma',
    symbol: 'AAPL',
    side: 'SELL',
    quantity: new Decimal('0.123456'),
    price: new Decimal('190.01'),
    currency: 'USD',
    commission: new Decimal('0.01'),
    tax: new Decimal('0.000001'),
  },
];

describe('RunRepository', () => {
  describe('.record', () => {
    it('stores a run with its params, stats, trades and equity, read back exactly after reopening', () => {
      const equity = [
        { time: T, equity: 100_000_000 },
        { time: T + 86_400_000, equity: 100_123_456.78 },
      ];
      runs.record(
        run('r1'),
        {
          status: 'completed',
          endedAt: T + 5_000,
          stats: { totalReturn: 0.0012, commissions: { KRW: new Decimal('108.15') } },
        },
        trades,
        equity,
      );
      db.close();
      const raw = new Database(file);
      const again = new RunRepository(raw);
      try {
        expect(again.get('r1')).toEqual({
          runId: 'r1',
          kind: 'backtest',
          strategyPath: 'strategies/sma-crossover.ts',
          strategyName: 'sma-crossover',
          params: {
            config: { fast: 5, slow: 20, quantity: 10 },
            symbols: ['005930', 'AAPL'],
            cash: { KRW: '100000000' },
          },
          status: 'completed',
          startedAt: T,
          process: { pid: process.pid, host: hostname(), start: processStart(process.pid) },
          endedAt: T + 5_000,
          stats: { totalReturn: 0.0012, commissions: { KRW: '108.15' } },
        });
        expect(again.trades('r1')).toEqual(trades);
        expect(again.equity('r1')).toEqual(equity);
        const text = raw
          .prepare("SELECT quantity, tax FROM run_trades WHERE run_id = 'r1' ORDER BY seq")
          .raw()
          .all();
        expect(text).toEqual([
          ['10', '0'],
          ['0.123456', '0.000001'],
        ]);
      } finally {
        raw.close();
      }
    });

    it('stores nothing of a run when a part fails (one transaction)', () => {
      const bad = { ...trades[1], side: 'HOLD' } as unknown as RunTrade;
      expect(() =>
        runs.record(
          run('x'),
          { status: 'completed', endedAt: T, stats: {} },
          [trades[0] as RunTrade, bad],
          [],
        ),
      ).toThrow();
      expect(runs.get('x')).toBeUndefined();
      expect(runs.trades('x')).toEqual([]);
    });

    it('refuses a run id that is already stored', () => {
      runs.start(run('taken'));
      expect(() => runs.start(run('taken'))).toThrow(/already stored/);
    });
  });

  describe('.start / .appendTrades / .appendEquity / .finish', () => {
    it('builds a run up piece by piece, appending after what is stored', () => {
      runs.start(run('live-1', T, 'live'));
      runs.appendTrades('live-1', trades.slice(0, 1));
      runs.appendTrades('live-1', trades.slice(1));
      runs.appendEquity('live-1', [{ time: T, equity: 1 }]);
      runs.appendEquity('live-1', [{ time: T + 1, equity: 2 }]);
      expect(runs.get('live-1')).toMatchObject({ status: 'running', endedAt: null, stats: null });
      runs.finish('live-1', { status: 'stopped', endedAt: T + 10, stats: { trades: 2 } });
      expect(runs.get('live-1')).toMatchObject({ status: 'stopped', endedAt: T + 10, stats: { trades: 2 } });
      expect(runs.trades('live-1').map((t) => t.symbol)).toEqual(['005930', 'AAPL']);
      expect(runs.equity('live-1').map((p) => p.equity)).toEqual([1, 2]);
    });

    it('stores long runs many rows per statement: appended in pieces, read back in order and numbered without gaps', () => {
      // 700 trades and 1,000 points: whole blocks of rows and the rows after them, twice over
      const many: RunTrade[] = Array.from({ length: 700 }, (_, i) => ({
        time: T + i * 60_000,
        strategyId: i % 3 === 0 ? null : `s${i % 2}`,
        symbol: i % 2 === 0 ? '005930' : 'AAPL',
        side: i % 2 === 0 ? 'BUY' : 'SELL',
        quantity: new Decimal(i % 2 === 0 ? 10 + i : `0.${String(i).padStart(6, '0')}1`),
        price: new Decimal(i % 2 === 0 ? 72_100 + i * 100 : `190.${i}`),
        currency: i % 2 === 0 ? 'KRW' : 'USD',
        commission: new Decimal(i % 5 === 0 ? 0 : `${i}.15`),
        tax: new Decimal(i % 4 === 0 ? `${i}` : '0'),
      }));
      const points = Array.from({ length: 1_000 }, (_, i) => ({
        time: T + i * 86_400_000,
        equity: 1e8 + i * 0.25,
      }));
      runs.record(
        run('long'),
        { status: 'completed', endedAt: T, stats: {} },
        many.slice(0, 300),
        points.slice(0, 600),
      );
      runs.appendTrades('long', many.slice(300, 301));
      runs.appendTrades('long', many.slice(301));
      runs.appendEquity('long', points.slice(600));
      runs.appendTrades('other', []);
      expect(runs.trades('long')).toEqual(many.map((t) => ({ ...t, strategyId: t.strategyId ?? null })));
      expect(runs.equity('long')).toEqual(points);
      const seqs = (table: string) =>
        db.connection
          .prepare(`SELECT seq, typeof(seq) FROM ${table} WHERE run_id = 'long' ORDER BY seq`)
          .raw()
          .all();
      expect(seqs('run_trades')).toEqual(many.map((_, i) => [i, 'integer']));
      expect(seqs('run_equity')).toEqual(points.map((_, i) => [i, 'integer']));
    });

    it('refuses to finish an unknown run', () => {
      expect(() => runs.finish('nope', { status: 'failed', endedAt: T, stats: null })).toThrow(/no run nope/);
    });
  });

  describe('.list', () => {
    it('lists the newest runs first, of one kind when asked', () => {
      runs.start(run('a', T));
      runs.start(run('b', T + 1, 'paper'));
      runs.start(run('c', T + 2));
      expect(runs.list().map((r) => r.runId)).toEqual(['c', 'b', 'a']);
      expect(runs.list({ kind: 'backtest', limit: 1 }).map((r) => r.runId)).toEqual(['c']);
    });
  });

  describe('.start: the process of a run', () => {
    it('records the process that starts the run, the one given, or none when told so', () => {
      runs.start(run('here'));
      runs.start({ ...run('there'), process: { pid: 4242, host: 'other-machine' } });
      runs.start({ ...run('none'), process: null });
      expect(runs.get('here')?.process).toEqual({
        pid: process.pid,
        host: hostname(),
        start: processStart(process.pid),
      });
      expect(runs.get('there')?.process).toEqual({ pid: 4242, host: 'other-machine', start: null });
      expect(runs.get('none')?.process).toBeNull();
    });
  });

  /**
   * A file at `version` holding the run `old` (inserted by `insertOld`), opened by hoga: migrated to
   * the latest version, `migration` recorded in `meta`, and handed to `check`.
   */
  function migratedFrom(
    version: number,
    migration: number,
    insertOld: (raw: Database.Database) => void,
    unmigrated: (raw: RunRepository) => void,
    check: (runs: RunRepository) => void,
  ): void {
    const { dir, cleanup: removeDir } = tempDir();
    try {
      const old = fileAtVersion(dir, version, (raw) => {
        insertOld(raw);
        // read without migrating (as hoga db runs reads a file)
        unmigrated(new RunRepository(raw));
      });
      const opened = HogaDatabase.open(old, { clock: new VirtualClock(T0) });
      try {
        expect(opened.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        check(new RunRepository(opened.connection));
        const meta = opened.connection
          .prepare('SELECT value FROM meta WHERE key = ?')
          .pluck()
          .get(`migration.${migration}`);
        expect(JSON.parse(meta as string)).toMatchObject({ appliedAt: T0 });
      } finally {
        opened.close();
      }
    } finally {
      removeDir();
    }
  }

  describe('migration 10', () => {
    it('brings a version-9 file up: its runs have no process, a new run records its own', () => {
      migratedFrom(
        9,
        10,
        (raw) =>
          raw
            .prepare(
              `INSERT INTO runs (run_id, kind, strategy_name, params, status, started_at)
               VALUES ('old', 'backtest', 'sma', '{}', 'running', ?)`,
            )
            .run(T0),
        (unmigrated) => expect(unmigrated.get('old')).toMatchObject({ status: 'running', process: null }),
        (migrated) => {
          expect(migrated.get('old')).toMatchObject({ status: 'running', process: null });
          migrated.start(run('new'));
          expect(migrated.get('new')?.process).toMatchObject({ pid: process.pid, host: hostname() });
        },
      );
    });
  });

  describe('migration 12', () => {
    it('brings a version-11 file up: its runs keep their pid and host, with no start; a new run records its own', () => {
      const kept = { pid: 4242, host: 'other-machine', start: null };
      migratedFrom(
        11,
        12,
        (raw) =>
          raw
            .prepare(
              `INSERT INTO runs (run_id, kind, strategy_name, params, status, started_at, pid, host)
               VALUES ('old', 'backtest', 'sma', '{}', 'running', ?, 4242, 'other-machine')`,
            )
            .run(T0),
        (unmigrated) => expect(unmigrated.get('old')?.process).toEqual(kept),
        (migrated) => {
          expect(migrated.get('old')?.process).toEqual(kept);
          migrated.start(run('new'));
          expect(migrated.get('new')?.process).toEqual({
            pid: process.pid,
            host: hostname(),
            start: processStart(process.pid),
          });
        },
      );
    });
  });
});
