import { ORDER_STATES, type OrderState } from '@hoga/core';
import { TRADING_MODES, type TradingMode } from '@hoga/store';
import { type Command, InvalidArgumentError } from 'commander';
import { DateTime } from 'luxon';
import { dbFills, dbInfo, dbMigrate, dbOrders } from './db/db-actions.js';
import { type DbCommandIo, processIo } from './db/db-io.js';

/** Where `--db` defaults to: a `hoga init` project's profile names its own (docs/cli.md, Configuration). */
const DB_HELP = "database file (default: $HOGA_DB, else the profile's db, else ./data/hoga.sqlite)";

function states(value: string): OrderState[] {
  const list = value.split(',').map((s) => s.trim().toUpperCase());
  const unknown = list.filter((s) => !(ORDER_STATES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `--state: expected one or more of ${ORDER_STATES.join(', ')}, found ${unknown.join(', ')}`,
    );
  }
  return list as OrderState[];
}

/** The parser of a flag taking a trading mode (`--mode`, `--kind`), its errors naming that flag. */
function modeOf(flag: string): (value: string) => TradingMode {
  return (value) => {
    if (!TRADING_MODES.has(value)) {
      throw new InvalidArgumentError(
        `${flag}: expected one of ${[...TRADING_MODES].join(', ')}, found "${value}"`,
      );
    }
    return value as TradingMode;
  };
}

/** `db positions --mode`: the engine keeps positions for live and paper runs only. */
function positionsMode(value: string): 'live' | 'paper' {
  if (value !== 'live' && value !== 'paper') {
    // before: any other value listed the live positions, exit 0
    throw new InvalidArgumentError(`--mode: expected live or paper, found "${value}"`);
  }
  return value;
}

/** Symbols are stored upper-cased (`aapl` is `AAPL`, as `hoga backtest` takes it). */
function symbol(value: string): string {
  return value.trim().toUpperCase();
}

/**
 * `--limit`: a positive integer. One past what a query's LIMIT binds exactly (2^53 − 1; before,
 * 2^63 or more failed in the query, `unexpected error: datatype mismatch`, exit 1) lists what any
 * limit above the rows does: every row.
 */
function limit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new InvalidArgumentError(`--limit: expected a positive integer, found "${value}"`);
  }
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}

/** The parser of a flag taking a calendar date (`--date`, `--before`), its errors naming that flag. */
function dateOf(flag: string, example: string): (value: string) => string {
  return (value) => {
    // a calendar date (2026-13-07 too was taken here, then failed with exit 1 once the file was open)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || !DateTime.fromISO(value, { zone: 'utc' }).isValid) {
      throw new InvalidArgumentError(`${flag}: expected a date like ${example}, found "${value}"`);
    }
    return value;
  };
}

const date = dateOf('--date', '2026-11-23');

/**
 * Registers `hoga db info|migrate|orders|fills|runs|backup|positions`: inspect, create, upgrade or
 * back up the store's SQLite file and list the orders, fills, runs and positions it holds.
 *
 * @param program - the `hoga` program
 * @param io - where output goes (tests pass their own)
 */
export function registerDbCommands(program: Command, io: DbCommandIo = processIo): void {
  const db = program.command('db').description('inspect, migrate and back up the hoga database (SQLite)');
  db.command('info')
    .description('file, schema version, journal mode, tables with row counts, integrity check')
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON')
    .option('--no-integrity', 'skip PRAGMA integrity_check')
    .action((flags) => dbInfo(flags, io));
  db.command('migrate')
    .description(
      'create the database, or upgrade it to the latest schema in place (refused while a run of this machine is running on it; hoga db backup first)',
    )
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON')
    .action((flags) => dbMigrate(flags, io));
  db.command('orders')
    .description('list stored orders, oldest first')
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON (decimals as strings, times in KST)')
    .option('--csv', 'print CSV')
    .option('--state <states>', 'only these states (comma-separated)', states)
    .option('--strategy <id>', 'only this strategy')
    .option('--symbol <symbol>', 'only this symbol', symbol)
    .option('--mode <mode>', 'only backtest, paper or live orders', modeOf('--mode'))
    .option(
      '--run <runId>',
      "with --mode backtest: only this backtest run's orders (hoga db runs lists them)",
    )
    .option('--date <yyyy-mm-dd>', 'only orders created on this KST date', date)
    .option(
      '--limit <n>',
      "the newest n orders, listed oldest first (with --run: the run's first n)",
      limit,
      1_000,
    )
    .action((flags) => dbOrders(flags, io));
  db.command('fills')
    .description('list stored fills by time')
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON (decimals as strings, times in KST)')
    .option('--csv', 'print CSV')
    .option('--order <clientOrderId>', 'only fills of this order')
    .option('--strategy <id>', "only this strategy's fills")
    .option('--symbol <symbol>', 'only this symbol', symbol)
    .option(
      '--mode <mode>',
      "only the fills of paper or live orders (a backtest's: hoga db runs --id RUN --json)",
      modeOf('--mode'),
    )
    .option('--date <yyyy-mm-dd>', 'only fills on this KST date', date)
    .option('--limit <n>', 'the newest n fills, listed oldest first', limit, 10_000)
    .action((flags) => dbFills(flags, io));
  db.command('runs')
    .description(
      'stored runs (backtests; paper and live sessions of hoga run), newest first; --id RUN for one, with its trades and equity in --json; --delete or --delete-backtests removes backtests',
    )
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON (decimals as strings, times in KST)')
    .option('--csv', 'print the list as CSV (the return as the stored fraction, -0.0123 for -1.23 %)')
    .option('--id <runId>', 'one run')
    .option('--kind <kind>', 'only backtest, paper or live runs', modeOf('--kind'))
    .option('--limit <n>', 'at most n runs', limit, 50)
    .option(
      '--delete <runIds>',
      'delete these backtests (comma-separated) with their trades, equity, journal entries and strategy state; paper and live runs are refused, as is a backtest still running on this machine',
    )
    .option('--delete-backtests', 'delete every backtest started before --before')
    .option(
      '--before <yyyy-mm-dd>',
      'with --delete-backtests: the KST date the deleted runs started before',
      dateOf('--before', '2026-11-01'),
    )
    .option(
      '--vacuum',
      'give the space deleted rows left inside the file back to the disk (rewrites the file: needs free space about its size; refused while a run on this machine is running on the file)',
    )
    .action(async (flags) => {
      const removal = await import('./db/db-runs-delete.js');
      if (removal.deletes(flags)) removal.dbRunsDelete(flags, io);
      else (await import('./db/db-runs.js')).dbRuns(flags, io);
    });
  db.command('backup')
    .description(
      'copy the database to a new file (mode 0600), consistent, while runs go on writing it; with its command journal',
    )
    .argument('<file>', 'the backup (must not exist)')
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON')
    .action(async (target: string, flags) => (await import('./db/db-backup.js')).dbBackup(target, flags, io));
  db.command('positions')
    .description("the engine's positions (live: the order manager's; paper: the paper account's)")
    .option('--db <file>', DB_HELP)
    .option('--json', 'print JSON')
    .option('--csv', 'print CSV')
    .option('--mode <mode>', 'live (default) or paper', positionsMode)
    .action(async (flags) => (await import('./db/db-positions.js')).dbPositions(flags, io));
}
