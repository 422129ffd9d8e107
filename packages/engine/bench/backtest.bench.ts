import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type BarInterval, createLogger, Decimal } from '@hoga/core';
import { CandleBarReader, HogaDatabase } from '@hoga/store';
import { type BacktestOutcome, runBacktest } from '../src/backtest/run-backtest.js';
import { BarFeed, type BarSeries, type PhasedBarStream } from '../src/market-data/bar-feed.js';
import { FixedFxRates } from '../src/portfolio/fx-rates.js';
import type { Strategy, StrategyClass } from '../src/strategy/strategy.js';
import type { StrategyContext } from '../src/strategy/strategy-context.js';
import { loadStrategyClass } from '../src/strategy/strategy-loader.js';
import {
  BACKTEST_NODE_FLAGS,
  bareLoop,
  buildCandleCache,
  cacheIsCurrent,
  FAST,
  QUANTITY,
  runAsHogaBacktest,
  runPart,
  SLOW,
  threadsCpuMs,
  tradeDigest,
} from './backtest-bench-parts.js';
import { generateUniverse, symbolOf, weekdays } from './bench-data.js';

// Every part runs as `hoga backtest` runs, with its Node flags (packages/cli/bin/node-settings.json):
// `pnpm bench` starts this script without them, and it re-executes itself once with them.
runAsHogaBacktest();

const MINUTE_SYMBOLS = Number(process.env.HOGA_BENCH_SYMBOLS ?? 100);
const MINUTE_DAYS = Number(process.env.HOGA_BENCH_DAYS ?? 250);
const DAILY_SYMBOLS = Number(process.env.HOGA_BENCH_DAILY_SYMBOLS ?? 200);
const DAILY_DAYS = 20 * 261;

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

interface EngineResult {
  readonly outcome: BacktestOutcome;
  readonly ms: number;
}

/** One real backtest: runtime + bar fill model + journal, the run stored with its trades and statistics. */
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
      record: {
        strategyPath: strategyFile,
        strategyName: cls.name,
        params: { symbols: symbols.length, interval },
        startedAt: 0,
        endedAt: () => 0,
      },
    });
    const ms = performance.now() - t0;
    if (outcome.failure !== null) throw outcome.failure;
    return { outcome, ms };
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
  /** CPU time of the run's main thread alone (the journal thread's writes not counted), ms. */
  readonly mainCpuMs: number;
  /** CPU time of V8's background threads during the run (its optimizing compiler, GC helpers), ms; null off Linux. */
  readonly v8CpuMs: number | null;
  /** Cores the process may run on. */
  readonly cores: number;
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
    `in ${fmt(r.ms)} ms (CPU ${fmt(r.cpuMs)} ms, main thread ${fmt(r.mainCpuMs)} ms), trade digest ${r.digest}\n` +
    `${cpuSplit(r)}\n${costSplit('daily', r.bars, r.fills, r.ms, r.signalsOnlyMs)}`
  );
}

/**
 * Where the run's CPU went, by thread, and the least wall time it allows on this machine's cores:
 * the journal's thread and V8's run beside the main thread, on the same cores.
 */
function cpuSplit(r: DailyResult): string {
  const v8 = r.v8CpuMs ?? 0;
  const rest = Math.max(0, r.cpuMs - r.mainCpuMs - v8);
  return (
    `  daily CPU by thread: main ${fmt(r.mainCpuMs)} ms, ` +
    (r.v8CpuMs === null ? '' : `V8's background threads (optimizing compiler, GC) ${fmt(v8)} ms, `) +
    `the journal's thread and the rest ${fmt(rest)} ms; on ${r.cores} cores the run takes at least ` +
    `${fmt(Math.max(r.mainCpuMs, r.cpuMs / r.cores))} ms`
  );
}

if (process.env.HOGA_BENCH_PART === 'daily') {
  const dailyDays = weekdays('2005-01-03', DAILY_DAYS);
  const daily = generateUniverse(DAILY_SYMBOLS, '1d', dailyDays);
  // the fastest of three passes: a single pass of 65 ms is mostly the JIT's warm-up, and varies
  const dailyBare = [bareLoop(daily), bareLoop(daily), bareLoop(daily)].reduce((a, b) =>
    b.ms < a.ms ? b : a,
  );
  const dailyStart = dailyDays[0] as number;
  const cpu0 = process.cpuUsage();
  const main0 = process.threadCpuUsage();
  const v8Before = threadsCpuMs('V8Worker');
  const run = await engineRun(
    'daily',
    daily.map((s) => s.symbol),
    '1d',
    dailyStart,
    async () => BarFeed.fromSeries(daily, dailyStart).stream(),
    join(work, 'daily.sqlite'),
  );
  const cpu = process.cpuUsage(cpu0);
  const main = process.threadCpuUsage(main0);
  const v8After = threadsCpuMs('V8Worker');
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
    mainCpuMs: (main.user + main.system) / 1000,
    v8CpuMs: v8Before === null || v8After === null ? null : v8After - v8Before,
    cores: availableParallelism(),
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
const tuned = process.execArgv.filter((a) =>
  BACKTEST_NODE_FLAGS.some((f) => a.split('=')[0] === f.split('=')[0]),
);
console.log(`node flags of \`hoga backtest\` this process runs with: ${tuned.join(' ') || 'none'}`);
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
const cached = runPart<CacheResult>(import.meta.filename, 'cache', { HOGA_BENCH_CACHE: cacheFile });
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

// (c): daily bars, 200 × 20 years, each in a child process of its own (as `hoga backtest --interval
// 1d` would run: a cold process, the minute runs' heap not weighing on it), three times: a single
// cold run of about a second varies by a third from one to the next on a shared machine; the
// median is reported.
const DAILY_RUNS = Number(process.env.HOGA_BENCH_DAILY_RUNS ?? 3);
const dailyRuns = Array.from({ length: DAILY_RUNS }, () =>
  runPart<DailyResult>(import.meta.filename, 'daily'),
);
for (const r of dailyRuns) console.log(describeDaily(r));
const dailyRun = [...dailyRuns].sort((a, b) => a.ms - b.ms)[Math.floor(dailyRuns.length / 2)] as DailyResult;
console.log(
  `daily runs (ms): ${dailyRuns.map((r) => fmt(r.ms)).join(', ')}; median ${fmt(dailyRun.ms)}; ` +
    `engine over bare loop: ${dailyRuns.map((r) => (r.ms / r.bareMs).toFixed(1)).join(', ')}`,
);
row(
  `daily 200 × 20 y, ms after start-up (median of ${dailyRuns.length})`,
  fmt(dailyRun.ms),
  fmt(dailyRun.bareMs),
  (dailyRun.ms / Math.max(dailyRun.bareMs, 0.001)).toFixed(1),
  '≤ 1,000 ms',
);

console.log(
  `\n${'measure'.padEnd(46)}${'engine'.padStart(12)}${'bare loop'.padStart(12)}${'ratio'.padStart(8)}  aim`,
);
for (const [measure, value, baseline, ratio, aim] of rows) {
  console.log(
    `${measure?.padEnd(46)}${value?.padStart(12)}${baseline?.padStart(12)}${ratio?.padStart(8)}  ${aim}`,
  );
}
console.log('(ratio: how many times the bare loop is faster; daily ratio: engine time over bare-loop time)');

rmSync(work, { recursive: true, force: true });
