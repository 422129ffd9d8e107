/**
 * {@link CandleCache.store} of a range without candles (a holiday, a US minute range with no trades,
 * the days before a listing) while another process writes the file: two `hoga data download`, or
 * one beside a backtest filling its gaps. Before, the transaction began as a reader (its first
 * statement looks up the touching ranges) and its first write then had to upgrade a snapshot while
 * the other process held the write lock: SQLite refuses that at once, without the busy timeout, and
 * the download ended with `database is locked`. A store with candles began with a write and waited.
 * A child process holding the write lock, a real SQLite file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/**
 * A process that takes the file's write lock, stores a covered range of AAPL in it, says `locked`
 * and commits a moment later (by itself: this process's thread waits in SQLite meanwhile).
 */
function otherWriter(file: string): {
  child: ChildProcess;
  locked: Promise<void>;
  done: Promise<number | null>;
} {
  const script = `
    import Database from 'better-sqlite3';
    const db = new Database(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO candle_ranges (symbol, interval, adjusted, start_ts, end_ts) VALUES ('AAPL', '1m', 1, 0, 60000)").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, file], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      if (s.includes('locked')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the other writer exited (${code}) before taking the lock`)));
  });
  const done = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, locked, done };
}

describe('CandleCache.store beside another process writing', () => {
  it('waits for its write lock when storing a range without candles, and keeps both writes', async () => {
    const { dir, cleanup } = tempDir('hoga-candle-lock-');
    cleanups.push(cleanup);
    const file = join(dir, 'hoga.sqlite');
    const db = HogaDatabase.open(file);
    cleanups.push(() => db.close());
    const key = { symbol: '005930', interval: '1m', adjusted: true } as const;
    db.candles.store(key, { start: 0, end: 60_000 }, []);

    const other = otherWriter(file);
    await other.locked;
    // before: SqliteError "database is locked" at once
    db.candles.store(key, { start: 60_000, end: 120_000 }, []);
    expect(await other.done).toBe(0);
    expect(db.candles.coverage(key)).toEqual([{ start: 0, end: 120_000 }]);
    expect(db.candles.coverage({ symbol: 'AAPL', interval: '1m', adjusted: true })).toEqual([
      { start: 0, end: 60_000 },
    ]);
  });
});
