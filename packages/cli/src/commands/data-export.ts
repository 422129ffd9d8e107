/**
 * What `hoga data export` does: cached candles as CSV or Parquet.
 *
 * @module
 */
import {
  closeSync,
  createWriteStream,
  existsSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { formatDecimal } from '@hoga/core';
import { usageError } from '../runtime/exit-codes.js';
import { checkOrder, openExisting, targets } from './data-actions.js';
import { exportTime, exportZone } from './data-export-time.js';
import { candleDatabaseFile, connectionConfigured } from './market-source.js';

/** The time range of one symbol's export (a date `--to` is the whole trading date of its market). */
function exportRange(
  symbol: string,
  flags: { interval: '1m' | '1d'; from?: string; to?: string },
): { start: number; end: number } {
  if (flags.from === undefined && flags.to === undefined)
    return { start: Number.MIN_SAFE_INTEGER, end: Number.MAX_SAFE_INTEGER };
  const from = flags.from ?? '1990-01-01';
  const to = flags.to ?? '2999-12-31';
  return targets([symbol], flags.interval, from, to, 'data export')[0]?.range ?? { start: 0, end: 0 };
}

function rangeText(flags: { from?: string; to?: string }): string {
  if (flags.from !== undefined && flags.to !== undefined) return ` from ${flags.from} to ${flags.to}`;
  if (flags.from !== undefined) return ` from ${flags.from}`;
  return flags.to === undefined ? '' : ` up to ${flags.to}`;
}

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * A usage error when `--out` is the database being read (or one of its `-wal`, `-shm`, `-journal`
 * files) or any other SQLite database: opening it for writing would empty it.
 */
function refuseDatabaseOut(out: string, dbFile: string): void {
  if (!existsSync(out) || !statSync(out).isFile()) return;
  const target = realpathSync(out);
  const own =
    dbFile !== ':memory:' &&
    existsSync(dbFile) &&
    ['', '-wal', '-shm', '-journal'].some((suffix) => target === `${realpathSync(dbFile)}${suffix}`);
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(out, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (own || header.toString('latin1') === SQLITE_HEADER) {
    throw usageError(
      `${out} is ${own ? `the database read (${dbFile}), or one of its files` : 'a SQLite database'}: writing the export there would destroy it; give --out a new file name`,
      'data export',
    );
  }
}

/**
 * A usage error when `--out`'s directory does not exist: the export makes the file, not its
 * directory (before, `…/x.csv does not exist`, naming the file about to be made).
 */
function refuseMissingDirectory(out: string): void {
  const directory = dirname(resolve(out));
  if (existsSync(directory)) return;
  throw usageError(
    `--out ${out}: the directory ${directory} does not exist: create it first, or give --out a file in an existing directory`,
    'data export',
  );
}

/** Columns of `data export`, in both formats. */
const EXPORT_COLUMNS = ['symbol', 'interval', 'time', 'open', 'high', 'low', 'close', 'volume'] as const;

/**
 * `data export`: cached candles as CSV or Parquet, oldest first per symbol. Both formats carry the
 * same columns and the same text: `time` is the ISO date-time in KST (or `--tz`'s zone), prices and volume are the exact
 * decimals as stored (Parquet: UTF8 strings, never a lossy DOUBLE). Parquet is binary, so it needs
 * `--out`.
 */
export async function dataExport(flags: {
  db?: string;
  symbols?: string[];
  interval: '1m' | '1d';
  from?: string;
  to?: string;
  /** Absent: Parquet for an `--out` file named `.parquet`, else CSV. */
  format?: 'csv' | 'parquet';
  out?: string;
  /** The time column's zone: `KST` (absent too), `exchange` (each symbol's) or an IANA zone. */
  tz?: string;
}): Promise<void> {
  const parquetName = flags.out?.toLowerCase().endsWith('.parquet') === true;
  const format = flags.format ?? (parquetName ? 'parquet' : 'csv');
  if (format === 'parquet' && flags.out === undefined) {
    throw usageError('parquet is binary: give --out <file>', 'data export');
  }
  if (format === 'csv' && parquetName) {
    // before, CSV text was written into the .parquet file, which no Parquet reader opens
    throw usageError(
      `--format csv writes CSV text, not into ${flags.out}: name the file .csv, or leave out --format (or give --format parquet)`,
      'data export',
    );
  }
  checkOrder(flags.from, flags.to, flags.symbols, 'data export');
  const reading = openExisting(flags.db, 'data export');
  const db = reading.db;
  try {
    // a file of another schema (an older or newer hoga) is refused here, before the output is made
    // (before: after the header, which had replaced a previous --out file)
    const candles = db.candles;
    const symbols =
      flags.symbols ??
      (db.connection
        .prepare('SELECT DISTINCT symbol FROM candle_ranges WHERE interval = ? ORDER BY symbol')
        .pluck()
        .all(flags.interval) as string[]);
    // every range before anything is written: a bad --from fails with the output file untouched
    const ranges = symbols.map((symbol) => exportRange(symbol, flags));
    if (flags.out !== undefined) {
      refuseMissingDirectory(flags.out);
      refuseDatabaseOut(flags.out, candleDatabaseFile(flags.db, !connectionConfigured({})));
    }
    const columns: string[][] = EXPORT_COLUMNS.map(() => []);
    const out =
      format === 'csv'
        ? flags.out === undefined
          ? process.stdout
          : // opened here: a path that cannot be written fails now, before any row (the stream's
            // own open failed after the rows, and the command said it wrote them)
            createWriteStream(flags.out, { fd: openSync(flags.out, 'w') })
        : undefined;
    out?.write(`${EXPORT_COLUMNS.join(',')}\n`);
    let rows = 0;
    for (const [index, symbol] of symbols.entries()) {
      const range = ranges[index]!;
      const before = rows;
      const zone = exportZone(symbol, flags.tz);
      for (const c of candles.get({ symbol, interval: flags.interval, adjusted: true }, range)) {
        const ts = exportTime(c.ts, flags.interval, zone);
        const row = [
          symbol,
          flags.interval,
          ts,
          formatDecimal(c.open),
          formatDecimal(c.high),
          formatDecimal(c.low),
          formatDecimal(c.close),
          formatDecimal(c.volume),
        ];
        if (out !== undefined) out.write(`${row.join(',')}\n`);
        else for (const [i, value] of row.entries()) columns[i]?.push(value);
        rows++;
      }
      if (rows === before) {
        process.stderr.write(
          `hoga: no cached ${flags.interval} candles of ${symbol}${rangeText(flags)}: hoga data list shows what the cache holds, hoga data download fills it\n`,
        );
      }
    }
    if (flags.out === undefined) return;
    if (out === undefined) {
      const { parquetWriteBuffer } = await import('hyparquet-writer');
      const buffer = parquetWriteBuffer({
        columnData: EXPORT_COLUMNS.map((name, i) => ({
          name,
          data: columns[i] ?? [],
          type: 'STRING' as const,
          nullable: false,
        })),
        createdBy: 'hoga data export',
      });
      writeFileSync(flags.out, new Uint8Array(buffer));
    } else {
      await new Promise<void>((resolve, reject) => {
        out.once('error', reject);
        (out as NodeJS.WritableStream).end((error?: Error | null) => (error ? reject(error) : resolve()));
      });
    }
    process.stderr.write(`wrote ${rows.toLocaleString('en-US')} candles to ${flags.out}\n`);
  } finally {
    reading.close();
  }
}
