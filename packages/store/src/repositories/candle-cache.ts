/**
 * The candle cache: candles keyed by symbol, interval, adjusted flag and timestamp, plus the time
 * ranges already downloaded, so a backtest fetches each range from the broker once.
 *
 * A range covers candle *timestamps* (`1m`: the candle's end time; `1d`: KST midnight of the
 * trading day). A covered range may hold no candle at all (a US minute without trades, a holiday):
 * coverage records what was asked and answered, not what exists.
 *
 * @module
 */
import type { Decimal } from '@hoga/core';
import type Database from 'better-sqlite3';
import { decimalToText, textToDecimal } from '../codec.js';
import { StoreError, StoreErrorCode } from '../store-error.js';
import { mergeRanges, subtractRanges, type TimeRange } from './time-ranges.js';

/** Which series. */
export interface CandleSeriesKey {
  readonly symbol: string;
  /** `1m` or `1d` (any interval string is accepted). */
  readonly interval: string;
  /** Adjusted for corporate actions. */
  readonly adjusted: boolean;
}

/** One cached candle. */
export interface CachedCandle {
  /** Candle timestamp (epoch ms), as the broker stamps it. */
  readonly ts: number;
  readonly open: Decimal;
  readonly high: Decimal;
  readonly low: Decimal;
  readonly close: Decimal;
  readonly volume: Decimal;
}

interface CandleRow {
  ts: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

interface RangeRow {
  start_ts: number;
  end_ts: number;
}

/** Reads and writes `candles` and `candle_ranges`. */
export class CandleCache {
  private readonly upsertCandle: Database.Statement;
  private readonly selectCandles: Database.Statement;
  private readonly selectFirst: Database.Statement;
  private readonly selectTouching: Database.Statement;
  private readonly deleteRange: Database.Statement;
  private readonly insertRange: Database.Statement;
  private readonly selectCoverage: Database.Statement;
  /** Both take the write lock as they begin (`.immediate`, waiting the busy timeout for it). */
  private readonly forgetTx: Database.Transaction<(key: CandleSeriesKey) => void>;
  private readonly storeTx: Database.Transaction<
    (key: CandleSeriesKey, range: TimeRange, candles: readonly CachedCandle[]) => void
  >;

