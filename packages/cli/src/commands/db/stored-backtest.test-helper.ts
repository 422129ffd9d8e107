/**
 * What the `hoga db` tests over a stored backtest share: one backtest stored by a real
 * `hoga backtest` (the embedded simulator, USD/KRW fixed at 1,400) in a database file of its own,
 * and a write lock held on that file by another connection. Test code only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, expect } from 'vitest';
import { type HogaRun, hoga, tempHome } from '../../hoga-process.test-helper.js';
import { SMA } from '../backtest-runs.test-helper.js';

/** The stored backtest's directory, HOME, file and run id (set before the file's tests). */
export interface StoredBacktest {
  readonly dir: string;
  readonly home: string;
  readonly file: string;
  readonly runId: string;
  /** `hoga <args>` in the directory, with its HOME. */
  run(args: readonly string[]): Promise<HogaRun>;
}

/**
 * Stores the reference strategy's daily backtest of 005930 over `range` before a file's tests,
 * and removes its directory and HOME after them.
 *
 * @param prefix - the temporary directory's name
 * @param range - the `--from` and `--to` flags
 */
export function useStoredBacktest(
  prefix: string,
  range = '--from 2025-01-01 --to 2025-02-28',
): StoredBacktest {
  const stored = {
    dir: '',
    home: '',
    file: '',
    runId: '',
    run: (args: readonly string[]) => hoga(args, { cwd: stored.dir, env: { HOME: stored.home } }),
  };
  beforeAll(async () => {
    stored.dir = mkdtempSync(join(tmpdir(), prefix));
    stored.home = tempHome();
    stored.file = join(stored.dir, 'runs.sqlite');
    const flags = `--symbols 005930 --interval 1d ${range} --usd-krw 1400 --db ${stored.file} --json`;
    const bt = await stored.run(['backtest', SMA, ...flags.split(' ')]);
    expect(bt.code, bt.err).toBe(0);
    stored.runId = (JSON.parse(bt.out) as { runId: string }).runId;
  }, 120_000);
  afterAll(() => {
    rmSync(stored.dir, { recursive: true, force: true });
    rmSync(stored.home, { recursive: true, force: true });
  });
  return stored;
}

/** Runs `body` while another connection holds `file`'s write lock (`BEGIN IMMEDIATE`). */
export async function whileLocked<T>(file: string, body: () => Promise<T>): Promise<T> {
  const holder = HogaDatabase.open(file, { migrate: false });
  holder.connection.exec('BEGIN IMMEDIATE');
  try {
    return await body();
  } finally {
    holder.connection.exec('ROLLBACK');
    holder.close();
  }
}
