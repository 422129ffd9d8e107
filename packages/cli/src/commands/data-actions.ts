/**
 * What `hoga data download|list` do (`data export`: data-export.ts).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { BrokerApiError, type BrokerClient } from '@hoga/connector';
import { counted, KST_ZONE, LiveClock, type Market, marketOfSymbol } from '@hoga/core';
import {
  CandleDownloader,
  type DownloadProgress,
  type DownloadSummary,
  downloadedShare,
  downloadTargets,
  formatEta,
  progressLine,
} from '@hoga/engine';
import { HogaDatabase, LATEST_SCHEMA_VERSION, SchemaVersionError } from '@hoga/store';
import { DateTime } from 'luxon';
import { emit, formatOf } from '../output/emit.js';
import type { OutputFormat } from '../output/table.js';
import { CliError, ExitCode, usageError } from '../runtime/exit-codes.js';
import { listenForInterrupts } from '../runtime/interrupts.js';
import { toBeforeFrom } from './backtest-options.js';
import { type ConnectionFlags, runWithClient } from './broker/connection.js';
import { openForReading, type ReadingDatabase } from './db/open-for-reading.js';
import {
  candleDatabaseFile,
  connectionConfigured,
  embeddedSimulator,
  refuseDirectoryDatabase,
} from './market-source.js';

/** Flags of `data download`. */
export interface DownloadFlags extends ConnectionFlags {
  readonly symbols: string[];
  readonly interval: '1m' | '1d';
  readonly from: string;
  readonly to: string;
}

/**
 * A usage error when `--to` is before `--from` (date-times keep their offset; a date `--to` is the
 * whole trading date of the symbols' markets, a US one ending at 20:00 New York: see
 * {@link toBeforeFrom}). Without symbols (export of every cached one) both markets count.
 */
export function checkOrder(
  from: string | undefined,
  to: string | undefined,
  symbols: readonly string[] | undefined,
  command: string,
): void {
  if (from === undefined || to === undefined) return;
  const markets: readonly Market[] = symbols === undefined ? ['KR', 'US'] : symbols.map(marketOfSymbol);
  if (toBeforeFrom(from, to, markets)) throw usageError(`--to (${to}) is before --from (${from})`, command);
}

export function targets(
  symbols: readonly string[],
  interval: '1m' | '1d',
  from: string,
  to: string,
  command: string,
) {
  checkOrder(from, to, symbols, command);
  try {
    return downloadTargets(symbols, interval, from, to);
  } catch (error) {
    throw usageError(`--from/--to: ${(error as Error).message}`, command);
  }
}

/**
 * What `data download` did: a line (the default), or `--json` / `--csv` (before, those were taken
 * and a plain line printed all the same).
 */
async function printSummary(summary: DownloadSummary, file: string, format: OutputFormat): Promise<void> {
  if (format === 'table') {
    console.log(
      `downloaded ${counted(summary.candles, 'candle')} in ${counted(summary.pages, 'page')} into ${file}` +
        (summary.cachedSymbols.length > 0 ? ` (already cached: ${summary.cachedSymbols.join(', ')})` : ''),
    );
    return;
  }
  const whole = {
    database: file,
    candles: summary.candles,
    pages: summary.pages,
    cachedSymbols: summary.cachedSymbols,
  };
  await emit(
    {
      headers: ['database', 'candles', 'pages', 'cached_symbols'],
      records: [whole],
      row: (r) => [r.database, r.candles, r.pages, r.cachedSymbols.join(' ')],
      jsonWhole: whole,
    },
    format,
  );
}

/**
 * `data download`: fills the cache of the database (created when missing: this command is asked to
 * store data) with what it lacks; Ctrl-C or SIGTERM stops between pages and keeps what was stored
 * (exit 130, SIGTERM 143), a second one quits at once. With no
 * broker configured, from an embedded simulator into its own file, as `hoga backtest` does (see
 * market-source.ts): before, the command asked for HOGA_BASE_URL.
 */
