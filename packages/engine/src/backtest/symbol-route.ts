/**
 * How the backtest loop hands a symbol's bars on: the symbol's slot in the marks, its reference
 * prices, its working orders, and the strategies that get its bars (made at its first bar, and again
 * after a subscription changes).
 *
 * @module
 */
import type { Bar } from '@hoga/core';
import type { SymbolReference } from '../market-data/reference-prices.js';
import type { StrategyHost } from '../runtime/strategy-host.js';
import { sessionShiftOf } from '../venue/session-key.js';
import type { BacktestLoopParts } from './backtest-loop.js';

/** A symbol's way through the loop. */
export interface SymbolRoute {
  readonly slot: number;
  /** The symbol's closes, for the bar fill model's KR price limits (none without reference prices). */
  readonly reference: SymbolReference | undefined;
  /** The symbol's working orders in the venue (a bar is matched only when there are some). */
  readonly working: readonly unknown[];
  /** Strategies that get this symbol's bars (with `onBar`). */
  readonly hosts: StrategyHost[];
  /** Strategies that asked for warm-up bars. */
  readonly warmupHosts: StrategyHost[];
  /** The symbol's first candle stamp of the run: bars stamped before it are warm-up bars. */
  readonly startTs: number;
  /** Shift that makes `floor((t + shift) / day)` the trading-session key (KR: KST date; US: trading date). */
  readonly sessionShift: number;
}

/**
 * A symbol's route, from the run's universe and the strategies' subscriptions.
 *
 * @param parts - the loop's parts
 * @param bar - the symbol's bar
 * @param startTs - the symbol's first candle stamp of the run
 */
export function routeOf(parts: BacktestLoopParts, bar: Bar, startTs: number): SymbolRoute {
  const { runtime, marks, references, venue } = parts;
  const inUniverse =
    runtime.universe.symbols.includes(bar.symbol) && runtime.universe.interval === bar.interval;
  const subscribed = new Set(
    runtime.subscriptionBook.list
      .filter(
        (s) =>
          s.kind === 'bars' &&
          s.symbol === bar.symbol &&
          (s.interval ?? runtime.universe.interval) === bar.interval,
      )
      .map((s) => s.strategyId),
  );
  const hosts = runtime.hosts.filter(
    (h) => (inUniverse || subscribed.has(h.strategyId)) && typeof h.strategy.onBar === 'function',
  );
  return {
    slot: marks.slot(bar.symbol),
    reference: references?.forSymbol(bar.symbol),
    working: venue.workingOf(bar.symbol),
    startTs,
    hosts,
    warmupHosts: hosts.filter((h) => (h.strategyClass.warmupBars ?? 0) > 0),
    sessionShift: sessionShiftOf(bar.symbol),
  };
}
