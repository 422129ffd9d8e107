/**
 * Cached candles as core {@link Bar}s, and a fast columnar reader of the candle cache for
 * backtests: numbers straight from the rows, no `Decimal` per bar.
 *
 * @module
 */
import { type Bar, type BarInterval, barCloseTime, Decimal, type Market, marketOfSymbol } from '@hoga/core';
import type Database from 'better-sqlite3';
import type { CachedCandle, CandleSeriesKey } from './candle-cache.js';
import type { TimeRange } from './time-ranges.js';

/**
 * Converts a cached candle into a {@link Bar} (`1d`: `ts` is KST midnight of the trading day and
 * `closeTime` the regular close of that day; `1m`: both are the minute's end).
 *
 * @param candle - a candle read from the cache
 * @param symbol - its symbol
 * @param interval - its interval
 * @param market - the symbol's market (default: inferred from the symbol)
 */
export function cachedCandleToBar(
  candle: CachedCandle,
  symbol: string,
  interval: BarInterval,
  market: Market = marketOfSymbol(symbol),
): Bar {
  return {
    symbol,
    interval,
    ts: candle.ts,
    closeTime: barCloseTime(market, interval, candle.ts),
    open: candle.open.toNumber(),
    high: candle.high.toNumber(),
    low: candle.low.toNumber(),
    close: candle.close.toNumber(),
    volume: candle.volume.toNumber(),
  };
}

/**
 * Converts a {@link Bar} into a cached candle (numbers become decimals through their shortest
 * round-tripping string, so a price read from the wire comes back unchanged).
 *
 * @param bar - any bar
 */
export function barToCachedCandle(bar: Bar): CachedCandle {
  return {
    ts: bar.ts,
    open: new Decimal(String(bar.open)),
    high: new Decimal(String(bar.high)),
    low: new Decimal(String(bar.low)),
    close: new Decimal(String(bar.close)),
    volume: new Decimal(String(bar.volume)),
  };
}

/** One series of bars as columns (index `i` of every array is bar `i`), oldest first. */
export interface BarColumns {
  readonly ts: Float64Array;
  readonly closeTime: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  /** Number of bars. */
  readonly length: number;
}

/**
 * Reads cached candles as columns of numbers, without a `Decimal` or an object per candle: the
 * backtest's path from the cache (see the engine's bar feed).
 *
 * @example
 * ```ts
 * const reader = new CandleBarReader(db.connection);
 * const cols = reader.read({ symbol: '005930', interval: '1m', adjusted: true }, { start, end });
 * ```
 */
export class CandleBarReader {
  private readonly count: Database.Statement;
  private readonly rows: Database.Statement;
  private readonly nthBefore: Database.Statement;

  /** @param db - an open, migrated connection */
  constructor(db: Database.Database) {
    this.count = db
      .prepare(
        'SELECT count(*) FROM candles WHERE symbol = ? AND interval = ? AND adjusted = ? AND ts >= ? AND ts < ?',
      )
      .pluck();
    this.rows = db
      .prepare(
        `SELECT ts, CAST(open AS REAL), CAST(high AS REAL), CAST(low AS REAL), CAST(close AS REAL),
           CAST(volume AS REAL)
         FROM candles WHERE symbol = ? AND interval = ? AND adjusted = ? AND ts >= ? AND ts < ? ORDER BY ts
         LIMIT ${READ_CHUNK}`,
      )
      .raw();
    this.nthBefore = db
      .prepare(
        `SELECT ts FROM candles WHERE symbol = ? AND interval = ? AND adjusted = ? AND ts < ?
         ORDER BY ts DESC LIMIT 1 OFFSET ?`,
      )
      .pluck();
  }

  /**
   * The stamp of the `count`-th cached candle before `beforeTs` (counting back from the newest), or
   * of the oldest one when fewer are cached; null when none is: where a read with `count` warm-up
   * bars starts.
   *
   * @param key - the series
   * @param beforeTs - only candles stamped before this
   * @param count - how many candles back (≥ 1)
   */
  startOfLast(key: CandleSeriesKey, beforeTs: number, count: number): number | null {
    const k = [key.symbol, key.interval, key.adjusted ? 1 : 0, beforeTs] as const;
    const nth = this.nthBefore.get(...k, Math.max(0, count - 1)) as number | undefined;
    if (nth !== undefined) return nth;
    const oldest = this.count.get(k[0], k[1], k[2], Number.MIN_SAFE_INTEGER, beforeTs) as number;
    return oldest === 0 ? null : (this.nthBefore.get(...k, oldest - 1) as number);
  }

  /**
   * The cached candles of one series with `range.start <= ts < range.end`, oldest first.
   *
   * @param key - the series
   * @param range - candle stamps to read
   * @param market - the symbol's market, for daily close times (default: inferred)
   */
  read(key: CandleSeriesKey, range: TimeRange, market: Market = marketOfSymbol(key.symbol)): BarColumns {
    const k = [key.symbol, key.interval, key.adjusted ? 1 : 0] as const;
    const daily = key.interval === '1d';
    const n = this.count.get(...k, range.start, range.end) as number;
    let cols = allocate(n, !daily);
    let i = 0;
    // In chunks with all() (about twice as fast as iterate() across better-sqlite3's row boundary):
    // each chunk's row arrays die young, which keeps the collector cheap in a large heap.
    for (let from = range.start; ; ) {
      const rows = this.rows.all(...k, from, range.end) as [number, number, number, number, number, number][];
      if (i + rows.length > cols.length) cols = grow(cols, i + rows.length, !daily);
      for (const row of rows) {
        const ts = row[0];
        cols.ts[i] = ts;
        if (daily) cols.closeTime[i] = barCloseTime(market, '1d', ts);
        // SQLite (3.54, bundled by better-sqlite3) converts the decimal text to the correctly rounded
        // double, as Number() would (the test checks awkward values); in SQL it is a third faster.
        cols.open[i] = row[1];
        cols.high[i] = row[2];
        cols.low[i] = row[3];
        cols.close[i] = row[4];
        cols.volume[i] = row[5];
        i++;
      }
      if (rows.length < READ_CHUNK) break;
      from = (rows[rows.length - 1] as [number, number, number, number, number, number])[0] + 1;
    }
    if (i < cols.length) cols = grow(cols, i, !daily);
    return cols;
  }
}

/** Rows per query of {@link CandleBarReader.read}. */
const READ_CHUNK = 4096;

/** The first `n` bars of `c` (or `c` padded with room to `n`) in new columns. */
function grow(c: BarColumns, n: number, closeIsStamp: boolean): BarColumns {
  const m = Math.min(n, c.length);
  const out = allocate(n, closeIsStamp);
  out.ts.set(c.ts.subarray(0, m));
  if (!closeIsStamp) out.closeTime.set(c.closeTime.subarray(0, m));
  out.open.set(c.open.subarray(0, m));
  out.high.set(c.high.subarray(0, m));
  out.low.set(c.low.subarray(0, m));
  out.close.set(c.close.subarray(0, m));
  out.volume.set(c.volume.subarray(0, m));
  return out;
}

/** Columns for `n` bars; a minute series shares one array for `ts` and `closeTime` (equal there). */
function allocate(n: number, closeIsStamp: boolean): BarColumns {
  const ts = new Float64Array(n);
  return {
    ts,
    closeTime: closeIsStamp ? ts : new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    length: n,
  };
}
