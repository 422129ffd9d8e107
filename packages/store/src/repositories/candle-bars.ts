/**
 * Cached candles as core {@link Bar}s, and a fast columnar reader of the candle cache for
 * backtests: numbers straight from the rows, no `Decimal` per bar.
 *
 * @module
 */
import { type Bar, type BarInterval, barCloseTime, Decimal, type Market, marketOfSymbol } from '@hoga/core';
import type Database from 'better-sqlite3';
import {
  type BarColumns,
  bound,
  carve,
  columnBytes,
  fill,
  type Gathered,
  NOTHING,
  Slabs,
} from './bar-columns.js';
import {
  type BlockColumns,
  blockSpan,
  blockStartOf,
  DecodeArena,
  decodeBlock,
  encodeBlock,
} from './candle-blocks.js';
import type { CachedCandle, CandleSeriesKey } from './candle-cache.js';
import type { TimeRange } from './time-ranges.js';

export type { BarColumns } from './bar-columns.js';

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

/**
 * Reads cached candles as columns of numbers, without a `Decimal` or an object per candle: the
 * backtest's path from the cache (see the engine's bar feed).
 *
 * It reads `candle_blocks` (migration 8): a week of minute candles in one row. A block it finds
 * missing (never built, or dropped by a trigger because a candle in it changed) it builds from
 * `candles` and stores in the read's transaction, so the first read of a series is slower than
 * the next ones; on a read-only connection, a file not migrated, or when another connection holds
 * the write lock, it reads the candles without storing blocks.
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
  /** Null on a file not migrated to version 8 yet (opened with `migrate: false`). */
  private readonly blockTable: BlockStatements | null;
  private readonly gatherTx: (key: CandleSeriesKey, range: TimeRange) => Gathered;
  /** Where a series' blocks are decoded (reused by the next series: see {@link readMany}). */
  private readonly arena = new DecodeArena();

  /** @param db - an open, migrated connection */
  constructor(private readonly db: Database.Database) {
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
    this.blockTable = hasBlockTable(db) ? prepareBlockStatements(db) : null;
    this.gatherTx = db.transaction((key: CandleSeriesKey, range: TimeRange) => this.gather(key, range));
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
    return this.readMany([{ key, range, market }])[0] as BarColumns;
  }

  /**
   * Several series at once, each as {@link read} reads it (each in its own transaction). Their
   * columns are carved from one buffer sized by the blocks lying wholly within the ranges (a
   * series that does not fit in what is left gets its own), rather than six or seven buffers per
   * series: V8 runs a full collection each time the memory held outside its heap grows by 64 MB,
   * which in the large heap of a running backtest costs about a second each.
   *
   * @param reads - the series, each with its range and its market (default: inferred)
   */
  readMany(reads: readonly SeriesRead[]): BarColumns[] {
    let estimate = 0;
    if (this.blockTable !== null) {
      for (const r of reads) {
        if (!(r.range.end > r.range.start)) continue;
        const k = [r.key.symbol, r.key.interval, r.key.adjusted ? 1 : 0] as const;
        const within = this.blockTable.countWithin.get(...k, r.range.start, r.range.end, r.range.end);
        estimate += columnBytes(within as number, r.key.interval);
      }
    }
    const slabs = new Slabs(estimate);
    return reads.map((r) => {
      // One series at a time: its blocks are decoded into the arena, copied out, then overwritten.
      const g = r.range.end > r.range.start ? this.gatherTx(r.key, r.range) : NOTHING;
      const daily = r.key.interval === '1d';
      const cols = carve(slabs, g.n, !daily);
      fill(cols, g, daily, r.market ?? marketOfSymbol(r.key.symbol));
      return cols;
    });
  }

  /**
   * The pieces holding a read's candles, in one transaction (blocks and the candles they are built
   * from agree), building and storing the blocks it finds missing.
   */
  private gather(key: CandleSeriesKey, range: TimeRange): Gathered {
    const k = [key.symbol, key.interval, key.adjusted ? 1 : 0] as const;
    const span = blockSpan(key.interval);
    // The previous series' pieces were copied out before this read (readMany fills each in turn).
    this.arena.reset();
    const pieces: BlockColumns[] = [];
    const built: BuiltBlock[] = [];
    const invalid: number[] = [];
    let covered = blockStartOf(range.start, span);
    const blockRows = (this.blockTable?.select.all(...k, covered, range.end) ?? []) as BlockRow[];
    for (const [start, end, count, data] of blockRows) {
      // A block of another span (or overlapping one read) is dropped and its candles read again.
      const fits = start >= covered && end === start + span && blockStartOf(start, span) === start;
      const block = fits ? decodeBlock(data, start, count, this.arena) : null;
      if (block === null) {
        invalid.push(start);
        continue;
      }
      if (start > covered) this.build(k, covered, start, span, pieces, built);
      pieces.push(block);
      covered = end;
    }
    if (covered < range.end)
      this.build(k, covered, blockStartOf(range.end - 1, span) + span, span, pieces, built);
    if ((built.length > 0 || invalid.length > 0) && this.blockTable !== null && !this.db.readonly) {
      this.store(this.blockTable, k, built, invalid);
    }
    return bound(pieces, range);
  }

  /** Reads the candles of `[from, to)` (block-aligned) into one piece and one new block per block. */
  private build(
    k: readonly [string, string, number],
    from: number,
    to: number,
    span: number,
    pieces: BlockColumns[],
    built: BuiltBlock[],
  ): void {
    const acc = new BlockAccumulator();
    let blockStart = Number.NaN;
    const flush = () => {
      if (acc.length === 0) return;
      const columns = acc.take();
      pieces.push({ count: (columns[0] as Float64Array).length, tsBase: 0, columns });
      built.push({ start: blockStart, end: blockStart + span, columns });
    };
    for (let at = from; ; ) {
      const rows = this.rows.all(...k, at, to) as Row[];
      for (const row of rows) {
        const ts = row[0];
        if (!(ts < blockStart + span)) {
          flush();
          blockStart = blockStartOf(ts, span);
        }
        acc.push(row);
      }
      if (rows.length < READ_CHUNK) break;
      at = (rows[rows.length - 1] as Row)[0] + 1;
    }
    flush();
  }

  /**
   * Stores the blocks built by a read and drops unreadable ones. Never waits for another
   * connection's write lock (busy timeout 0 for these writes, restored after): when the file is
   * busy, the blocks stay unbuilt and a later read builds them.
   */
  private store(
    table: BlockStatements,
    k: readonly [string, string, number],
    built: readonly BuiltBlock[],
    invalid: readonly number[],
  ): void {
    const rows = built
      .filter((b) => Number.isSafeInteger(b.end))
      .map(
        (b) =>
          [b.start, b.end, (b.columns[0] as Float64Array).length, encodeBlock(b.start, b.columns)] as const,
      );
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      for (const start of invalid) table.drop.run(...k, start);
      for (const row of rows) table.put.run(...k, ...row);
    } catch (e) {
      // Another connection writes, or has written since this read began: the candles read are
      // still this read's answer (its snapshot), but no block may be stored from them.
      const code = (e as { code?: unknown }).code;
      if (
        typeof code !== 'string' ||
        !(code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_READONLY'))
      ) {
        throw e;
      }
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }
}

