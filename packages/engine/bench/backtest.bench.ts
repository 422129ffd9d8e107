/**
 * Engine benchmark: the reference SMA crossover (`strategies/sma-crossover.ts`, fast 5, slow 20,
 * quantity 10) driven by the real backtest runtime, with its order events journalled and the run
 * (trades, equity curve, statistics) stored in a SQLite file:
 *
 * (a) 100 symbols × one year of 1m bars in memory (≈ 10 M bars),
 * (b) the same bars read from the store's candle cache (the read is part of the timed run; in a child
 *     process, as a `hoga backtest` reading the cache would be, so (a)'s heap does not weigh on it),
 * (c) 200 symbols × 20 years of daily bars, the time of the run after start-up (in a child process,
 *     as `hoga backtest --interval 1d` would run; its CPU time is printed too). `HOGA_BENCH_PART=daily`
 *     runs (c) alone.
 *
 * (a) and (b) are printed as bars/s beside a bare loop computing the same signals (the same windowed
 * averages and the same flat/long decisions) over the same columns in the same run, and their
 * ratio. Synthetic bars, generated deterministically (see `bench-data.ts`); the candle cache is
 * built once in the temp directory and reused by later runs. Prints figures; asserts nothing.
 *
 * The memory and daily runs print a digest of their trades (time, symbol, side, quantity, price):
 * a speed change must leave it as it was. KR fills are kept inside the daily ±30 % price limits of
 * the previous close; the synthetic minute walk drifts further than that within some days, and
 * those fills sit at the limit.
 *
 * Run: `pnpm --filter @hoga/engine bench` (or `pnpm bench` for every package).
 * Smaller: `HOGA_BENCH_SYMBOLS=10 HOGA_BENCH_DAYS=20 pnpm --filter @hoga/engine bench`
 * (`HOGA_BENCH_DAILY_SYMBOLS` shrinks the daily run, e.g. for a profile).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type BarInterval, createLogger, Decimal } from '@hoga/core';
import { CandleBarReader, HogaDatabase, RunRepository } from '@hoga/store';
import { type BacktestOutcome, runBacktest } from '../src/backtest/run-backtest.js';
import { BarFeed, type BarSeries, type PhasedBarStream } from '../src/market-data/bar-feed.js';
import { FixedFxRates } from '../src/portfolio/fx-rates.js';
import { performanceStats } from '../src/stats/performance-stats.js';
import type { Strategy, StrategyClass } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { loadStrategyClass } from '../src/strategy/strategy-loader.js';
import { generateUniverse, symbolOf, weekdays } from './bench-data.js';

const MINUTE_SYMBOLS = Number(process.env.HOGA_BENCH_SYMBOLS ?? 100);
const MINUTE_DAYS = Number(process.env.HOGA_BENCH_DAYS ?? 250);
const DAILY_SYMBOLS = Number(process.env.HOGA_BENCH_DAILY_SYMBOLS ?? 200);
const DAILY_DAYS = 20 * 261;
const FAST = 5;
const SLOW = 20;
const QUANTITY = 10;

const strategyFile = resolve(import.meta.dirname, '../../../strategies/sma-crossover.ts');
const strategyClass = await loadStrategyClass(strategyFile);

/**
 * The reference strategy with its orders taken away: the same class computing the same signals,
 * its context answering "flat, nothing open" and placing nothing. The engine run with it is the
 * engine's cost per bar; the reference run's extra time over it is the cost of its orders.
 */
const signalsOnlyClass = class SignalsOnly extends (strategyClass as unknown as typeof Strategy) {
  constructor(ctx: StrategyContext, config: never) {
    const noOrders: StrategyContext = Object.create(ctx, {
      openOrders: { value: () => [] },
      position: { value: () => undefined },
      buy: { value: () => '' },
      sell: { value: () => '' },
    });
    super(noOrders, config);
  }
} as unknown as StrategyClass;
const logger = createLogger({ level: 'silent' });
const work = mkdtempSync(join(tmpdir(), 'hoga-engine-bench-'));