export async function dataDownload(flags: DownloadFlags): Promise<void> {
  const simulated = !connectionConfigured(flags);
  const file = candleDatabaseFile(flags.db, simulated);
  refuseDirectoryDatabase(file, 'data download');
  const wanted = targets(flags.symbols, flags.interval, flags.from, flags.to, 'data download');
  if (wanted.length === 0) {
    throw usageError(
      `nothing to download between ${flags.from} and ${flags.to} (before the broker's history?)`,
      'data download',
    );
  }
  const db = HogaDatabase.open(file);
  // Ctrl-C or SIGTERM stops between pages; a second one quits at once (runtime/interrupts.ts)
  const interrupts = listenForInterrupts({
    quitMessage: `hoga data download: interrupted again: quitting at once; what was downloaded is kept in ${file}`,
    onQuit: () => db.close(),
  });
  const tty = process.stderr.isTTY === true;
  let interrupted = false;
  let current = '';
  const download = async (client: BrokerClient): Promise<undefined> => {
    const downloader = new CandleDownloader({
      client,
      cache: db.candles,
      clock: new LiveClock(),
      signal: interrupts.signal,
      onProgress: (event) => {
        if (event.type === 'SymbolStarted') current = event.symbol;
        showProgress(event, flags.interval, tty);
      },
    });
    try {
      const summary = await downloader.ensure(flags.interval, wanted);
      if (tty) process.stderr.write('\r\x1b[K');
      await printSummary(summary, file, formatOf(flags));
    } catch (error) {
      if (error instanceof BrokerApiError && error.code === 'stock-not-found') {
        if (tty) process.stderr.write('\r\x1b[K');
        throw new CliError(
          `unknown symbol ${current}: the broker has no stock with that code (${error.code}); check --symbols (what was downloaded before it is kept in ${file})`,
          ExitCode.USAGE,
          { cause: error },
        );
      }
      if (!interrupts.signal.aborted) throw error;
      interrupted = true;
      if (tty) process.stderr.write('\r\x1b[K');
      process.stderr.write(
        `hoga: interrupted; what was downloaded is kept in ${file}: run the same command again to fetch the rest\n`,
      );
    }
    return undefined;
  };
  try {
    if (simulated) {
      process.stderr.write(
        `hoga: no broker configured: downloading from an embedded simulator into ${file}, where hoga backtest without a broker reads (hoga init sets a broker up)\n`,
      );
      const sim = await embeddedSimulator();
      try {
        await download(sim.client);
      } finally {
        await sim.close();
      }
    } else {
      // The whole download may take long: --timeout bounds each request, not the download.
      await runWithClient({ ...flags, timeout: 86_400 }, download);
    }
  } finally {
    interrupts.release();
    db.close();
  }
  // 130 after Ctrl-C, 143 after SIGTERM
  if (interrupted) process.exitCode = interrupts.exitCode;
}

function showProgress(event: DownloadProgress, interval: string, tty: boolean): void {
  if (!tty) {
    const line = progressLine(event, interval);
    if (line !== null) process.stderr.write(`${line}\n`);
    return;
  }
  if (event.type === 'PageStored') {
    // the share of the range covered: its total is known before the first page (a page estimate grew)
    const done = downloadedShare(event);
    const bar = '#'.repeat(Math.round(done * 20)).padEnd(20, '.');
    process.stderr.write(
      `\r\x1b[K${event.symbol} [${bar}] ${Math.floor(done * 100)}%, page ${event.totalPages}, ${event.candles.toLocaleString('en-US')} candles, ETA ${formatEta(event.etaMs)}`,
    );
  } else if (event.type === 'RateBudgetWaiting') {
    process.stderr.write(`\r\x1b[K${event.symbol}: waiting for the rate budget (${event.queued} queued)`);
  } else {
    const line = progressLine(event, interval);
    if (line !== null) process.stderr.write(`\r\x1b[K${line}\n`);
  }
}

