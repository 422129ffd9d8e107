/**
 * Bars of several symbols as columns of numbers (a `Float64Array` per field and series), iterated
 * merged in delivery order: by `closeTime`, ties by symbol (then interval). No allocation per bar:
 * a cursor overwrites one bar object, or a callback receives (series, index).
 *
 * @module
 */
import { type Bar, type BarInterval, marketOfSymbol } from '@hoga/core';
import type { BarColumns, CandleBarReader } from '@hoga/store';

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

/** A bar whose fields a cursor overwrites (read it as a {@link Bar}). */
class CursorBar implements Bar {
  symbol = '';
  interval: BarInterval = '1m';
  ts = 0;
  closeTime = 0;
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  volume = 0;
}

/** Numbers per staged bar (see `BarCursor.stage`): its seven fields, padded to a cache line. */
const FIELDS = 8;
/** Bars staged per series: 32, fewer for a universe of more than 2,048 series (4 MB at most, 4 bars at least). */
function stagedBarsFor(series: number): number {
  return Math.max(4, Math.min(32, Math.floor(65_536 / Math.max(series, 1))));
}

/**
 * Walks a feed's bars in delivery order within `[fromClose, toClose)` of close times. Its
 * {@link BarCursor.current} is one object overwritten by each {@link BarCursor.next}: copy what
 * must outlive the step. It reads each series' columns a few dozen bars ahead (see `stage`): the
 * columns must not change while it walks them.
 *
 * The merge has two modes giving the same order (close time, then series index, then bar index):
 * while many series close at each instant (a universe of daily or minute bars sharing their
 * stamps), a scan of the series' next close times finds the next instant and the series closing
 * then, in index order, once per instant (a constant cost per bar); while few do, a binary heap of
 * the series keyed by (next close time, index) finds the next bar in log(series) steps. It moves
 * between them as the number of series closing per instant changes.
 */
export class BarCursor {
  /** The current bar (valid until the next `next()`). */
  readonly current: Bar;
  /** Series index (into {@link BarFeed.series}) of the current bar. */
  seriesIndex = -1;
  /** Index of the current bar within its series. */
  barIndex = -1;
  private readonly bar = new CursorBar();
  private readonly pos: Int32Array;
  private readonly end: Int32Array;
  /** Close time of each series' next bar (+Infinity once the series is exhausted). */
  private readonly head: Float64Array;
  /** Scan mode (true) or heap mode. */
  private scanning = true;
  /** Scan mode: the series closing at `instant` still to deliver are `batch[taken..count)`. */
  private readonly batch: Int32Array;
  private taken = 0;
  private count = 0;
  private instant = Number.NaN;
  /** Scan mode: the series delivered last (-1 before the first), delivered again while its next bar closes by `instant`. */
  private last = -1;
  /** Each series' next bars, copied from its columns (see {@link BarCursor.stage}). */
  private readonly staged: Float64Array;
  private readonly stagedBars: number;
  /** Per series, the index of its first staged bar and how many are staged. */
  private readonly stagedFrom: Int32Array;
  private readonly stagedCount: Int32Array;
  /** Each series' symbol and interval (read without touching the series). */
  private readonly symbols: string[];
  private readonly intervals: BarInterval[];
  /** Heap mode: the series not exhausted, a binary heap keyed by (head, index). */
  private readonly heap: Int32Array;
  private size = 0;
  /** Heap mode: close time of the bars being delivered and how many of them so far. */
  private groupTime = Number.NaN;
  private groupSize = 0;

  /** @internal use {@link BarFeed.cursor}, {@link BarFeed.warmup} or {@link BarFeed.main} */
  constructor(
    private readonly series: readonly BarSeries[],
    begin: Int32Array,
    end: Int32Array,
  ) {
    this.current = this.bar;
    const n = series.length;
    this.heap = new Int32Array(n);
    this.batch = new Int32Array(n);
    this.pos = Int32Array.from(begin);
    this.end = end;
    this.head = new Float64Array(n);
    this.stagedBars = stagedBarsFor(n);
    this.staged = new Float64Array(n * this.stagedBars * FIELDS);
    this.stagedFrom = new Int32Array(n);
    this.stagedCount = new Int32Array(n);
    this.symbols = series.map((x) => x.symbol);
    this.intervals = series.map((x) => x.interval);
    for (let s = 0; s < n; s++) {
      const i = this.pos[s] as number;
      this.head[s] =
        i < (this.end[s] as number)
          ? ((series[s] as BarSeries).columns.closeTime[i] as number)
          : Number.POSITIVE_INFINITY;
    }
  }