/** Statements on `candle_blocks`. */
interface BlockStatements {
  readonly select: Database.Statement;
  readonly put: Database.Statement;
  readonly drop: Database.Statement;
  /** Sum of the counts of a series' blocks lying wholly within `[from, to)`. */
  readonly countWithin: Database.Statement;
}

/** A row of `candle_blocks`: `start_ts`, `end_ts`, `count`, `data`. */
type BlockRow = [number, number, number, unknown];

function hasBlockTable(db: Database.Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'candle_blocks'").get() !==
    undefined
  );
}

function prepareBlockStatements(db: Database.Database): BlockStatements {
  return {
    select: db
      .prepare(
        `SELECT start_ts, end_ts, count, data FROM candle_blocks
         WHERE symbol = ? AND interval = ? AND adjusted = ? AND start_ts >= ? AND start_ts < ? ORDER BY start_ts`,
      )
      .raw(),
    put: db.prepare(
      `INSERT OR REPLACE INTO candle_blocks (symbol, interval, adjusted, start_ts, end_ts, count, data)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    drop: db.prepare(
      'DELETE FROM candle_blocks WHERE symbol = ? AND interval = ? AND adjusted = ? AND start_ts = ?',
    ),
    countWithin: db
      .prepare(
        `SELECT coalesce(sum(count), 0) FROM candle_blocks
         WHERE symbol = ? AND interval = ? AND adjusted = ? AND start_ts >= ? AND start_ts < ? AND end_ts <= ?`,
      )
      .pluck(),
  };
}

/** One series for {@link CandleBarReader.readMany}. */
export interface SeriesRead {
  readonly key: CandleSeriesKey;
  /** Candle stamps to read. */
  readonly range: TimeRange;
  /** The symbol's market, for daily close times (default: inferred from the symbol). */
  readonly market?: Market | undefined;
}

/** A row of the candle query: `ts`, then the five numbers. */
type Row = [number, number, number, number, number, number];

/** A block built by a read, to store. */
interface BuiltBlock {
  readonly start: number;
  readonly end: number;
  /** `ts`, `open`, `high`, `low`, `close`, `volume`. */
  readonly columns: readonly Float64Array[];
}

/** Rows of one block gathered as columns. */
class BlockAccumulator {
  length = 0;
  private cols: Float64Array[] = fresh(256);

  push(row: Row): void {
    if (this.length === (this.cols[0] as Float64Array).length) {
      const bigger = fresh(this.length * 2);
      for (let c = 0; c < 6; c++) (bigger[c] as Float64Array).set(this.cols[c] as Float64Array);
      this.cols = bigger;
    }
    for (let c = 0; c < 6; c++) (this.cols[c] as Float64Array)[this.length] = row[c] as number;
    this.length++;
  }

  /** The gathered columns, trimmed (the accumulator starts over). */
  take(): Float64Array[] {
    const out = this.cols.map((c) => c.slice(0, this.length));
    this.length = 0;
    return out;
  }
}

function fresh(n: number): Float64Array[] {
  return Array.from({ length: 6 }, () => new Float64Array(n));
}

/** Rows per query of {@link CandleBarReader.read}. */
const READ_CHUNK = 4096;
