/**
 * Where `hoga backtest` keeps the embedded simulator's candles and runs (apart from a real broker's
 * cache), and the pointer to it that `hoga db runs` gives when its own default database is not the
 * one a backtest wrote.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { resolveDatabasePath } from '@hoga/store';

/** Database of the embedded simulator's candles and runs (kept apart from a real broker's cache). */
export const SIMULATOR_DATABASE_PATH = './data/hoga-sim.sqlite';

/** Whether a command reads the default database: no `--db` and no `HOGA_DB`. */
export function usesDefaultDatabase(db: string | undefined): boolean {
  return db === undefined && (process.env.HOGA_DB ?? '') === '';
}

/**
 * A clause naming the embedded simulator's database, for a message about the default one: empty
 * unless the command read the default database and the simulator's exists.
 *
 * @param db - the command's `--db`
 */
export function simulatorDatabaseHint(db: string | undefined): string {
  if (!usesDefaultDatabase(db)) return '';
  const file = resolveDatabasePath(SIMULATOR_DATABASE_PATH);
  return existsSync(file)
    ? ` (backtests against the embedded simulator are stored in ${file}: add --db ${file})`
    : '';
}
