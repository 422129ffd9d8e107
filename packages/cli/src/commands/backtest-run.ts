/**
 * The body of `hoga backtest`: load the strategy and check its config (before any network), open
 * the store, make sure the candle cache covers the range (downloading what is missing through the
 * connector, from the configured broker or an embedded simulator), run the engine over the bars,
 * store the run and print it.
 *
 * @module
 */

import { Console } from 'node:console';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { DEFAULT_VOLUME_FRACTION } from '@hoga/broker-model';
import type { Instrument } from '@hoga/core';
import type { StrategyClass, Subscription } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { loadRiskConfig, riskConfigFile, warnUnmatchedStrategyLimits } from '../config/risk-config-file.js';
import { checkStrategyConfig, loadStrategyFile, requireNewStrategyId } from '../config/strategy-inputs.js';
import { CliError, ExitCode } from '../runtime/exit-codes.js';
import {
  dayEnds,
  downloadCandles,
  fxRates,
  instrumentsOf,
  ReplaceableFxRates,
  reportCoverage,
} from './backtest-inputs.js';
import { type BacktestInterrupts, NOTHING_RUN } from './backtest-interrupts.js';
import {
  type BacktestFlags,
  type BacktestRequest,
  parseBacktestFlags,
  requestFor,
  type StrategyInput,
  type SymbolRange,
} from './backtest-options.js';
import { backtestJson, backtestText } from './backtest-report.js';
import { type ConnectionFlags, connectionSettings } from './broker/connection.js';
import {
  candleDatabaseFile,
  configuredBroker,
  connectionConfigured,
  embeddedSimulator,
  type MarketSource,
  refuseDirectoryDatabase,
} from './market-source.js';
import { usesDefaultDatabase } from './simulator-database.js';

/** A strategy of the run, loaded and its config checked. */
interface LoadedStrategy {
  readonly input: StrategyInput;
  readonly strategyClass: StrategyClass;
  /** Its id in the run. */
  readonly id: string;
  /** Its config as it runs (parsed: defaults applied). */
  readonly config: unknown;
}

/**
 * Runs `hoga backtest`.
 *
 * @param files - the strategies' `.ts` files (`FILE.ts:ID` gives one an id)
 * @param flags - backtest and connection flags
 * @param interrupts - the command's one listener of Ctrl-C and SIGTERM, for its steps and the gaps
 *   between them (backtest-interrupts.ts); the caller releases it
 */
export async function runBacktestCommand(
  files: readonly string[],
  flags: BacktestFlags & ConnectionFlags,
  interrupts: BacktestInterrupts,
): Promise<void> {
  const request = parseBacktestFlags(files, flags);
  interrupts.check(NOTHING_RUN);
  // with --json, stdout holds the one JSON document: a strategy's console output (at its import or
  // in a hook) goes to stderr (before, first on stdout, and `hoga backtest … --json | jq` failed)
  const saved = globalThis.console;
  if (request.json) globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  try {
    return await backtest(request, flags, interrupts);
  } finally {
    globalThis.console = saved;
  }
}

