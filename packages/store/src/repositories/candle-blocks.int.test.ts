import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { T0, tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
import { migrate } from '../schema/migrator.js';
import { type BarColumns, CandleBarReader } from './candle-bars.js';
import { blockSpan } from './candle-blocks.js';
import type { CandleSeriesKey } from './candle-cache.js';
import type { TimeRange } from './time-ranges.js';

let dir: string;
let cleanupDir: () => void;
let file: string;
let db: HogaDatabase;
beforeEach(() => {
  ({ dir, cleanup: cleanupDir } = tempDir());
  file = join(dir, 'hoga.sqlite');
  db = HogaDatabase.open(file);
});
afterEach(() => {
  db.close();
  cleanupDir();
});

const MIN = 60_000;
const DAY = 86_400_000;
const key: CandleSeriesKey = { symbol: '005930', interval: '1m', adjusted: true };
/** Monday 2026-11-02 09:01 KST. */
const MONDAY = Date.parse('2026-11-02T09:01:00+09:00');

/** Decimal texts of one candle (`ts`, then open, high, low, close, volume). */
type TextCandle = [number, string, string, string, string, string];

/** KR-like minute candles: `days` weekdays from {@link MONDAY} of `perDay` minutes each. */
function minuteCandles(days: number, perDay: number): TextCandle[] {
  const out: TextCandle[] = [];
  for (let d = 0, day = 0; d < days; day++) {
    if (day % 7 >= 5) continue; // Saturday, Sunday: no candles
    for (let m = 0; m < perDay; m++) {
      const p = String(70_000 + ((d * 37 + m * 11) % 500) * 100);
      out.push([MONDAY + day * DAY + m * MIN, p, p, p, p, String(m * 3 + d)]);
    }
    d++;
  }
  return out;
}

/** Writes candles through the cache (as the downloader does), covering `[first, last + 1)`. */
function store(candles: readonly TextCandle[], k: CandleSeriesKey = key): void {
  const ts = candles.map((c) => c[0]);
  db.candles.store(
    k,
    { start: Math.min(...ts), end: Math.max(...ts) + 1 },
    candles.map(([t, o, h, l, c, v]) => ({
      ts: t,
      open: new Decimal(o),
      high: new Decimal(h),
      low: new Decimal(l),
      close: new Decimal(c),
      volume: new Decimal(v),
    })),
  );
}

/** What a read must answer: the rows of `candles`, each text as `Number()` reads it. */
function expected(conn: Database.Database, k: CandleSeriesKey, range: TimeRange): number[][] {
  const rows = conn
    .prepare(
      `SELECT ts, open, high, low, close, volume FROM candles
       WHERE symbol = ? AND interval = ? AND adjusted = ? AND ts >= ? AND ts < ? ORDER BY ts`,
    )
    .raw()
    .all(k.symbol, k.interval, k.adjusted ? 1 : 0, range.start, range.end) as [number, ...string[]][];
  return rows.map(([ts, ...texts]) => [ts, ...texts.map(Number)]);
}

function rowsOf(c: BarColumns): number[][] {
  return Array.from({ length: c.length }, (_, i) =>
    [c.ts, c.open, c.high, c.low, c.close, c.volume].map((a) => a[i] as number),
  );
}

function blockCount(conn: Database.Database = db.connection): number {
  return conn.prepare('SELECT count(*) FROM candle_blocks').pluck().get() as number;
}

describe('CandleBarReader blocks (candle_blocks)', () => {
  describe('.read', () => {
    it('builds a block per week on the first read and answers the next read from them, the same bars', () => {
      store(minuteCandles(15, 381));
      const reader = new CandleBarReader(db.connection);
      const range = { start: MONDAY, end: MONDAY + 30 * DAY };
      expect(blockCount()).toBe(0);
      const first = reader.read(key, range);
      const weeks = blockCount();
      expect(weeks).toBeGreaterThanOrEqual(3);
      expect(weeks).toBeLessThanOrEqual(4);
      const total = db.connection.prepare('SELECT sum(count) FROM candle_blocks').pluck().get();
      expect(total).toBe(15 * 381);
      const second = reader.read(key, range);
      expect(blockCount()).toBe(weeks);
      expect(first.length).toBe(15 * 381);
      expect(rowsOf(second)).toEqual(rowsOf(first));
      expect(rowsOf(second)).toEqual(expected(db.connection, key, range));
      expect(second.closeTime).toBe(second.ts);
    });

    it('answers ranges that start and end inside blocks, or fall between candles, like the rows do', () => {
      store(minuteCandles(12, 50));
      const reader = new CandleBarReader(db.connection);
      reader.read(key, { start: 0, end: Number.MAX_SAFE_INTEGER });
      const span = blockSpan('1m');
      const ranges: TimeRange[] = [
        { start: MONDAY + 17 * MIN, end: MONDAY + 9 * DAY + 3 * MIN },
        { start: MONDAY + 5 * DAY, end: MONDAY + 7 * DAY }, // a weekend only
        { start: MONDAY + 2 * DAY + 1, end: MONDAY + 2 * DAY + 2 * MIN },
        { start: MONDAY - span * 3, end: MONDAY + 1 },
        { start: MONDAY + 15 * DAY + 49 * MIN, end: Number.MAX_SAFE_INTEGER },
        { start: MONDAY + DAY, end: MONDAY + DAY }, // empty
      ];
      for (const range of ranges) {
        expect(rowsOf(reader.read(key, range)), JSON.stringify(range)).toEqual(
          range.end > range.start ? expected(db.connection, key, range) : [],
        );
      }
    });

    it('sees a candle upserted after its block was built: the write drops the block, the read rebuilds it', () => {
      store(minuteCandles(10, 100));
      const reader = new CandleBarReader(db.connection);
      const range = { start: MONDAY, end: MONDAY + 20 * DAY };
      reader.read(key, range);
      const weeks = blockCount();
      const ts = MONDAY + 8 * DAY + 5 * MIN;
      store([
        [ts, '1', '2', '0.5', '1.5', '999'],
        [ts + 500 * MIN, '3', '3', '3', '3', '1'],
      ]);
      expect(blockCount()).toBe(weeks - 1);
      const after = reader.read(key, range);
      const i = Array.from(after.ts).indexOf(ts);
      expect([after.open[i], after.high[i], after.low[i], after.close[i], after.volume[i]]).toEqual([
        1, 2, 0.5, 1.5, 999,
      ]);
      expect(Array.from(after.ts)).toContain(ts + 500 * MIN);
      expect(rowsOf(after)).toEqual(expected(db.connection, key, range));
      expect(blockCount()).toBe(weeks);
    });

    it('sees candles changed by plain SQL: an update, a stamp moved to another week, a delete, an insert', () => {
      store(minuteCandles(10, 100));
      const reader = new CandleBarReader(db.connection);
      const range = { start: MONDAY, end: MONDAY + 20 * DAY };
      reader.read(key, range);
      const c = db.connection;
      const where = "symbol = '005930' AND interval = '1m' AND adjusted = 1";
      c.prepare(`UPDATE candles SET close = '12.25' WHERE ${where} AND ts = ?`).run(MONDAY + 3 * MIN);
      c.prepare(`UPDATE candles SET ts = ? WHERE ${where} AND ts = ?`).run(
        MONDAY + 9 * DAY + 7,
        MONDAY + 4 * MIN,
      );
      c.prepare(`DELETE FROM candles WHERE ${where} AND ts = ?`).run(MONDAY + 7 * DAY + 9 * MIN);
      c.prepare(
        `INSERT INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
         VALUES ('005930', '1m', 1, ?, '5', '5', '5', '5', '5')`,
      ).run(MONDAY + 12 * DAY);
      const after = rowsOf(reader.read(key, range));
      expect(after).toEqual(expected(c, key, range));
      expect(after.find((r) => r[0] === MONDAY + 3 * MIN)?.[4]).toBe(12.25);
      expect(after.some((r) => r[0] === MONDAY + 4 * MIN)).toBe(false);
      expect(after.some((r) => r[0] === MONDAY + 9 * DAY + 7)).toBe(true);
      expect(after.some((r) => r[0] === MONDAY + 7 * DAY + 9 * MIN)).toBe(false);
      expect(after.some((r) => r[0] === MONDAY + 12 * DAY)).toBe(true);
    });

    it('keeps every value bit for bit: -0, fractions, integers beyond 32 bits, extremes, negative stamps', () => {
      const texts = [
        '-0',
        '0',
        '0.1',
        '2147483647',
        '2147483648',
        '-2147483649',
        '1e300',
        '5e-324',
        '-7',
        '4.35',
      ];
      const t0 = Date.parse('1969-12-30T23:59:00Z');
      const candles: TextCandle[] = texts.map((t, i) => [t0 + i * MIN, t, '1', t, '2', t]);
      candles.push([MONDAY, '1', '1', '1', '1', '1']);
      // Plain SQL, so the texts are stored as written ('-0' too).
      const insert = db.connection.prepare(
        `INSERT INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
         VALUES ('005930', '1m', 1, ?, ?, ?, ?, ?, ?)`,
      );
      for (const c of candles) insert.run(...c);
      const reader = new CandleBarReader(db.connection);
      const range = { start: t0 - DAY, end: MONDAY + 1 };
      reader.read(key, range);
      expect(blockCount()).toBe(2);
      const cols = reader.read(key, range);
      const want = expected(db.connection, key, range);
      expect(rowsOf(cols).length).toBe(want.length);
      rowsOf(cols).forEach((row, i) => {
        row.forEach((v, j) => {
          expect(Object.is(v, want[i]?.[j]), `row ${i} column ${j}: ${v}`).toBe(true);
        });
      });
      expect(Object.is(cols.open[0], -0)).toBe(true);
    });

    it('reads a daily series across blocks with its regular close times', () => {
      const daily = { symbol: 'AAPL', interval: '1d', adjusted: true };
      const day = (date: string) => Date.parse(`${date}T00:00:00+09:00`);
      store(
        [
          [day('2024-03-04'), '170.5', '171', '169', '170.25', '100'],
          [day('2025-07-01'), '205.1', '206', '204', '205.75', '200'],
          [day('2026-11-23'), '192.33', '193.1', '188.07', '192.33', '51234567'],
        ],
        daily,
      );
      const reader = new CandleBarReader(db.connection);
      const range = { start: day('2024-01-01'), end: day('2027-01-01') };
      const first = reader.read(daily, range);
      expect(blockCount()).toBe(3);
      const cols = reader.read(daily, range);
      expect(rowsOf(cols)).toEqual(rowsOf(first));
      expect(rowsOf(cols)).toEqual(expected(db.connection, daily, range));
      expect(cols.closeTime[2]).toBe(Date.parse('2026-11-23T16:00:00-05:00'));
      expect(cols.closeTime[1]).toBe(Date.parse('2025-07-01T16:00:00-04:00'));
    });

    it('rebuilds a block whose blob it cannot read', () => {
      store(minuteCandles(3, 20));
      const reader = new CandleBarReader(db.connection);
      const range = { start: MONDAY, end: MONDAY + 5 * DAY };
      reader.read(key, range);
      db.connection.prepare("UPDATE candle_blocks SET data = 'AAAA'").run();
      expect(rowsOf(reader.read(key, range))).toEqual(expected(db.connection, key, range));
      expect(db.connection.prepare('SELECT length(data) > 4 FROM candle_blocks').pluck().get()).toBe(1);
    });

    it('drops a block of another span and reads its candles again', () => {
      store(minuteCandles(3, 20));
      const reader = new CandleBarReader(db.connection);
      const range = { start: MONDAY, end: MONDAY + 5 * DAY };
      reader.read(key, range);
      db.connection.prepare('UPDATE candle_blocks SET start_ts = start_ts + 1, end_ts = end_ts + 1').run();
      expect(rowsOf(reader.read(key, range))).toEqual(expected(db.connection, key, range));
      const starts = db.connection.prepare('SELECT start_ts FROM candle_blocks').pluck().all() as number[];
      expect(starts.map((t) => t % blockSpan('1m'))).toEqual([0]);
    });

    it('reads over a read-only connection without storing blocks', () => {
      store(minuteCandles(3, 20));
      const ro = HogaDatabase.open(file, { readonly: true });
      try {
        const range = { start: MONDAY, end: MONDAY + 5 * DAY };
        expect(rowsOf(new CandleBarReader(ro.connection).read(key, range))).toEqual(
          expected(db.connection, key, range),
        );
        expect(blockCount()).toBe(0);
      } finally {
        ro.close();
      }
    });

    it('reads without waiting for another connection’s write lock or storing blocks, and stores them after', () => {
      store(minuteCandles(3, 20));
      const other = new Database(file);
      const busy = HogaDatabase.open(file, { busyTimeoutMs: 60_000 });
      try {
        other.exec('BEGIN IMMEDIATE');
        const reader = new CandleBarReader(busy.connection);
        const range = { start: MONDAY, end: MONDAY + 5 * DAY };
        expect(rowsOf(reader.read(key, range))).toEqual(expected(db.connection, key, range));
        expect(busy.connection.inTransaction).toBe(false);
        expect(busy.connection.pragma('busy_timeout', { simple: true })).toBe(60_000);
        other.exec('COMMIT');
        expect(blockCount()).toBe(0);
        expect(rowsOf(reader.read(key, range))).toEqual(expected(db.connection, key, range));
        expect(blockCount()).toBe(1);
      } finally {
        busy.close();
        other.close();
      }
    });

    it('stores no block built from a snapshot older than another connection’s committed write', () => {
      store(minuteCandles(3, 20));
      const range = { start: MONDAY, end: MONDAY + 5 * DAY };
      const writer = new Database(file);
      try {
        const c = db.connection;
        c.exec('BEGIN');
        const before = expected(c, key, range); // the read snapshot starts here
        writer
          .prepare(
            `INSERT INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
             VALUES ('005930', '1m', 1, ?, '9', '9', '9', '9', '9')`,
          )
          .run(MONDAY + 100 * MIN);
        const reader = new CandleBarReader(c);
        expect(rowsOf(reader.read(key, range))).toEqual(before);
        c.exec('COMMIT');
        expect(blockCount()).toBe(0);
        const after = rowsOf(reader.read(key, range));
        expect(after).toEqual(expected(c, key, range));
        expect(after.length).toBe(before.length + 1);
        expect(blockCount()).toBe(1);
      } finally {
        writer.close();
      }
    });

    it('builds blocks on the first read of a file migrated from version 7 with candles in it', () => {
      db.close();
      const old = join(dir, 'v7.sqlite');
      const raw = new Database(old);
      migrate(raw, old, T0, 7);
      const insert = raw.prepare(
        `INSERT INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
         VALUES ('005930', '1m', 1, ?, ?, ?, ?, ?, ?)`,
      );
      raw.transaction(() => {
        for (const [ts, ...texts] of minuteCandles(8, 30)) insert.run(ts, ...texts);
      })();
      raw.close();
      db = HogaDatabase.open(old);
      const range = { start: MONDAY, end: MONDAY + 14 * DAY };
      const reader = new CandleBarReader(db.connection);
      expect(blockCount()).toBe(0);
      const first = rowsOf(reader.read(key, range));
      expect(first).toEqual(expected(db.connection, key, range));
      expect(first.length).toBe(8 * 30);
      expect(blockCount()).toBe(2);
      expect(rowsOf(reader.read(key, range))).toEqual(first);
    });

    it('reads several series at once (readMany) as it reads each alone', () => {
      store(minuteCandles(9, 40));
      store(
        minuteCandles(4, 7).map(([ts, ...t]): TextCandle => [ts + 3 * MIN, ...t]),
        { ...key, symbol: '000660' },
      );
      const daily = { symbol: 'AAPL', interval: '1d', adjusted: true };
      store(
        [[Date.parse('2026-11-23T00:00:00+09:00'), '192.33', '193.1', '188.07', '192.33', '51234567']],
        daily,
      );
      const reads = [
        { key, range: { start: MONDAY + 2 * DAY, end: MONDAY + 10 * DAY } },
        { key: { ...key, symbol: '000660' }, range: { start: 0, end: Number.MAX_SAFE_INTEGER } },
        { key: { ...key, symbol: '035720' }, range: { start: 0, end: Number.MAX_SAFE_INTEGER } },
        { key, range: { start: MONDAY, end: MONDAY } },
        { key: daily, range: { start: 0, end: Number.MAX_SAFE_INTEGER }, market: 'US' as const },
      ];
      const reader = new CandleBarReader(db.connection);
      for (let pass = 0; pass < 2; pass++) {
        const many = reader.readMany(reads);
        expect(many.map((c) => c.length)).toEqual([
          expected(db.connection, key, reads[0]?.range as TimeRange).length,
          28,
          0,
          0,
          1,
        ]);
        reads.forEach((r, i) => {
          const alone = reader.read(r.key, r.range, r.market);
          expect(rowsOf(many[i] as BarColumns)).toEqual(rowsOf(alone));
          expect(Array.from(many[i]?.closeTime ?? [])).toEqual(Array.from(alone.closeTime));
        });
      }
    });

    it('reads a file not migrated to version 8 (opened without migrating) from its candles', () => {
      db.close();
      const old = join(dir, 'v7.sqlite');
      const raw = new Database(old);
      migrate(raw, old, T0, 7);
      raw
        .prepare(
          `INSERT INTO candles (symbol, interval, adjusted, ts, open, high, low, close, volume)
           VALUES ('005930', '1m', 1, ?, '1.5', '2', '1', '1.75', '10')`,
        )
        .run(MONDAY);
      raw.close();
      db = HogaDatabase.open(old, { migrate: false });
      const cols = new CandleBarReader(db.connection).read(key, { start: MONDAY, end: MONDAY + 1 });
      expect(rowsOf(cols)).toEqual([[MONDAY, 1.5, 2, 1, 1.75, 10]]);
    });
  });
});
