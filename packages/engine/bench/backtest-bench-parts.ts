/**
 * Pieces of `backtest.bench.ts`: the bare loop it compares the engine with, the candle cache it
 * builds once, the digest of a run's trades, and the runner of its parts that run in a child
 * process (as `hoga backtest` would run them). Bench code only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { BarInterval } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import {
  canReexecute,
  missingFlags,
  type NodeSettings,
  nodeSettingsOf,
  reexecuteWith,
} from '../../cli/bin/node-tuning.js';
import type { BacktestOutcome } from '../src/backtest/run-backtest.js';
import type { BarSeries } from '../src/market-data/bar-feed.js';

/**
 * CPU time (ms) of this process's threads named `name` (`V8Worker`: V8's background threads, its
 * optimizing compiler's jobs and its GC's helpers), from Linux's `/proc/self/task` (at its 10 ms
 * ticks); null where there is none. A thread that ended is no longer counted.
 */
export function threadsCpuMs(name: string): number | null {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  let ms = 0;
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== name) continue;
    // after the name: state (field 3) … utime (14) and stime (15), in clock ticks of 10 ms
    const fields = stat.slice(close + 2).split(' ');
    ms += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return ms;
}

/** The reference strategy's config in the bench. */
export const FAST = 5;
export const SLOW = 20;
export const QUANTITY = 10;

/** What the bare loop found: signals acted on (orders a flat/long book would send). */
export interface BareResult {
  readonly bars: number;
  readonly orders: number;
  readonly ms: number;
}

/**
 * The bare loop: per series, the strategy's arithmetic (a ring of the last `slow` closes, the fast
 * and slow windowed means summed oldest first, crossings against the previous bar's means) and its
 * decisions (buy when flat, sell when long; the engine fills an order on the next bar before that
 * bar reaches the strategy, so the position is known at every signal).
 */
export function bareLoop(series: readonly BarSeries[]): BareResult {
  const t0 = performance.now();
  let bars = 0;
  let orders = 0;
  const ring = new Float64Array(SLOW);
  for (const s of series) {
    const close = s.columns.close;
    const n = s.columns.length;
    let seen = 0;
    let prevFast = Number.NaN;
    let prevSlow = Number.NaN;
    let long = false;
    for (let i = 0; i < n; i++) {
      bars++;
      ring[seen % SLOW] = close[i] as number;
      seen++;
      if (seen < SLOW) continue;
      let f = 0;
      for (let k = seen - FAST; k < seen; k++) f += ring[k % SLOW] as number;
      f /= FAST;
      let sl = 0;
      for (let k = seen - SLOW; k < seen; k++) sl += ring[k % SLOW] as number;
      sl /= SLOW;
      const pf = prevFast;
      const ps = prevSlow;
      prevFast = f;
      prevSlow = sl;
      if (seen < SLOW + 1) continue;
      const up = pf <= ps && f > sl;
      const down = pf >= ps && f < sl;
      if (!up && !down) continue;
      if (up && !long) {
        long = true;
        orders++;
      } else if (down && long) {
        long = false;
        orders++;
      }
    }
  }
  return { bars, orders, ms: performance.now() - t0 };
}

/** Writes the series into a candle cache file once (raw rows, as the downloader would store them). */
export function buildCandleCache(file: string, series: readonly BarSeries[], interval: BarInterval): void {
  const db = HogaDatabase.open(file);
  try {
    const c = db.connection;
    const insert = c.prepare(
      `INSERT OR REPLACE INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)`,
    );
    const range = c.prepare(
      'INSERT OR REPLACE INTO candle_ranges (symbol, interval, adjusted, start_ts, end_ts) VALUES (?, ?, 1, ?, ?)',
    );
    for (const s of series) {
      const k = s.columns;
      c.transaction(() => {
        for (let i = 0; i < k.length; i++) {
          insert.run(
            s.symbol,
            interval,
            k.ts[i],
            String(k.open[i]),
            String(k.high[i]),
            String(k.low[i]),
            String(k.close[i]),
            String(k.volume[i]),
          );
        }
        range.run(s.symbol, interval, k.ts[0], (k.ts[k.length - 1] as number) + 1);
      })();
    }
    c.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('bench-candles', ?)").run(cacheTag(series));
  } finally {
    db.close();
  }
}

function cacheTag(series: readonly BarSeries[]): string {
  const n = series.reduce((a, s) => a + s.columns.length, 0);
  const last = series.at(-1)?.columns;
  return `v1:${series.length}:${n}:${last?.close[last.length - 1]}`;
}

export function cacheIsCurrent(file: string, series: readonly BarSeries[]): boolean {
  if (!existsSync(file)) return false;
  const db = HogaDatabase.open(file);
  try {
    const row = db.connection.prepare("SELECT value FROM meta WHERE key = 'bench-candles'").pluck().get();
    return row === cacheTag(series);
  } finally {
    db.close();
  }
}

/** A digest of a run's trades (so the in-memory run's trades need not stay in the heap). */
export function tradeDigest(outcome: BacktestOutcome): string {
  let h = 0;
  for (const t of outcome.trades) {
    const text = `${t.time}|${t.symbol}|${t.side}|${t.quantity.toFixed()}|${t.price.toFixed()}`;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  }
  return `${outcome.trades.length}:${h >>> 0}`;
}

/** The Node settings `hoga backtest` runs with (the CLI re-executes itself with them: packages/cli/bin/hoga.js). */
const BACKTEST_NODE_SETTINGS = nodeSettingsOf('backtest') as NodeSettings;

/** The Node flags `hoga backtest` runs with. */
export const BACKTEST_NODE_FLAGS: readonly string[] = BACKTEST_NODE_SETTINGS.flags;

/**
 * Makes this process one with the Node flags `hoga backtest` runs with: re-executes it once, in the
 * same process, with those it lacks; says so and goes on without them when it cannot.
 */
export function runAsHogaBacktest(): void {
  const missing = missingFlags(BACKTEST_NODE_FLAGS);
  if (missing.length === 0) return;
  if (!canReexecute()) {
    console.log(`(this Node cannot re-execute itself: the bench runs without ${missing.join(' ')})`);
    return;
  }
  reexecuteWith(BACKTEST_NODE_SETTINGS);
}

/**
 * Runs one part of the bench (`HOGA_BENCH_PART=<part>`) in a child process of the same script and
 * flags, plus those `hoga backtest` runs with ({@link BACKTEST_NODE_FLAGS}), and answers what it
 * printed on its `BENCH_RESULT` line.
 */
export function runPart<T>(script: string, part: string, env: Record<string, string> = {}): T {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, ...missingFlags(BACKTEST_NODE_FLAGS), script],
    {
      env: { ...process.env, ...env, HOGA_BENCH_PART: part },
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    },
  );
  const line = child.stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (child.status !== 0 || line === undefined) {
    throw new Error(`the ${part} run failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  }
  return JSON.parse(line.slice('BENCH_RESULT '.length)) as T;
}
