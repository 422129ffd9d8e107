/**
 * A read's bars as columns of numbers: the part of each block within the read's range, copied into
 * typed arrays carved from a few large buffers (one allocation for many series, not one per
 * column), with the daily bars' close times computed on the way.
 *
 * @module
 */
import { barCloseTime, type Market } from '@hoga/core';
import type { BlockColumns } from './candle-blocks.js';
import type { TimeRange } from './time-ranges.js';

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

/** First index of `a` whose value plus `base` is at least `x` (`a` ascending). */
function lowerBound(a: Float64Array | Int32Array, x: number, base: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) + base < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A read's pieces (consecutive, oldest first), with the part of each within its range. */
export interface Gathered {
  readonly pieces: readonly BlockColumns[];
  /** `[lo, hi)` of piece `p` at `2p`, `2p + 1`. */
  readonly bounds: readonly number[];
  /** Number of candles within the range. */
  readonly n: number;
}

export const NOTHING: Gathered = { pieces: [], bounds: [], n: 0 };

/** The part of each piece stamped within `range`. */
export function bound(pieces: readonly BlockColumns[], range: TimeRange): Gathered {
  const bounds: number[] = [];
  let n = 0;
  for (const p of pieces) {
    const ts = p.columns[0] as Float64Array | Int32Array;
    const lo = lowerBound(ts, range.start, p.tsBase);
    const hi = lowerBound(ts, range.end, p.tsBase);
    bounds.push(lo, hi);
    n += hi - lo;
  }
  return { pieces, bounds, n };
}

/** Copies a read's candles into `cols` (of its length), computing daily close times. */
export function fill(cols: BarColumns, g: Gathered, daily: boolean, market: Market): void {
  const out = [cols.ts, cols.open, cols.high, cols.low, cols.close, cols.volume];
  let i = 0;
  for (let p = 0; p < g.pieces.length; p++) {
    const piece = g.pieces[p] as BlockColumns;
    const lo = g.bounds[2 * p] as number;
    const hi = g.bounds[2 * p + 1] as number;
    if (hi === lo) continue;
    const ts = piece.columns[0] as Float64Array | Int32Array;
    if (piece.tsBase === 0) {
      cols.ts.set(ts.subarray(lo, hi), i);
    } else {
      for (let j = lo, o = i; j < hi; j++, o++) cols.ts[o] = (ts[j] as number) + piece.tsBase;
    }
    // Float64Array.set converts an Int32Array's values exactly (every int32 is a double).
    for (let c = 1; c < 6; c++) {
      (out[c] as Float64Array).set((piece.columns[c] as Float64Array | Int32Array).subarray(lo, hi), i);
    }
    i += hi - lo;
  }
  if (daily) {
    for (let j = 0; j < cols.length; j++)
      cols.closeTime[j] = barCloseTime(market, '1d', cols.ts[j] as number);
  }
}

/** Largest buffer {@link Slabs} allocates for several series. */
const SLAB_MAX_BYTES = 1024 * 1024 * 1024;

/** Bytes of the columns of `n` bars of `interval` (a minute series shares `ts` as `closeTime`). */
export function columnBytes(n: number, interval: string): number {
  return n * 8 * (interval === '1d' ? 7 : 6);
}

/** Hands out consecutive parts of large buffers, sized by an estimate of the total (a lower bound). */
export class Slabs {
  private buffer = new ArrayBuffer(0);
  private offset = 0;

  /** @param remaining - bytes expected in all (more or fewer may be asked for) */
  constructor(private remaining: number) {}

  /** `bytes` bytes (a multiple of 8): a buffer and the offset where they start. */
  take(bytes: number): [ArrayBuffer, number] {
    if (this.offset + bytes > this.buffer.byteLength) {
      this.buffer = new ArrayBuffer(Math.max(bytes, Math.min(this.remaining, SLAB_MAX_BYTES)));
      this.offset = 0;
    }
    const at = this.offset;
    this.offset += bytes;
    this.remaining -= bytes;
    return [this.buffer, at];
  }
}

/** Columns for `n` bars taken from `slabs`. */
export function carve(slabs: Slabs, n: number, closeIsStamp: boolean): BarColumns {
  let [buffer, offset] = slabs.take(n * 8 * (closeIsStamp ? 6 : 7));
  const column = () => {
    const a = new Float64Array(buffer, offset, n);
    offset += n * 8;
    return a;
  };
  const ts = column();
  return {
    ts,
    closeTime: closeIsStamp ? ts : column(),
    open: column(),
    high: column(),
    low: column(),
    close: column(),
    volume: column(),
    length: n,
  };
}
