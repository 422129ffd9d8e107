/**
 * `hoga data download|list|export`: fill the store's candle cache from the broker (the engine's
 * `CandleDownloader`, the same one backtests use), show what it holds, and write it out as CSV.
 *
 * @module
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { IANAZone } from 'luxon';
import { describeStoreDb, withConnection } from './broker/connection-flags.js';

const DB_HELP =
  "database file (default: $HOGA_DB, else the profile's db, else ./data/hoga.sqlite; ./data/hoga-sim.sqlite when no broker is configured)";

function symbolList(value: string): string[] {
  const list = value
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  if (list.length === 0)
    throw new InvalidArgumentError(`--symbols: expected symbols like 005930,AAPL, found "${value}"`);
  return [...new Set(list)]; // a symbol named twice is downloaded and exported once
}

/**
 * The zone of `--tz`: `KST` (any case), `exchange` (each symbol's own), or an IANA zone luxon knows.
 */
function timeZone(value: string): string {
  if (value.toUpperCase() === 'KST') return 'KST';
  if (value === 'exchange') return value;
  if (IANAZone.isValidZone(value)) return value;
  throw new InvalidArgumentError(
    `--tz: expected KST, exchange or an IANA time zone (America/New_York), found "${value}"`,
  );
}

const interval = () =>
  new Option('--interval <interval>', 'candle interval, 1m or 1d (required)')
    .choices(['1m', '1d'])
    .makeOptionMandatory();

/** Registers `hoga data`. */
export function registerDataCommands(program: Command): void {
  const data = program
    .command('data')
    .description('download, list and export cached candles (the backtest data)');
  const download = describeStoreDb(
    withConnection(
      data
        .command('download')
        .description(
          'fill the candle cache; a rerun (after Ctrl-C too) fetches only what is missing; with no broker configured, from an embedded simulator, as hoga backtest does',
        )
        .requiredOption(
          '--symbols <list>',
          'comma-separated symbols, e.g. 005930,AAPL (required)',
          symbolList,
        )
        .addOption(interval())
        .requiredOption(
          '--from <date>',
          'first trading date (2026-11-02) or date-time with offset (required)',
        )
        .requiredOption('--to <date>', 'last trading date, included (required)'),
    ),
    'the candle cache',
  );
  // with no broker configured, the embedded simulator's candles have a file of their own (as a backtest's)
  for (const option of download.options) {
    if (option.long === '--db') {
      option.description =
        "database of the candle cache, made when missing (default $HOGA_DB, else the profile's db, else ./data/hoga.sqlite; ./data/hoga-sim.sqlite when no broker is configured)";
    }
  }
  download.action(async (flags) => {
    const { dataDownload } = await import('./data-actions.js');
    await dataDownload(flags);
  });
  data
    .command('list')
    .description(
      'what the candle cache holds: series, covered ranges (from the first to the last candle stamp covered: 1d its last trading date, 1m its last minute), candles',
    )
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON', false)
    .option('--csv', 'print CSV', false)
    .action(async (flags) => {
      const { dataList } = await import('./data-actions.js');
      await dataList(flags);
    });
  data
    .command('export')
    .description(
      "write cached candles as CSV or Parquet (symbol, interval, time, open, high, low, close, volume); time is the candle's end, in KST unless --tz says otherwise (1d: its trading date's midnight), as the broker stamps it",
    )
    .option('--db <file>', DB_HELP)
    .option('--symbols <list>', 'only these symbols (default: every cached one)', symbolList)
    .addOption(interval())
    .option('--from <date>', 'first trading date or date-time with offset')
    .option('--to <date>', 'last trading date (included) or date-time with offset')
    .addOption(
      new Option(
        '--format <format>',
        'output format; parquet needs --out and stores every column as UTF8 text like the CSV (prices and volume exact) (default: parquet for an --out file ending .parquet, else csv)',
      ).choices(['csv', 'parquet']),
    )
    .option('--out <file>', 'write to this file instead of stdout (replaced when there; never a database)')
    .addOption(
      new Option(
        '--tz <zone>',
        "time zone of the time column: KST, exchange (each symbol's exchange: New York for a US symbol, KST for a KR one) or an IANA zone such as Europe/London; a 1d candle stays on its trading date, at midnight in that zone",
      )
        .default('KST')
        .argParser(timeZone),
    )
    .action(async (flags) => {
      const { dataExport } = await import('./data-export.js');
      await dataExport(flags);
    });
}
