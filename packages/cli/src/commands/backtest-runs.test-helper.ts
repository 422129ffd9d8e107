/**
 * What the `hoga backtest` integration tests share: the command run in a child process with no
 * `HOGA_*` setting, as a user runs it (the bundle), and the cached daily candles a run read, as bars, for the independent reference
 * computation.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Bar, barCloseTime, marketOfSymbol } from '@hoga/core';
import { tradingDateRange } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { envWithoutHoga, HOGA_BIN } from '../hoga-process.test-helper.js';

const exec = promisify(execFile);

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
/** The reference strategy. */
export const SMA = join(ROOT, 'strategies', 'sma-crossover.ts');

/** How a `hoga backtest` run ended. */
export interface BacktestRunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `hoga backtest <args>` from the repository root; resolves with the exit code too when it fails.
 *
 * @param args - the arguments after `backtest`
 * The `hoga` a user runs (bin/hoga.js, the bundle the `int` project's global set-up built; 4 s on a
 * loaded machine where the sources through tsx took 10–16 s to compile at each start).
 *
 * @param env - HOGA_* settings to run with (none else is passed on)
 */
export async function hogaBacktest(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<BacktestRunResult> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [HOGA_BIN, 'backtest', ...args], {
      cwd: ROOT,
      env: { ...envWithoutHoga(), ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/**
 * The cached candles of a symbol between two trading dates (inclusive), as bars (daily unless told).
 *
 * @param file - the run's database
 */
export function cachedBars(
  file: string,
  symbol: string,
  from: string,
  to: string,
  interval: '1m' | '1d' = '1d',
): Bar[] {
  const market = marketOfSymbol(symbol);
  const database = HogaDatabase.open(file);
  try {
    const range = tradingDateRange(market, interval, from, to);
    if (range === null) return [];
    return database.candles.get({ symbol, interval, adjusted: true }, range).map((c) => ({
      symbol,
      interval,
      ts: c.ts,
      closeTime: barCloseTime(market, interval, c.ts),
      open: c.open.toNumber(),
      high: c.high.toNumber(),
      low: c.low.toNumber(),
      close: c.close.toNumber(),
      volume: c.volume.toNumber(),
    }));
  } finally {
    database.close();
  }
}