/** What the bare loop found: signals acted on (orders a flat/long book would send). */
interface BareResult {
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
function bareLoop(series: readonly BarSeries[]): BareResult {
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

interface EngineResult {
  readonly outcome: BacktestOutcome;
  readonly ms: number;
}

/** One real backtest: runtime + bar fill model + journal, then the run stored with its statistics. */
async function engineRun(
  name: string,
  symbols: readonly string[],
  interval: BarInterval,
  startMs: number,
  openStream: () => Promise<PhasedBarStream>,
  dbFile: string,
  cls: StrategyClass = strategyClass,
): Promise<EngineResult> {
  const db = HogaDatabase.open(dbFile);
  try {
    const runId = `bench-${name}`;
    const t0 = performance.now();
    const outcome = await runBacktest({
      settings: {
        runId,
        mode: 'backtest',
        symbols,
        interval,
        cash: { KRW: new Decimal('1e12'), USD: new Decimal(0) },
      },
      strategies: [{ strategyClass: cls, config: { fast: FAST, slow: SLOW, quantity: QUANTITY } }],
      startMs,
      db,
      logger,
      fx: new FixedFxRates(1400),
      openStream,
    });
    const stats = performanceStats(outcome.equity, outcome.trades);
    new RunRepository(db.connection).record(
      {
        runId,
        kind: 'backtest',
        strategyPath: strategyFile,
        strategyName: cls.name,
        params: { symbols: symbols.length, interval },
        startedAt: 0,
      },
      { status: outcome.status === 'completed' ? 'completed' : 'failed', endedAt: 0, stats },
      outcome.trades,
      outcome.equity,
    );
    const ms = performance.now() - t0;
    if (outcome.failure !== null) throw outcome.failure;
    return { outcome, ms };
  } finally {
    db.close();
  }
}

/** Writes the series into a candle cache file once (raw rows, as the downloader would store them). */
function buildCandleCache(file: string, series: readonly BarSeries[], interval: BarInterval): void {
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

function cacheIsCurrent(file: string, series: readonly BarSeries[]): boolean {
  if (!existsSync(file)) return false;
  const db = HogaDatabase.open(file);
  try {
    const row = db.connection.prepare("SELECT value FROM meta WHERE key = 'bench-candles'").pluck().get();
    return row === cacheTag(series);
  } finally {
    db.close();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const rows: string[][] = [];
function row(measure: string, value: string, baseline: string, ratio: string, aim: string): void {
  rows.push([measure, value, baseline, ratio, aim]);
}

/** What the cache run (a child process) reports. */
interface CacheResult {
  readonly bars: number;
  readonly fills: number;
  readonly ms: number;
  readonly digest: string;
  readonly readBars: number;
  readonly readMs: number;
}

/** What the daily run (a child process) reports. */
interface DailyResult {
  readonly bars: number;
  readonly fills: number;
  readonly ms: number;
  /** CPU time of the run (user + system, every thread), ms: steadier than `ms` on a shared machine. */
  readonly cpuMs: number;
  readonly bareOrders: number;
  readonly bareMs: number;
  readonly digest: string;
  /** The same run with the strategy's orders taken away (after the reference run, in the same process). */
  readonly signalsOnlyMs: number;
}

/** The engine's cost per bar (its run without orders) and per order (the rest), as a line. */
function costSplit(name: string, bars: number, fills: number, ms: number, signalsOnlyMs: number): string {
  const perBarUs = (signalsOnlyMs * 1000) / bars;
  const perOrderUs = ((ms - signalsOnlyMs) * 1000) / Math.max(fills, 1);
  return (
    `  ${name}, signals only (the strategy's orders taken away, run after it): ${fmt(signalsOnlyMs)} ms, ` +
    `${perBarUs.toFixed(2)} µs per bar (${fmt(bars / (signalsOnlyMs / 1000))} bars/s); ` +
    `the reference's orders: ${perOrderUs.toFixed(0)} µs per order and its fill`
  );
}

function describeDaily(r: DailyResult): string {
  return (
    `engine (daily, child): ${fmt(r.bars)} bars, ${fmt(r.fills)} fills (bare loop: ${fmt(r.bareOrders)} orders) ` +
    `in ${fmt(r.ms)} ms (CPU ${fmt(r.cpuMs)} ms), trade digest ${r.digest}\n` +
    costSplit('daily', r.bars, r.fills, r.ms, r.signalsOnlyMs)
  );
}

if (process.env.HOGA_BENCH_PART === 'daily') {
  const dailyDays = weekdays('2005-01-03', DAILY_DAYS);
  const daily = generateUniverse(DAILY_SYMBOLS, '1d', dailyDays);
  const dailyBare = bareLoop(daily);
  const dailyStart = dailyDays[0] as number;
  const cpu0 = process.cpuUsage();
  const run = await engineRun(
    'daily',
    daily.map((s) => s.symbol),
    '1d',
    dailyStart,
    async () => BarFeed.fromSeries(daily, dailyStart).stream(),
    join(work, 'daily.sqlite'),
  );
  const cpu = process.cpuUsage(cpu0);
  const quiet = await engineRun(
    'daily-signals',
    daily.map((s) => s.symbol),
    '1d',
    dailyStart,
    async () => BarFeed.fromSeries(daily, dailyStart).stream(),
    join(work, 'daily-signals.sqlite'),
    signalsOnlyClass,
  );
  const result: DailyResult = {
    bars: run.outcome.bars,
    fills: run.outcome.trades.length,
    ms: run.ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bareOrders: dailyBare.orders,
    bareMs: dailyBare.ms,
    digest: tradeDigest(run.outcome),
    signalsOnlyMs: quiet.ms,
  };
  // alone (HOGA_BENCH_PART=daily from the command line), a readable line too
  if (process.stdout.isTTY) console.log(describeDaily(result));
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

if (process.env.HOGA_BENCH_PART === 'cache') {
  const file = process.env.HOGA_BENCH_CACHE ?? '';
  const days = weekdays('2025-01-01', MINUTE_DAYS);
  const start = days[0] as number;
  const names = Array.from({ length: MINUTE_SYMBOLS }, (_, i) => symbolOf(i));
  const db = HogaDatabase.open(file);
  const request = { symbols: names, interval: '1m' as const, fromTs: start, toTs: Number.MAX_SAFE_INTEGER };
  const run = await engineRun(
    'cache',
    names,
    '1m',
    start,
    async () => BarFeed.fromStore(new CandleBarReader(db.connection), request).stream(),
    join(work, 'cache.sqlite'),
  );
  const t0 = performance.now();
  const readBars = BarFeed.fromStore(new CandleBarReader(db.connection), request).length;
  const readMs = performance.now() - t0;
  db.close();
  const result: CacheResult = {
    bars: run.outcome.bars,
    fills: run.outcome.trades.length,
    ms: run.ms,
    digest: tradeDigest(run.outcome),
    readBars,
    readMs,
  };
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  rmSync(work, { recursive: true, force: true });
  process.exit(0);
}

// (a) and (b): minute bars
const minuteDays = weekdays('2025-01-01', MINUTE_DAYS);
let t = performance.now();
let minute: BarSeries[] | null = generateUniverse(MINUTE_SYMBOLS, '1m', minuteDays);
const minuteBars = minute.reduce((a, s) => a + s.columns.length, 0);
console.log(
  `generated ${MINUTE_SYMBOLS} symbols × ${MINUTE_DAYS} days of 1m bars: ${fmt(minuteBars)} bars in ${fmt(performance.now() - t)} ms`,
);
const symbols = minute.map((s) => s.symbol);
const startMs = minuteDays[0] as number;

const bare = bareLoop(minute);
const bareRate = (bare.bars / bare.ms) * 1000;
{
  // The merged walk alone (time order across symbols, one reused bar object), for the profile.
  const t0 = performance.now();
  const stream = BarFeed.fromSeries(minute, startMs).stream();
  let n = 0;
  let sum = 0;
  while (stream.next()) {
    n++;
    sum += stream.current.close;
  }
  const ms = performance.now() - t0;
  console.log(
    `bar feed walk alone: ${fmt(n)} bars in ${fmt(ms)} ms (${fmt((n / ms) * 1000)} bars/s, checksum ${sum % 997})`,
  );
}

/** A digest of a run's trades (so the in-memory run's trades need not stay in the heap). */
function tradeDigest(outcome: BacktestOutcome): string {
  let h = 0;
  for (const t of outcome.trades) {
    const text = `${t.time}|${t.symbol}|${t.side}|${t.quantity.toFixed()}|${t.price.toFixed()}`;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  }
  return `${outcome.trades.length}:${h >>> 0}`;
}

let memory: EngineResult | null = await engineRun(
  'memory',
  symbols,
  '1m',
  startMs,
  async () => BarFeed.fromSeries(minute ?? [], startMs).stream(),
  join(work, 'memory.sqlite'),
);
const memoryRate = (memory.outcome.bars / memory.ms) * 1000;
const memoryMs = memory.ms;
const memoryDigest = tradeDigest(memory.outcome);
console.log(
  `engine (memory): ${fmt(memory.outcome.bars)} bars, ${fmt(memory.outcome.trades.length)} fills ` +
    `(bare loop: ${fmt(bare.orders)} orders) in ${fmt(memory.ms)} ms, trade digest ${memoryDigest}`,
);
memory = null;
{
  const quiet = await engineRun(
    'memory-signals',
    symbols,
    '1m',
    startMs,
    async () => BarFeed.fromSeries(minute ?? [], startMs).stream(),
    join(work, 'memory-signals.sqlite'),
    signalsOnlyClass,
  );
  console.log(
    costSplit('1m in memory', quiet.outcome.bars, Number(memoryDigest.split(':')[0]), memoryMs, quiet.ms),
  );
}
row(
  '1m bars/s, in memory (100 × 1 y)',
  fmt(memoryRate),
  fmt(bareRate),
  (bareRate / memoryRate).toFixed(1),
  '≥ 1,000,000',
);

const cacheFile = join(tmpdir(), `hoga-bench-candles-${MINUTE_SYMBOLS}x${MINUTE_DAYS}.sqlite`);
if (!cacheIsCurrent(cacheFile, minute)) {
  t = performance.now();
  rmSync(cacheFile, { force: true });
  buildCandleCache(cacheFile, minute, '1m');
  console.log(
    `built the candle cache ${cacheFile} in ${fmt(performance.now() - t)} ms (reused by later runs)`,
  );
}
{
  // The first read after a download builds the cache's columnar blocks (the store's candle_blocks);
  // a backtest reads them from then on. Done here, untimed, so (b) times a cache as it stands.
  const t0 = performance.now();
  const db = HogaDatabase.open(cacheFile);
  const request = { symbols, interval: '1m' as const, fromTs: startMs, toTs: Number.MAX_SAFE_INTEGER };
  const n = BarFeed.fromStore(new CandleBarReader(db.connection), request).length;
  db.close();
  console.log(
    `first read of the candle cache (builds its blocks when missing): ${fmt(n)} bars in ${fmt(performance.now() - t0)} ms`,
  );
}
// The cache runs read everything from the file: the in-memory columns are let go first, so that
// (b) measures a process holding only what it read (as `hoga backtest` does).
minute = null;
// (b) runs in a child process, as `hoga backtest` would: a fresh process reading the cache.
const child = spawnSync(process.execPath, [...process.execArgv, import.meta.filename], {
  env: { ...process.env, HOGA_BENCH_PART: 'cache', HOGA_BENCH_CACHE: cacheFile },
  encoding: 'utf8',
  maxBuffer: 1 << 24,
});
const resultLine = child.stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
if (child.status !== 0 || resultLine === undefined) {
  throw new Error(`the cache run failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
}
const cached = JSON.parse(resultLine.slice('BENCH_RESULT '.length)) as CacheResult;
console.log(
  `candle cache read alone (child, after its run): ${fmt(cached.readBars)} bars in ${fmt(cached.readMs)} ms ` +
    `(${fmt((cached.readBars / cached.readMs) * 1000)} bars/s)`,
);
const cacheRate = (cached.bars / cached.ms) * 1000;
const same = cached.digest === memoryDigest;
console.log(
  `engine (cache): ${fmt(cached.bars)} bars, ${fmt(cached.fills)} fills in ${fmt(cached.ms)} ms; ` +
    `trades ${same ? 'identical to' : 'DIFFERENT from'} the in-memory run`,
);
row(
  '1m bars/s, from the candle cache',
  fmt(cacheRate),
  fmt(bareRate),
  (bareRate / cacheRate).toFixed(1),
  '≥ 500,000',
);

// (c): daily bars, 200 × 20 years, in a child process of its own (as `hoga backtest --interval 1d`
// would run): the minute runs' heap does not weigh on it.
const dailyChild = spawnSync(process.execPath, [...process.execArgv, import.meta.filename], {
  env: { ...process.env, HOGA_BENCH_PART: 'daily' },
  encoding: 'utf8',
  maxBuffer: 1 << 24,
});
const dailyLine = dailyChild.stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
if (dailyChild.status !== 0 || dailyLine === undefined) {
  throw new Error(`the daily run failed (exit ${dailyChild.status}): ${dailyChild.stderr.slice(-2000)}`);
}
const dailyRun = JSON.parse(dailyLine.slice('BENCH_RESULT '.length)) as DailyResult;
console.log(describeDaily(dailyRun));
row(
  'daily 200 × 20 y, ms after start-up',
  fmt(dailyRun.ms),
  fmt(dailyRun.bareMs),
  (dailyRun.ms / Math.max(dailyRun.bareMs, 0.001)).toFixed(1),
  '≤ 1,000 ms',
);

console.log(
  `\n${'measure'.padEnd(38)}${'engine'.padStart(12)}${'bare loop'.padStart(12)}${'ratio'.padStart(8)}  aim`,
);
for (const [measure, value, baseline, ratio, aim] of rows) {
  console.log(
    `${measure?.padEnd(38)}${value?.padStart(12)}${baseline?.padStart(12)}${ratio?.padStart(8)}  ${aim}`,
  );
}
console.log('(ratio: how many times the bare loop is faster; daily ratio: engine time over bare-loop time)');

rmSync(work, { recursive: true, force: true });
