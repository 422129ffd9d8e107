/**
 * The merge of several bar series in delivery order (by close time, ties by series index), one
 * bar object overwritten per step: the walk under {@link BarFeed}'s phases.
 *
 * @module
 */
import type { Bar, BarInterval } from '@hoga/core';
import type { BarSeries } from './bar-feed.js';

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
  /**
   * Per series, the close time of the bar after its staged ones (+Infinity past its end): the head
   * once the last staged bar is delivered, read without going back to the columns.
   */
  private readonly stagedNext: Float64Array;
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
    this.stagedNext = new Float64Array(n);
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
      j + 1 < (this.stagedCount[s] as number)
        ? (staged[at + n * FIELDS + 1] as number)
        : (this.stagedNext[s] as number);
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
    const after = i + count;
    this.stagedNext[s] =
      after < (this.end[s] as number) ? (c.closeTime[after] as number) : Number.POSITIVE_INFINITY;
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