/**
 * Opens the candle database for reading: `--db`, else `HOGA_DB`, else, with no broker configured,
 * the embedded simulator's file (where `hoga data download` and `hoga backtest` put its candles),
 * else `./data/hoga.sqlite`. Every read until `close()` sees one snapshot of the file.
 *
 * @throws {@link SchemaVersionError} for a file without a candle cache (written by an older hoga)
 */
export function openExisting(db: string | undefined, command: string): ReadingDatabase {
  const file = candleDatabaseFile(db, !connectionConfigured({}));
  if (file !== ':memory:' && !existsSync(file)) {
    throw new CliError(
      `no database at ${file}: give --db or HOGA_DB, or fill one with hoga data download`,
      ExitCode.USAGE,
      { helpFor: command },
    );
  }
  refuseDirectoryDatabase(file, command);
  // one snapshot: the series listed and the candles read for them of one moment, while a
  // download or a backtest writes candles
  const reading = openForReading(file, { snapshot: true });
  const tables = reading.db.connection
    .prepare(
      "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('candles', 'candle_ranges')",
    )
    .pluck()
    .get() as number;
  if (tables < 2) {
    // a file of a hoga from before the candle cache (before: "unexpected error: no such table")
    const version = reading.db.schemaVersion;
    reading.close();
    throw new SchemaVersionError(file, version, LATEST_SCHEMA_VERSION);
  }
  return reading;
}

interface SeriesRow {
  symbol: string;
  interval: string;
  adjusted: number;
  ranges: number;
  start: number;
  end: number;
  candles: number;
}

const kst = (ms: number) => DateTime.fromMillis(ms, { zone: KST_ZONE }).toFormat('yyyy-MM-dd HH:mm ZZ');

/**
 * The last candle stamp a covered range ending (exclusive) at `end` holds: a daily range's last
 * trading date (KST midnight), a minute range's last minute. A range holding today's daily candle
 * ends a millisecond past its stamp, one through yesterday at today's midnight: shown as the
 * exclusive end, both read "until" today.
 */
function lastStamp(interval: string, end: number): number {
  const last = end - 1;
  return interval === '1d'
    ? DateTime.fromMillis(last, { zone: KST_ZONE }).startOf('day').toMillis()
    : Math.floor(last / 60_000) * 60_000;
}

/**
 * `data list`: the cached series and their covered ranges (`from`: the first candle stamp covered,
 * `until`: the last, see {@link lastStamp}).
 */
export async function dataList(flags: { db?: string; json?: boolean; csv?: boolean }): Promise<void> {
  const reading = openExisting(flags.db, 'data list');
  const db = reading.db;
  try {
    const rows = db.connection
      .prepare(
        `SELECT r.symbol, r.interval, r.adjusted, COUNT(*) AS ranges, MIN(r.start_ts) AS start, MAX(r.end_ts) AS end,
           (SELECT COUNT(*) FROM candles c WHERE c.symbol = r.symbol AND c.interval = r.interval AND c.adjusted = r.adjusted) AS candles
         FROM candle_ranges r GROUP BY r.symbol, r.interval, r.adjusted ORDER BY r.symbol, r.interval`,
      )
      .all() as SeriesRow[];
    await emit(
      {
        headers: ['symbol', 'interval', 'adjusted', 'ranges', 'from', 'until', 'candles'],
        records: rows,
        row: (r) => [
          r.symbol,
          r.interval,
          r.adjusted === 1 ? 'yes' : 'no',
          r.ranges,
          kst(r.start),
          kst(lastStamp(r.interval, r.end)),
          r.candles,
        ],
        // `end`: the covered range's exclusive end; `until`: its last candle stamp, as the table
        json: (r) => ({
          ...r,
          adjusted: r.adjusted === 1,
          start: kst(r.start),
          end: kst(r.end),
          until: kst(lastStamp(r.interval, r.end)),
        }),
        empty: 'the candle cache is empty (fill it with hoga data download)',
      },
      formatOf(flags),
    );
  } finally {
    reading.close();
  }
}
