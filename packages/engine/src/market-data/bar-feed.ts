/**
 * Bars of several symbols as columns of numbers (a `Float64Array` per field and series), iterated
 * merged in delivery order: by `closeTime`, ties by symbol (then interval). No allocation per bar:
 * a cursor overwrites one bar object, or a callback receives (series, index).
 *
 * @module
 */
import { type Bar, type BarInterval, marketOfSymbol } from '@hoga/core';
import type { BarColumns, CandleBarReader } from '@hoga/store';
import { BarCursor } from './bar-cursor.js';

export { BarCursor } from './bar-cursor.js';

/** One symbol's bars of one interval, oldest first. */
export interface BarSeries {
  readonly symbol: string;
  readonly interval: BarInterval;
  readonly columns: BarColumns;
}

/** What {@link BarFeed.fromStore} reads. */
export interface StoreFeedRequest {
  readonly symbols: readonly string[];
  readonly interval: BarInterval;
  /** Corporate-action adjusted series (default true). */
  readonly adjusted?: boolean;
  /**
   * First candle stamp of the run (inclusive), epoch ms, or per symbol (KR and US trading dates
   * start at different instants, see `tradingDateRange`).
   */
  readonly fromTs: RunStart;
  /** Candle stamps before this (exclusive), epoch ms, or per symbol. */
  readonly toTs: RunStart;
  /** Bars per series to read before `fromTs` for warm-up (default 0). */
  readonly warmupBars?: number;
}

/** `symbol`/`interval` order: the tie-break between bars closing at the same instant. */
function bySymbol(a: BarSeries, b: BarSeries): number {
  if (a.symbol !== b.symbol) return a.symbol < b.symbol ? -1 : 1;
  if (a.interval !== b.interval) return a.interval < b.interval ? -1 : 1;
  return 0;
}

/** The run's first candle stamp: one for all series, or per symbol. */
export type RunStart = number | ((symbol: string) => number);

function startOf(start: RunStart, symbol: string): number {
  return typeof start === 'function' ? start(symbol) : start;
}

/**
 * Bars of several series, ready to be walked in delivery order, in two phases: warm-up (each
 * series' bars stamped before the run's start) and the run proper.
 *
 * @example
 * ```ts
 * const feed = BarFeed.fromStore(new CandleBarReader(db.connection), { symbols: ['005930', 'AAPL'],
 *   interval: '1d', fromTs, toTs, warmupBars: 20 });
 * for (const c = feed.warmup(); c.next(); ) strategy.warmUp(c.current);
 * for (const c = feed.main(); c.next(); ) engine.onBar(c.current);
 * ```
 */
export class BarFeed {
  /** The series, sorted by symbol then interval (the tie-break order). */
  readonly series: readonly BarSeries[];
  /** Per series, the index of its first bar of the run proper. */
  private readonly mainBegin: Int32Array;

  /**
   * @param series - any order; sorted here
   * @param fromTs - the run's first candle stamp (bars stamped before it are warm-up), or per
   *   symbol for a mixed KR/US universe; default: no warm-up
   */
  constructor(series: readonly BarSeries[], fromTs?: RunStart) {
    this.series = [...series].sort(bySymbol);
    this.mainBegin = Int32Array.from(this.series, (s) =>
      fromTs === undefined ? 0 : lowerBound(s.columns.ts, startOf(fromTs, s.symbol)),
    );
  }

  /** A feed over in-memory columns (see the constructor for `fromTs`). */
  static fromSeries(series: readonly BarSeries[], fromTs?: RunStart): BarFeed {
    return new BarFeed(series, fromTs);
  }

  /**
   * A feed over bar objects (any order; grouped by symbol and interval, sorted by close time; see the
   * constructor for `fromTs`).
   */
  static fromBars(bars: readonly Bar[], fromTs?: RunStart): BarFeed {
    const groups = new Map<string, Bar[]>();
    for (const b of bars) {
      const k = `${b.symbol}\u0000${b.interval}`;
      let g = groups.get(k);
      if (g === undefined) {
        g = [];
        groups.set(k, g);
      }
      g.push(b);
    }
    const series: BarSeries[] = [];
    for (const g of groups.values()) {
      g.sort((a, b) => a.closeTime - b.closeTime || a.ts - b.ts);
      const first = g[0] as Bar;
      series.push({ symbol: first.symbol, interval: first.interval, columns: columnsOf(g) });
    }
    return new BarFeed(series, fromTs);
  }

  /**
   * A feed read from the candle cache: each symbol's candles stamped in `[fromTs, toTs)`, preceded
   * by up to `warmupBars` cached candles before `fromTs` (its warm-up phase). Symbols without cached
   * bars get an empty series.
   */
  static fromStore(reader: CandleBarReader, request: StoreFeedRequest): BarFeed {
    const reads = request.symbols.map((symbol) => {
      const key = { symbol, interval: request.interval, adjusted: request.adjusted ?? true };
      const from = startOf(request.fromTs, symbol);
      let start = from;
      if ((request.warmupBars ?? 0) > 0) {
        start = reader.startOfLast(key, from, request.warmupBars ?? 0) ?? from;
      }
      const end = startOf(request.toTs, symbol);
      return { key, range: { start, end }, market: marketOfSymbol(symbol) };
    });
    // All series in one call: their columns share a few large buffers (see readMany).
    const columns = reader.readMany(reads);
    const series = request.symbols.map(
      (symbol, i): BarSeries => ({ symbol, interval: request.interval, columns: columns[i] as BarColumns }),
    );
    return new BarFeed(series, request.fromTs);
  }