/** `hoga backtest` of parsed flags. */
async function backtest(
  request: ReturnType<typeof parseBacktestFlags>,
  flags: BacktestFlags & ConnectionFlags,
  interrupts: BacktestInterrupts,
): Promise<void> {
  // the same limits as a live or paper run with this file: read (and a bad one refused) before any network
  const riskFile = riskConfigFile(flags.riskConfig);
  const risk = loadRiskConfig(riskFile);
  const engine = await import('@hoga/engine');
  const strategies = await loadStrategies(engine, request);
  interrupts.check(NOTHING_RUN);
  warnUnmatchedStrategyLimits(
    risk,
    riskFile,
    strategies.map((s) => s.id),
  );
  const names = strategies.map((s) => s.id).join(', ');
  // the backtest's clock: the strategies' log lines are stamped with its time
  const { VirtualClock, toKst } = await import('@hoga/core');
  const clock = new VirtualClock(request.startMs);
  const logger = (await import('../runtime/cli-logger.js')).createBacktestLogger(clock);
  const simulated = !connectionConfigured(flags);
  // a broker named without its credentials is refused before the database is made
  if (!simulated) connectionSettings(flags);
  const dbFile = candleDatabaseFile(flags.db, simulated);
  refuseDirectoryDatabase(dbFile, 'backtest');
  const db = HogaDatabase.open(dbFile);
  let source: MarketSource | null = null;
  try {
    const opened = simulated ? await embeddedSimulator() : configuredBroker(flags);
    source = opened;
    interrupts.check(NOTHING_RUN);
    // extra symbols a strategy subscribes to in onStart join this list when the stream opens
    const present = request.ranges.filter((r): r is SymbolRange => r !== null);
    const warmupBars = Math.max(...strategies.map((s) => s.strategyClass.warmupBars ?? 0));
    const downloading = `interrupted while downloading candles; what was downloaded is kept in ${db.file}: run the same command again to fetch the rest`;
    await interrupts.step(
      (signal) => downloadCandles(engine, opened.client, db, request, warmupBars, signal),
      downloading,
    );
    const instruments = new Map<string, Instrument>(
      await instrumentsOf(
        source.client,
        present.map((r) => r.symbol),
      ),
    );
    interrupts.check(downloading);
    const reader = new (await import('@hoga/store')).CandleBarReader(db.connection);
    const readFeed = (symbols: readonly string[]) =>
      engine.BarFeed.fromStore(reader, {
        symbols,
        interval: request.interval,
        fromTs: (symbol: string) => rangeOf(present, symbol).fromTs,
        toTs: (symbol: string) => rangeOf(present, symbol).toTs,
        warmupBars,
      });
    const feed = readFeed(present.map((r) => r.symbol));
    reportCoverage(feed, request, present);
    // after the bars: a range with none (in the future) says so, rather than that no rate exists
    // each day's point of the equity curve values the dollars at the rate of its time
    const ends = () => dayEnds(engine, feed.series, request.startMs);
    const fx = new ReplaceableFxRates(
      await interrupts.step(
        (signal) =>
          fxRates(engine, opened.client, db, request, logger, lastBarClose(feed.series), ends, signal),
        `interrupted while reading USD/KRW rates; the rates read are kept in ${db.file}: run the same command again to read the rest`,
      ),
    );
    const marketSource = source;
    /** The universe's bars, and those of the symbols the strategies subscribed to in `onStart`. */
    const openStream = async (extra: readonly Subscription[], _warmup: number, signal?: AbortSignal) => {
      const more = extraBarSymbols(extra, request);
      if (more.length === 0) return feed.stream();
      const extraRequest = requestFor(request, more);
      // Ctrl-C stops this download (the pages read so far stay cached), and the run before its first bar
      await downloadCandles(
        engine,
        marketSource.client,
        db,
        extraRequest,
        warmupBars,
        signal,
        'a strategy subscribed to its bars in onStart (ctx.subscribeBars)',
      );
      for (const [symbol, instrument] of await instrumentsOf(marketSource.client, more)) {
        instruments.set(symbol, instrument);
      }
      const ranges = extraRequest.ranges.filter((r): r is SymbolRange => r !== null);
      present.push(...ranges);
      const extraFeed = readFeed(ranges.map((r) => r.symbol));
      const series = [...feed.series, ...extraFeed.series];
      // a KR universe held its dollars at one rate: a US symbol subscribed to here trades them, so
      // they are valued at the broker's rate of each day, as a US universe's (before, at the start's
      // all run long, the end's equity and the return included)
      const us = (r: SymbolRange | null) => r?.market === 'US';
      if (request.usdKrw === undefined && !request.ranges.some(us) && ranges.some(us)) {
        const all = { ...request, ranges: [...request.ranges, ...ranges] };
        fx.current = await fxRates(engine, marketSource.client, db, all, logger, lastBarClose(series), () =>
          dayEnds(engine, series, request.startMs),
        );
      }
      return new engine.BarFeed(series, (symbol: string) => rangeOf(present, symbol).fromTs).stream();
    };
    interrupts.check(
      `interrupted before the run began: no run stored; the bars and rates read are kept in ${db.file}`,
    );
    const runId = randomUUID();
    const startedAt = Date.now();
    interrupts.running();
    const outcome = await engine.runBacktest({
      settings: {
        runId,
        mode: 'backtest',
        symbols: request.symbols,
        interval: request.interval,
        cash: request.cash,
      },
      strategies: strategies.map((s) => ({
        strategyClass: s.strategyClass,
        config: s.input.config,
        id: s.id,
      })),
      startMs: request.startMs,
      clock,
      startTs: (symbol: string) => rangeOf(present, symbol).fromTs,
      db,
      logger,
      fx,
      volumeFraction: request.volumeFraction,
      risk,
      instruments,
      // each symbol's last daily close before the run (downloaded with its candles)
      priorBars: (symbols: readonly string[]) => engine.priorDailyBars(reader, symbols, request.startMs),
      openStream,
      signal: interrupts.signal,
      // stored as it runs: the run's row first, its trades as they fill, its statistics at the end
      record: {
        // one strategy: its class name; several: their ids
        strategyName: strategies.length === 1 ? (strategies[0]?.strategyClass.name ?? '') : names,
        // by full paths: a relative one names no file from another directory
        strategyPath: [...new Set(strategies.map((s) => resolve(s.input.file)))].join(', '),
        startedAt,
        endedAt: () => Date.now(),
        params: {
          // what each strategy runs with (defaults applied), not only the fields given
          ...(strategies.length === 1
            ? { config: strategies[0]?.config }
            : {
                strategies: strategies.map((s) => ({
                  id: s.id,
                  file: resolve(s.input.file),
                  config: s.config,
                })),
              }),
          symbols: request.symbols,
          interval: request.interval,
          from: request.from,
          to: request.to,
          cash: Object.fromEntries(Object.entries(request.cash).map(([c, v]) => [c, v.toFixed()])),
          // what else changes the numbers: the USD/KRW rate (`--usd-krw`, else the broker's rate
          // history, cached in the database) and the share of a bar's volume an order may fill
          usdKrw: request.usdKrw === undefined ? 'broker' : String(request.usdKrw),
          volumeFraction: String(request.volumeFraction ?? DEFAULT_VOLUME_FRACTION),
          // the file the limits came from and the configuration as it ran, its defaults filled in
          // (none: hoga's defaults)
          ...(riskFile === undefined ? {} : { riskConfig: resolve(riskFile), risk }),
        },
      },
    });
    interrupts.ran();
    const stats = outcome.stats;
    // the command that shows the stored run: --db unless hoga db runs reads this file by default (the
    // embedded simulator's is not its default: before, the command printed found no run there)
    const runCommand = `hoga db runs --id ${outcome.runId}${usesDefaultDatabase(flags.db) && !simulated ? '' : ` --db ${db.file}`}`;
    // its output closed (`… 2>&1 | head`): stopped as on Ctrl-C and stored so; nothing to print to
    if (outcome.status === 'stopped' && interrupts.outputClosed) return;
    if (outcome.status === 'stopped') {
      // the clock stands at the last bar's close
      const at = toKst(clock.now()).toFormat('yyyy-MM-dd HH:mm:ss');
      throw new CliError(
        `interrupted after ${outcome.bars.toLocaleString('en-US')} bars (at ${at} KST); the run is stored as ${outcome.runId} ` +
          `(stopped): ${runCommand}`,
        interrupts.exitCode,
      );
    }
    if (outcome.failure !== null) {
      throw new CliError(
        // where its report so far is (the statistics, trades and equity up to the failure), as for a stopped run
        `${outcome.failure.message}; the run stopped after ${outcome.bars} bar${outcome.bars === 1 ? '' : 's'} and is stored as ${outcome.runId} ` +
          `(failed): ${runCommand}`,
        ExitCode.FAILURE,
        { cause: outcome.failure },
      );
    }
    const title = `${names} on ${request.symbols.join(',')} ${request.interval}, ${request.from} to ${request.to}`;
    process.stdout.write(
      `${request.json ? JSON.stringify(backtestJson(outcome, stats)) : backtestText(outcome, stats, title, db.file)}\n`,
    );
  } finally {
    db.close();
    await source?.close();
  }
}