  /** Moves to the next bar; false when none is left. */
  next(): boolean {
    if (!this.scanning) return this.nextFromHeap();
    const head = this.head;
    const last = this.last;
    // the series just delivered, when its next bar closes by the same instant, comes first
    if (last >= 0 && (head[last] as number) <= this.instant) {
      this.deliver(last);
      return true;
    }
    if (this.taken < this.count) {
      const s = this.batch[this.taken++] as number;
      this.last = s;
      this.deliver(s);
      return true;
    }
    // the next instant: the earliest next close time, and the series closing then, in index order
    const n = head.length;
    const batch = this.batch;
    let min = Number.POSITIVE_INFINITY;
    let count = 0;
    for (let s = 0; s < n; s++) {
      const h = head[s] as number;
      if (h < min) {
        min = h;
        batch[0] = s;
        count = 1;
      } else if (h === min) batch[count++] = s;
    }
    if (min === Number.POSITIVE_INFINITY) {
      this.count = 0;
      this.taken = 0;
      this.last = -1;
      return false;
    }
    if (count * 16 < n) {
      // few series close together: the heap costs less per bar than a scan per instant
      this.toHeap();
      return this.nextFromHeap();
    }
    this.instant = min;
    this.count = count;
    this.taken = 1;
    const s = batch[0] as number;
    this.last = s;
    this.deliver(s);
    return true;
  }

  /** Writes bar `pos[s]` of series `s` into the current bar and moves that series on. */
  private deliver(s: number): void {
    const i = this.pos[s] as number;
    let j = i - (this.stagedFrom[s] as number);
    if (j >= (this.stagedCount[s] as number)) {
      this.stage(s, i);
      j = 0;
    }
    const staged = this.staged;
    const n = this.symbols.length;
    const at = (j * n + s) * FIELDS;
    const b = this.bar;
    b.symbol = this.symbols[s] as string;
    b.interval = this.intervals[s] as BarInterval;
    b.ts = staged[at] as number;
    b.closeTime = staged[at + 1] as number;
    b.open = staged[at + 2] as number;
    b.high = staged[at + 3] as number;
    b.low = staged[at + 4] as number;
    b.close = staged[at + 5] as number;
    b.volume = staged[at + 6] as number;
    this.seriesIndex = s;
    this.barIndex = i;
    this.pos[s] = i + 1;
    this.head[s] =
      i + 1 >= (this.end[s] as number)
        ? Number.POSITIVE_INFINITY
        : j + 1 < (this.stagedCount[s] as number)
          ? (staged[at + n * FIELDS + 1] as number)
          : ((this.series[s] as BarSeries).columns.closeTime[i + 1] as number);
  }

  /**
   * Copies bars `i …` of series `s` (up to `stagedBars`) from its columns into `staged`: a few
   * cache lines of each column read at once, where a bar read from the columns when delivered would
   * find them evicted by the engine's work since the series' previous bar (a cache miss per field
   * and bar: the daily bench's engine ran ~40 % slower so). The k-th staged bars of all series sit
   * side by side, so that delivering an instant of many series reads `staged` in order.
   */
  private stage(s: number, i: number): void {
    const c = (this.series[s] as BarSeries).columns;
    const count = Math.min(this.stagedBars, (this.end[s] as number) - i);
    const staged = this.staged;
    const stride = this.symbols.length * FIELDS;
    for (let j = 0, at = s * FIELDS; j < count; j++, at += stride) {
      const k = i + j;
      staged[at] = c.ts[k] as number;
      staged[at + 1] = c.closeTime[k] as number;
      staged[at + 2] = c.open[k] as number;
      staged[at + 3] = c.high[k] as number;
      staged[at + 4] = c.low[k] as number;
      staged[at + 5] = c.close[k] as number;
      staged[at + 6] = c.volume[k] as number;
    }
    this.stagedFrom[s] = i;
    this.stagedCount[s] = count;
  }

  private nextFromHeap(): boolean {
    if (this.size === 0) return false;
    const s = this.heap[0] as number;
    const t = this.head[s] as number;
    if (t !== this.groupTime) {
      // a new instant: after one where many series closed together, scan instead
      if (this.groupSize * 4 >= this.head.length) {
        this.scanning = true;
        this.last = -1;
        this.taken = 0;
        this.count = 0;
        return this.next();
      }
      this.groupTime = t;
      this.groupSize = 0;
    }
    this.groupSize++;
    this.deliver(s);
    if ((this.head[s] as number) !== Number.POSITIVE_INFINITY) this.siftDown(0);
    else {
      this.size--;
      if (this.size > 0) {
        this.heap[0] = this.heap[this.size] as number;
        this.siftDown(0);
      }
    }
    return true;
  }

  /** Enters heap mode: a heap of the series not exhausted. */
  private toHeap(): void {
    this.scanning = false;
    this.size = 0;
    const n = this.head.length;
    for (let s = 0; s < n; s++) {
      if ((this.head[s] as number) !== Number.POSITIVE_INFINITY) this.heap[this.size++] = s;
    }
    for (let i = (this.size >> 1) - 1; i >= 0; i--) this.siftDown(i);
    this.groupTime = Number.NaN;
    this.groupSize = 0;
  }

  private less(a: number, b: number): boolean {
    const ta = this.head[a] as number;
    const tb = this.head[b] as number;
    return ta < tb || (ta === tb && a < b);
  }

  private siftDown(start: number): void {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= this.size) return;
      const r = l + 1;
      let m = l;
      if (r < this.size && this.less(this.heap[r] as number, this.heap[l] as number)) m = r;
      if (!this.less(this.heap[m] as number, this.heap[i] as number)) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i] as number;
    this.heap[i] = this.heap[j] as number;
    this.heap[j] = t;
  }
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
    return new PhasedBarStream(this.warmup(), this.main());
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
  ) {
    this.cursor = warm;
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