  /** Total number of bars (both phases). */
  get length(): number {
    let n = 0;
    for (const s of this.series) n += s.columns.length;
    return n;
  }

  /** A cursor over the bars closing in `[fromClose, toClose)` (default: all), phases ignored. */
  cursor(fromClose = Number.NEGATIVE_INFINITY, toClose = Number.POSITIVE_INFINITY): BarCursor {
    const n = this.series.length;
    const begin = new Int32Array(n);
    const end = new Int32Array(n);
    for (let s = 0; s < n; s++) {
      const ct = (this.series[s] as BarSeries).columns.closeTime;
      begin[s] = lowerBound(ct, fromClose);
      end[s] = lowerBound(ct, toClose);
    }
    return new BarCursor(this.series, begin, end);
  }

  /** The warm-up phase: each series' bars stamped before its run start, merged by close time. */
  warmup(): BarCursor {
    return new BarCursor(this.series, new Int32Array(this.series.length), this.mainBegin);
  }

  /** The run proper: each series' bars from its run start on, merged by close time. */
  main(): BarCursor {
    return new BarCursor(this.series, this.mainBegin, this.lengths());
  }

  /**
   * Both phases as one stream: every warm-up bar first, then the run's bars; `isWarmup` tells which.
   * The split is per series (by candle stamp), so a US bar of the day before and a KR bar of the
   * start day are never confused, whatever their close times.
   */
  stream(): PhasedBarStream {
    return new PhasedBarStream(this.warmup(), this.main(), this.mainBegin);
  }

  /** Number of warm-up bars. */
  get warmupLength(): number {
    let n = 0;
    for (let s = 0; s < this.series.length; s++) n += this.mainBegin[s] as number;
    return n;
  }

  /** The earliest close time of a bar of the run proper (NaN when there is none). */
  get firstMainClose(): number {
    let first = Number.NaN;
    for (let s = 0; s < this.series.length; s++) {
      const c = (this.series[s] as BarSeries).columns;
      const k = this.mainBegin[s] as number;
      if (k < c.length && !((c.closeTime[k] as number) >= first)) first = c.closeTime[k] as number;
    }
    return first;
  }

  /**
   * Calls `visit(series, index)` for every bar of the run proper, in delivery order (read the
   * fields from `feed.series[series].columns`): the fastest walk.
   */
  forEach(visit: (series: number, index: number) => void): void {
    const c = this.main();
    while (c.next()) visit(c.seriesIndex, c.barIndex);
  }

  private lengths(): Int32Array {
    return Int32Array.from(this.series, (s) => s.columns.length);
  }
}

/** Bars (one series, in order) as columns. */
export function columnsOf(bars: readonly Bar[]): BarColumns {
  const n = bars.length;
  const cols = {
    ts: new Float64Array(n),
    closeTime: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    length: n,
  };
  for (let i = 0; i < n; i++) {
    const b = bars[i] as Bar;
    cols.ts[i] = b.ts;
    cols.closeTime[i] = b.closeTime;
    cols.open[i] = b.open;
    cols.high[i] = b.high;
    cols.low[i] = b.low;
    cols.close[i] = b.close;
    cols.volume[i] = b.volume;
  }
  return cols;
}

/** First index with `a[i] >= x` (a sorted ascending). */
function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The warm-up cursor, then the main one, as one stream (`next()` / `current`) with a flag telling
 * which phase the current bar belongs to.
 */
export class PhasedBarStream {
  /** True while the current bar is a warm-up bar. */
  isWarmup = true;
  private cursor: BarCursor;

  /** @internal use {@link BarFeed.stream} */
  constructor(
    private readonly warm: BarCursor,
    private readonly run: BarCursor,
    private readonly warmupLengths?: Int32Array,
  ) {
    this.cursor = warm;
  }

  /**
   * How many warm-up bars a series has (its bars before its run start): a strategy asking for fewer
   * gets the last of them only.
   */
  warmupLengthOf(series: number): number {
    return this.warmupLengths?.[series] ?? Number.NaN;
  }

  /** The current bar (one object, overwritten by `next()`). */
  get current(): Bar {
    return this.cursor.current;
  }

  /** The current bar's series: its index in the feed's `series` (both phases share them). */
  get seriesIndex(): number {
    return this.cursor.seriesIndex;
  }

  /** Moves to the next bar; false at the end of the run. */
  next(): boolean {
    if (this.isWarmup) {
      if (this.warm.next()) return true;
      this.isWarmup = false;
      this.cursor = this.run;
    }
    return this.run.next();
  }
}