type Engine = typeof import('@hoga/engine');

/**
 * Loads each strategy and checks its config before anything else runs (a bad one exits 2 naming
 * field, value, expectation), and that no two share an id.
 */
async function loadStrategies(engine: Engine, request: BacktestRequest): Promise<LoadedStrategy[]> {
  const loaded: LoadedStrategy[] = [];
  for (const input of request.strategies) {
    const strategyClass = await loadStrategyFile(engine.loadStrategyClass, input.file, 'backtest');
    const id = input.id ?? strategyClass.name;
    requireNewStrategyId(
      loaded.map((s) => s.id),
      id,
      input.file,
      'backtest',
    );
    const config = checkStrategyConfig(engine, strategyClass, input.config, input.configFile, undefined, id);
    loaded.push({ input, strategyClass, id, config });
  }
  return loaded;
}

/**
 * The symbols outside the universe whose bars a strategy subscribed to. A bar backtest runs on one
 * interval: a subscription to another one is a usage error (it would never deliver a bar).
 */
function extraBarSymbols(extra: readonly Subscription[], request: BacktestRequest): string[] {
  const symbols = new Set<string>();
  for (const s of extra) {
    if (s.kind !== 'bars') continue;
    if (s.interval !== undefined && s.interval !== request.interval) {
      throw new CliError(
        `strategy ${s.strategyId} subscribed to ${s.interval} bars of ${s.symbol}; a ${request.interval} backtest ` +
          `delivers ${request.interval} bars only (subscribe without an interval, or run with --interval ${s.interval})`,
        ExitCode.USAGE,
      );
    }
    if (!request.symbols.includes(s.symbol)) symbols.add(s.symbol);
  }
  return [...symbols].sort();
}

function rangeOf(ranges: readonly SymbolRange[], symbol: string): SymbolRange {
  const range = ranges.find((r) => r.symbol === symbol);
  if (range === undefined) throw new Error(`no range for ${symbol}`);
  return range;
}

/** The close of the last bar of any series (undefined when none has a bar). */
function lastBarClose(
  series: readonly { readonly columns: { readonly closeTime: Float64Array; readonly length: number } }[],
): number | undefined {
  let last: number | undefined;
  for (const s of series) {
    const t = s.columns.closeTime[s.columns.length - 1];
    if (t !== undefined && (last === undefined || t > last)) last = t;
  }
  return last;
}