  /** @param db - an open, migrated connection */
  constructor(db: Database.Database) {
    this.upsertCandle = db.prepare(
      `INSERT OR REPLACE INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.selectCandles = db.prepare(
      `SELECT ts, open, high, low, close, volume FROM candles
       WHERE symbol = ? AND interval = ? AND adjusted = ? AND ts >= ? AND ts < ? ORDER BY ts`,
    );
    this.selectFirst = db.prepare(
      `SELECT ts, open, high, low, close, volume FROM candles
       WHERE symbol = ? AND interval = ? AND adjusted = ? AND ts >= ? AND ts < ? ORDER BY ts LIMIT 1`,
    );
    this.selectTouching = db.prepare(
      `SELECT start_ts, end_ts FROM candle_ranges
       WHERE symbol = ? AND interval = ? AND adjusted = ? AND start_ts <= ? AND end_ts >= ? ORDER BY start_ts`,
    );
    this.deleteRange = db.prepare(
      'DELETE FROM candle_ranges WHERE symbol = ? AND interval = ? AND adjusted = ? AND start_ts = ?',
    );
    this.insertRange = db.prepare(
      'INSERT INTO candle_ranges (symbol, interval, adjusted, start_ts, end_ts) VALUES (?, ?, ?, ?, ?)',
    );
    this.selectCoverage = db.prepare(
      `SELECT start_ts, end_ts FROM candle_ranges
       WHERE symbol = ? AND interval = ? AND adjusted = ? ORDER BY start_ts`,
    );
    const deleteCandles = db.prepare(
      'DELETE FROM candles WHERE symbol = ? AND interval = ? AND adjusted = ?',
    );
    const deleteRanges = db.prepare(
      'DELETE FROM candle_ranges WHERE symbol = ? AND interval = ? AND adjusted = ?',
    );
    this.forgetTx = db.transaction((key: CandleSeriesKey) => {
      const k = [key.symbol, key.interval, key.adjusted ? 1 : 0] as const;
      deleteRanges.run(...k);
      deleteCandles.run(...k);
    });
    this.storeTx = db.transaction(
      (key: CandleSeriesKey, range: TimeRange, candles: readonly CachedCandle[]) => {
        const k = [key.symbol, key.interval, key.adjusted ? 1 : 0] as const;
        for (const c of candles) {
          this.upsertCandle.run(
            ...k,
            c.ts,
            decimalToText(c.open),
            decimalToText(c.high),
            decimalToText(c.low),
            decimalToText(c.close),
            decimalToText(c.volume),
          );
        }
        const touching = this.selectTouching.all(...k, range.end, range.start) as RangeRow[];
        for (const r of touching) this.deleteRange.run(...k, r.start_ts);
        const merged = mergeRanges([range, ...touching.map((r) => ({ start: r.start_ts, end: r.end_ts }))]);
        for (const m of merged) this.insertRange.run(...k, m.start, m.end);
      },
    );
  }

  /**
   * Stores the broker's answer for `range`: its candles (replacing cached ones with the same
   * timestamp) and the range as covered, merged with overlapping and adjacent covered ranges.
   *
   * @throws {@link StoreError} `invalid-argument` for an empty range or a candle outside it
   */
  store(key: CandleSeriesKey, range: TimeRange, candles: readonly CachedCandle[]): void {
    assertRange(range);
    for (const c of candles) {
      if (c.ts < range.start || c.ts >= range.end) {
        throw new StoreError(
          StoreErrorCode.INVALID_ARGUMENT,
          `candle ${c.ts} of ${key.symbol} ${key.interval} lies outside the stored range [${range.start}, ${range.end})`,
        );
      }
    }
    // begun as a writer: one begun as a reader (a store without candles first looks up the
    // touching ranges) was refused at once ("database is locked", no busy timeout) when another
    // process (a second download) held the write lock at its first write
    this.storeTx.immediate(key, range, candles);
  }

  /**
   * Drops every cached candle of a series and its covered ranges, in one transaction: for a series
   * the broker has re-adjusted since it was cached (a corporate action), whose cached prices no
   * longer match the ones it serves.
   */
  forget(key: CandleSeriesKey): void {
    this.forgetTx.immediate(key);
  }

  /** Cached candles with `range.start <= ts < range.end`, oldest first. */
  get(key: CandleSeriesKey, range: TimeRange): CachedCandle[] {
    const rows = this.selectCandles.all(
      key.symbol,
      key.interval,
      key.adjusted ? 1 : 0,
      range.start,
      range.end,
    ) as CandleRow[];
    return rows.map(toCachedCandle);
  }

  /** The oldest cached candle with `range.start <= ts < range.end`, if any. */
  first(key: CandleSeriesKey, range: TimeRange): CachedCandle | undefined {
    const row = this.selectFirst.get(
      key.symbol,
      key.interval,
      key.adjusted ? 1 : 0,
      range.start,
      range.end,
    ) as CandleRow | undefined;
    return row === undefined ? undefined : toCachedCandle(row);
  }

  /** The covered ranges of a series, disjoint and sorted. */
  coverage(key: CandleSeriesKey): TimeRange[] {
    const rows = this.selectCoverage.all(key.symbol, key.interval, key.adjusted ? 1 : 0) as RangeRow[];
    return rows.map((r) => ({ start: r.start_ts, end: r.end_ts }));
  }

  /**
   * The parts of `range` not covered yet: what must still be downloaded.
   *
   * @throws {@link StoreError} `invalid-argument` for an empty range
   */
  missing(key: CandleSeriesKey, range: TimeRange): TimeRange[] {
    assertRange(range);
    const touching = this.selectTouching.all(
      key.symbol,
      key.interval,
      key.adjusted ? 1 : 0,
      range.end,
      range.start,
    ) as RangeRow[];
    return subtractRanges(
      range,
      touching.map((r) => ({ start: r.start_ts, end: r.end_ts })),
    );
  }
}

function toCachedCandle(r: CandleRow): CachedCandle {
  return {
    ts: r.ts,
    open: textToDecimal(r.open, 'candles.open'),
    high: textToDecimal(r.high, 'candles.high'),
    low: textToDecimal(r.low, 'candles.low'),
    close: textToDecimal(r.close, 'candles.close'),
    volume: textToDecimal(r.volume, 'candles.volume'),
  };
}

function assertRange(range: TimeRange): void {
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.end <= range.start) {
    throw new StoreError(
      StoreErrorCode.INVALID_ARGUMENT,
      `range: expected integer epoch ms with start < end, found [${range.start}, ${range.end})`,
    );
  }
}
