/**
 * Test helpers: bars from closes, a backtest over in-memory bars with an in-memory store, and a
 * logger whose records a test reads.
 */
import {
  type Bar,
  type BarInterval,
  createLogger,
  Decimal,
  formatDecimal,
  type Instrument,
  type Logger,
} from '@hoga/core';
import { HogaDatabase, type RunTrade } from '@hoga/store';
import { BarFeed } from '../market-data/bar-feed.js';
import { FixedFxRates, type FxRates } from '../portfolio/fx-rates.js';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import { type BacktestOutcome, runBacktest } from './run-backtest.js';

/**
 * 09:01 KST on a Monday: the first 1m bar of a KR session, on a trading day of both markets (minute
 * backtests close the exchange holidays; 2026-03-02, used before, is a KRX holiday).
 */
export const T0 = Date.parse('2026-02-23T09:01:00+09:00');
export const MINUTE = 60_000;

/** Buys 10 of the symbol of its first bar at market, once. */
export class BuyFirstBar extends Strategy {
  bought = false;
  override onBar(bar: Bar): void {
    if (!this.bought) {
      this.bought = true;
      this.ctx.buy(bar.symbol, 10);
    }
  }
}
/** The close of the first minute of New York's regular session on T0's date (23:31 KST). */
export const US_OPEN = Date.parse('2026-02-23T09:31:00-05:00');

/** One-minute bars of `symbol` from closes: open = previous close, one a minute from `start`. */
export function minuteBars(symbol: string, closes: readonly number[], start = T0, volume = 1_000_000): Bar[] {
  return closes.map((close, i) => {
    const ts = start + i * MINUTE;
    const open = i === 0 ? close : (closes[i - 1] as number);
    const interval: BarInterval = '1m';
    return {
      symbol,
      interval,
      ts,
      closeTime: ts,
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume,
    };
  });
}

/**
 * A daily bar of a KR symbol (005930 unless given) on `date` (KST), closing at 15:30, of `volume`
 * (10,000,000 unless given).
 */
export function dailyKrBar(
  date: string,
  open: number,
  close: number,
  { symbol = '005930', volume = 10_000_000 }: { symbol?: string; volume?: number } = {},
): Bar {
  return {
    symbol,
    interval: '1d',
    ts: Date.parse(`${date}T00:00:00+09:00`),
    closeTime: Date.parse(`${date}T15:30:00+09:00`),
    open,
    high: Math.max(open, close),
    low: Math.min(open, close),
    close,
    volume,
  };
}

/** What {@link backtestBars} returns. */
export interface BarsBacktest {
  readonly outcome: BacktestOutcome;
  readonly db: HogaDatabase;
}

/**
 * Runs strategies over in-memory bars (1m unless told) from `start` (earlier bars are warm-up) with an in-memory
 * store, a silent logger (unless given) and USD/KRW fixed at 1400 (unless given).
 */
export async function backtestBars(
  strategies: readonly StrategySpec[],
  bars: readonly Bar[],
  options: {
    readonly start?: number;
    readonly cash?: Record<string, Decimal>;
    /** The symbols' instruments as the broker lists them (default: every symbol a stock). */
    readonly instruments?: ReadonlyMap<string, Instrument>;
    /** The run's logger (default: silent). */
    readonly logger?: Logger;
    /** The run's interval (default `1m`; the bars should be of it). */
    readonly interval?: BarInterval;
    /** The risk configuration (JSON, `riskConfigSchema`; default: the defaults). */
    readonly risk?: unknown;
    /** USD/KRW of the run (default: fixed at 1400). */
    readonly fx?: FxRates;
    /** The run's symbols (default: the bars'; the others' bars come when subscribed to in onStart). */
    readonly symbols?: readonly string[];
    /** Each symbol's last daily bar before the run (`BacktestOptions.priorBars`; default: none). */
    readonly priorBars?: (symbols: readonly string[]) => readonly Bar[];
    /** How long opening the bars takes, ms (a download; default: none). */
    readonly openDelayMs?: number;
  } = {},
): Promise<BarsBacktest> {
  const db = HogaDatabase.open(':memory:');
  const symbols = options.symbols ?? [...new Set(bars.map((b) => b.symbol))].sort();
  const start = options.start ?? T0;
  const outcome = await runBacktest({
    settings: {
      runId: 'test-run',
      mode: 'backtest',
      symbols,
      interval: options.interval ?? '1m',
      cash: options.cash ?? { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) },
    },
    strategies,
    startMs: start,
    db,
    logger: options.logger ?? createLogger({ level: 'silent' }),
    fx: options.fx ?? new FixedFxRates(1400),
    instruments: options.instruments,
    risk: options.risk,
    priorBars: options.priorBars,
    openStream: async () => {
      if (options.openDelayMs !== undefined) await new Promise((r) => setTimeout(r, options.openDelayMs));
      return BarFeed.fromBars(bars, start).stream();
    },
  });
  return { outcome, db };
}

/**
 * A logger from `level` up whose records (pino's JSON lines, parsed) land in `records`.
 *
 * @example
 * ```ts
 * const { logger, records } = recordingLogger('info');
 * ```
 */
export function recordingLogger(level: 'debug' | 'info' = 'info'): {
  readonly logger: Logger;
  readonly records: Record<string, unknown>[];
} {
  const records: Record<string, unknown>[] = [];
  const logger = createLogger({
    level,
    destination: { write: (line: string) => void records.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, records };
}

/** A trade as compared: a stored run's trades and the run's reported ones hold the same figures. */
export const tradeRow = (t: RunTrade) => [
  t.time,
  t.strategyId,
  t.symbol,
  t.side,
  formatDecimal(t.quantity),
  formatDecimal(t.price),
  t.currency,
  formatDecimal(t.commission),
  formatDecimal(t.tax),
];
