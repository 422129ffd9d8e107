/**
 * The warm-up of a paper or live run, as a backtest's: a strategy with `static warmupBars = N` gets
 * the N completed bars of each of the run's symbols that came before the run's first bar, through
 * `onBar` with `ctx.isWarmingUp === true` (its orders denied `warm-up`), after `onStart` and before
 * the first bar of the run. The run's first bar of a symbol is the newest completed candle when the
 * warm-up reads it (the candle stream starts right after the warm-up's last), so the warm-up is the N candles before it,
 * read from the broker's candles (the connector's `candlePages`, newest first); the bars of
 * all symbols in time order (ties by symbol), those of the longest warm-up asked for read, and each
 * strategy getting the last N of each symbol it asked for, as a backtest delivers them. The run's
 * bars then begin right after each symbol's last warm-up bar ({@link warmUpStrategies}' answer): the
 * candles that completed while the warm-up was read and handed over come too (before, the run's
 * bars began at the newest completed when its streams started, and those were never handed over).
 *
 * @module
 */
import {
  type BrokerClient,
  CANDLE_CLOCK_SLACK_MS,
  type Candle,
  type CandleInterval,
  candlePages,
  candleToBar,
  isCandleInProgress,
} from '@hoga/connector';
import { type Bar, type Clock, marketOfSymbol } from '@hoga/core';
import { DateTime } from 'luxon';
import type { EngineRuntime } from '../runtime/engine-runtime.js';

/** What the warm-up reads: the broker, the engine clock, the run's symbols and interval. */
export interface WarmUpOptions {
  readonly client: Pick<BrokerClient, 'getCandles'>;
  readonly clock: Clock;
  readonly symbols: readonly string[];
  readonly interval: CandleInterval;
}

/**
 * Delivers the warm-up bars to the strategies that ask for them (see the module documentation).
 *
 * @returns the end stamp (ms) of each symbol's last warm-up candle: the run's bars of that symbol
 *   are the completed candles after it (the run's first bar, the newest completed when the warm-up
 *   read it, and those that completed while it ran); empty when no strategy asks, and without a
 *   symbol that had no warm-up candle
 */
export async function warmUpStrategies(
  runtime: EngineRuntime,
  o: WarmUpOptions,
): Promise<ReadonlyMap<string, number>> {
  const through = new Map<string, number>();
  const hosts = runtime.hosts.filter((h) => (h.strategyClass.warmupBars ?? 0) > 0);
  if (hosts.length === 0) return through;
  const wanted = Math.max(...hosts.map((h) => h.strategyClass.warmupBars ?? 0));
  // complete as the candle streams judge it (a candle that ended within the last second may still
  // change): before, a run started within a second of a minute's end had that minute's candle as
  // its first bar here and as still in progress in the streams, which then handed it over again
  const now = DateTime.fromMillis(o.clock.nowMs() - CANDLE_CLOCK_SLACK_MS);
  const bars: Bar[] = [];
  // each bar's place from its symbol's first bar of the run (1: the last warm-up bar)
  const left = new Map<Bar, number>();
  for (const symbol of o.symbols) {
    const { bars: own, lastMs } = await barsBefore(o, symbol, wanted, now);
    if (lastMs !== null) through.set(symbol, lastMs);
    for (let i = 0; i < own.length; i++) left.set(own[i] as Bar, own.length - i);
    bars.push(...own);
  }
  bars.sort((a, b) => a.closeTime - b.closeTime || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  try {
    for (const bar of bars) {
      for (const host of hosts) {
        if (runtime.failure !== null) return through;
        // its own warm-up, not the longest one of the run (before, every strategy got that)
        if ((host.strategyClass.warmupBars ?? 0) < (left.get(bar) ?? 0)) continue;
        host.isWarmingUp = true;
        runtime.call(host, 'onBar', bar);
        if (runtime.busy) await runtime.settle();
      }
    }
  } finally {
    for (const host of hosts) host.isWarmingUp = false;
  }
  return through;
}

/**
 * The `count` completed bars of `symbol` before its newest completed one, oldest first, and the
 * end stamp of the last of them (null with none).
 */
async function barsBefore(
  o: WarmUpOptions,
  symbol: string,
  count: number,
  now: DateTime,
): Promise<{ bars: Bar[]; lastMs: number | null }> {
  const market = marketOfSymbol(symbol);
  const completed: Candle[] = [];
  // the bars wanted, the run's first bar and one in progress in the first page (more pages if not)
  const pageSize = Math.min(200, count + 2);
  for await (const c of candlePages(o.client, symbol, { interval: o.interval, pageSize })) {
    if (isCandleInProgress(c, o.interval, market, now)) continue;
    completed.push(c);
    // one more than asked: the newest completed candle is the run's first bar, not warm-up
    if (completed.length > count) break;
  }
  const warm = completed.slice(1);
  return {
    bars: warm.reverse().map((c) => candleToBar(c, symbol, o.interval)),
    lastMs: completed[1]?.timestamp.toMillis() ?? null,
  };
}
