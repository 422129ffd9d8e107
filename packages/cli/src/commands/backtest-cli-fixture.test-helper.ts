/**
 * The set-up the `hoga backtest` CLI tests of one file share: a simulator on 127.0.0.1 (its candles
 * endpoint at 100 requests a second, announced in `X-RateLimit-Limit`, which hoga follows: the
 * minute runs' downloads waited at the spec's 5 a second), a temporary directory with the run's
 * database, the arguments of a daily backtest against them, and a reader of the stored rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterAll, beforeAll } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { SMA } from './backtest-runs.test-helper.js';

/** The daily range the tests' runs cover unless told. */
export const FROM = '2025-01-01';
export const TO = '2025-12-31';

/** What a backtest of {@link BacktestCliFixture.args} runs; each field has a default. */
export interface BacktestRun {
  /** The strategy file (default the SMA crossover). */
  readonly strategy?: string;
  /** The symbols (default 005930). */
  readonly symbols?: readonly string[];
  readonly from?: string;
  readonly to?: string;
  /** The bars' interval (default 1d). */
  readonly interval?: '1d' | '1m';
  /** More flags, after the range. */
  readonly extra?: readonly string[];
}

/** The file's simulator, directory and database (read them inside tests: set in `beforeAll`). */
export interface BacktestCliFixture {
  readonly dir: string;
  /** The database file every run of the file stores into. */
  readonly db: string;
  /** The arguments after `backtest` of a run on the simulator and the database (daily unless told). */
  args(run?: BacktestRun): string[];
  /** Opens the database for `read`, and closes it. */
  readStore<T>(read: (database: HogaDatabase, runs: RunRepository) => T): T;
}

/** Starts the simulator and makes the directory before the file's tests, and ends both after them. */
export function useBacktestCli(): BacktestCliFixture {
  let sim: SimulatorHandle | undefined;
  let dir = '';
  let db = '';
  let connection: string[] = [];
  beforeAll(async () => {
    sim = await startSimulator({
      port: 0,
      rateLimits: { MARKET_DATA_CHART: { perSecond: 100, peakPerSecond: null } },
    });
    dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-int-'));
    db = join(dir, 'hoga.sqlite');
    connection = [...simFlags(sim.url), '--db', db];
  });
  afterAll(async () => {
    await sim?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get db() {
      return db;
    },
    args: (run = {}) => [
      run.strategy ?? SMA,
      '--symbols',
      (run.symbols ?? ['005930']).join(','),
      '--interval',
      run.interval ?? '1d',
      '--from',
      run.from ?? FROM,
      '--to',
      run.to ?? TO,
      ...(run.extra ?? []),
      ...connection,
    ],
    readStore: (read) => {
      const database = HogaDatabase.open(db);
      try {
        return read(database, new RunRepository(database.connection));
      } finally {
        database.close();
      }
    },
  };
}
