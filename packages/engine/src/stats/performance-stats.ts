/**
 * A run's performance statistics in one object: what `hoga backtest` prints and stores.
 *
 * @module
 */
import {
  cagr,
  type EquitySample,
  maxDrawdown,
  resampleDaily,
  sessionDayKey,
  sharpeRatio,
  totalReturn,
} from './equity-stats.js';
import { type TradeSample, type TradeStats, tradeStats } from './trade-stats.js';

/** A run's statistics. Ratios are fractions (0.12 = 12 %). */
export interface PerformanceStats extends TradeStats {
  /** Null for a run that started with no equity. */
  readonly totalReturn: number | null;
  /** Null for a run shorter than a day. */
  readonly cagr: number | null;
  /** Positive fraction of the running peak. */
  readonly maxDrawdown: number;
  /** Annualised (daily returns × √252) on the curve resampled to one point per session day. */
  readonly sharpe: number | null;
  /** Equity at the start and at the end. */
  readonly startEquity: number;
  readonly endEquity: number;
}

/**
 * Computes a run's statistics from its equity curve and fills. The Sharpe ratio is always computed
 * on daily equity: an intraday (1m) curve is first resampled to the last point of each session day
 * (see `sessionDayKey`); a daily curve is unchanged by that.
 *
 * @param equity - the equity curve in time order (its first point is the starting equity)
 * @param trades - the fills in time order
 * @param dayOf - session-day key of an instant (default: `sessionDayKey`)
 */
export function performanceStats(
  equity: readonly EquitySample[],
  trades: readonly TradeSample[],
  dayOf: (time: number) => number = sessionDayKey,
): PerformanceStats {
  return {
    totalReturn: totalReturn(equity),
    cagr: cagr(equity),
    maxDrawdown: maxDrawdown(equity),
    sharpe: sharpeRatio(resampleDaily(equity, dayOf)),
    startEquity: equity[0]?.equity ?? 0,
    endEquity: equity[equity.length - 1]?.equity ?? 0,
    ...tradeStats(trades),
  };
}
