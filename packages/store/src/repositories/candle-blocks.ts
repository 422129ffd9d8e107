/**
 * The layout of `candle_blocks` (migration 8): a series' cached candles in fixed, aligned spans of
 * time, each packed into one value of six columns (`ts`, `open`, `high`, `low`, `close`, `volume`).
 *
 * A column is stored as 64-bit floats, or as 32-bit integers when every value of the block fits
 * exactly (`ts` as its offset from the block's start): a KR price or a volume usually does, which
 * halves what a read copies. Either way a value reads back as the same double, bit for bit.
 *
 * Layout of the bytes (little-endian): byte 0 is the format ({@link BLOCK_FORMAT}), bytes 1-6 the
 * encoding of each column (`0`: float64, `1`: int32), byte 7 zero; then the columns in order, each
 * padded to a multiple of 8 bytes. The bytes are stored as base64 TEXT, not as a BLOB: a BLOB
 * reaches JavaScript as a new `Buffer` outside V8's heap, and V8 runs a full collection each time
 * such memory grows by 64 MB, about a second each in the large heap of a running backtest (a year
 * of 100 symbols is 235 MB of blocks). A string is collected young, and decodes into a reused
 * {@link DecodeArena} at several GB/s.
 *
 * @module
 */

/** Format byte of a block blob. */
export const BLOCK_FORMAT = 1;

const DAY_MS = 86_400_000;

/** Column encodings. */
const F64 = 0;
const I32 = 1;

const HEADER_BYTES = 8;
const COLUMNS = 6;

/**
 * Length of a block of `interval` in ms: a week of minute bars (about 1,900 KR or 2,000 US regular
 * session bars), 64 weeks of daily bars. Blocks start at multiples of it from the epoch. Changing a
 * span needs a migration that empties `candle_blocks` (blocks of a series must never overlap).
 */
export function blockSpan(interval: string): number {
  return interval === '1d' ? 448 * DAY_MS : 7 * DAY_MS;
}

/** Start of the block of `span` holding stamp `ts` (a floor that is exact for any safe integer). */
export function blockStartOf(ts: number, span: number): number {
  const r = ts % span;
  return r < 0 ? ts - r - span : ts - r;
}

/** One block's columns, as views (`ts[i] + tsBase` is the stamp of candle `i`). */
export interface BlockColumns {
  readonly count: number;
  readonly tsBase: number;
  /** `ts`, `open`, `high`, `low`, `close`, `volume`. */
  readonly columns: readonly (Float64Array | Int32Array)[];
}

/** True when every value of `a` is an int32 that reads back as itself (not -0) once `base` is off. */
function fitsInt32(a: Float64Array, base: number): boolean {
  for (let i = 0; i < a.length; i++) {
    const v = (a[i] as number) - base;
    if ((v | 0) !== v || (v === 0 && 1 / v < 0)) return false;
  }
  return true;
}

/** Padded byte length of a column of `count` values. */
function columnBytes(encoding: number, count: number): number {
  return encoding === F64 ? count * 8 : (count * 4 + 7) & ~7;
}

/**
 * Packs one block's columns (`ts`, `open`, `high`, `low`, `close`, `volume`, all of one length).
 *
 * @param start - the block's start (the base of the `ts` offsets)
 * @param columns - the candles of the block, oldest first
 */
export function encodeBlock(start: number, columns: readonly Float64Array[]): string {
  const count = (columns[0] as Float64Array).length;
  const encodings = columns.map((c, k) => (fitsInt32(c, k === 0 ? start : 0) ? I32 : F64));
  let bytes = HEADER_BYTES;
  for (const e of encodings) bytes += columnBytes(e, count);
  const buf = new ArrayBuffer(bytes);
  const head = new Uint8Array(buf, 0, HEADER_BYTES);
  head[0] = BLOCK_FORMAT;
  let offset = HEADER_BYTES;
  for (let k = 0; k < COLUMNS; k++) {
    const e = encodings[k] as number;
    const c = columns[k] as Float64Array;
    head[1 + k] = e;
    if (e === F64) {
      new Float64Array(buf, offset, count).set(c);
    } else {
      const out = new Int32Array(buf, offset, count);
      const base = k === 0 ? start : 0;
      for (let i = 0; i < count; i++) out[i] = (c[i] as number) - base;
    }
    offset += columnBytes(e, count);
  }
  return Buffer.from(buf).toString('base64');
}

/**
 * Memory that decoded blocks are views into, reused from one series to the next: a view is valid
 * until {@link DecodeArena.reset}.
 */
export class DecodeArena {
  private buffer = Buffer.allocUnsafeSlow(0);
  private offset = 0;

  /** Lets the next blocks reuse the memory (views handed out before become invalid). */
  reset(): void {
    this.offset = 0;
  }

  /** `bytes` bytes, 8-byte aligned: a buffer and the offset where they start. */
  take(bytes: number): [Buffer, number] {
    const need = (bytes + 7) & ~7;
    if (this.offset + need > this.buffer.length) {
      // Views into the old buffer stay valid: it lives on as long as they do.
      this.buffer = Buffer.allocUnsafeSlow(Math.max(need, this.buffer.length * 2, 1 << 20));
      this.offset = 0;
    }
    const at = this.offset;
    this.offset += need;
    return [this.buffer, at];
  }
}

/**
 * Decodes a block written by {@link encodeBlock} into `arena` and views its columns; null when the
 * value is not a block of this format `count` candles long (the reader then rebuilds the block from
 * `candles`).
 */
export function decodeBlock(
  data: unknown,
  start: number,
  count: number,
  arena: DecodeArena,
): BlockColumns | null {
  if (typeof data !== 'string') return null;
  const length = Buffer.byteLength(data, 'base64');
  if (length < HEADER_BYTES) return null;
  const [buffer, at] = arena.take(length);
  if (buffer.write(data, at, 'base64') !== length || buffer[at] !== BLOCK_FORMAT) return null;
  let bytes = HEADER_BYTES;
  for (let k = 0; k < COLUMNS; k++) {
    const e = buffer[at + 1 + k];
    if (e !== F64 && e !== I32) return null;
    bytes += columnBytes(e, count);
  }
  if (bytes !== length) return null;
  const columns: (Float64Array | Int32Array)[] = [];
  let offset = buffer.byteOffset + at + HEADER_BYTES;
  for (let k = 0; k < COLUMNS; k++) {
    const e = buffer[at + 1 + k] as number;
    columns.push(
      e === F64
        ? new Float64Array(buffer.buffer, offset, count)
        : new Int32Array(buffer.buffer, offset, count),
    );
    offset += columnBytes(e, count);
  }
  const tsBase = buffer[at + 1] === I32 ? start : 0;
  return { count, tsBase, columns };
}
