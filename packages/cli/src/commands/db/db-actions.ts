/**
 * What `hoga db info|migrate|orders|fills` do, as plain functions of their flags.
 *
 * @module
 */
import { statSync } from 'node:fs';
import { currencyOf, marketOfSymbol } from '@hoga/core';
import {
  HogaDatabase,
  LATEST_SCHEMA_VERSION,
  liveRuns,
  type OrderQuery,
  resolveDatabasePath,
  StoreError,
  StoreErrorCode,
  type UnreadableOrderError,
} from '@hoga/store';
import { directoryDatabase } from '../../runtime/database-path.js';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';
import { backtestOrders } from './db-backtest-orders.js';
import { type DbCommandIo, formatRows } from './db-io.js';
import { filtered, guard, kstDay, leftOut, newestOf, withExisting } from './db-listing.js';
import {
  dec,
  fillJson,
  iso,
  kst,
  ORDER_COLUMNS,
  orderCells,
  orderDecimalsJson,
  orderJson,
} from './db-rows.js';
import { runningOnIt } from './db-runs-delete.js';

/** Flags common to every `db` command. */
export interface DbFlags {
  /** Database file (else `HOGA_DB`, else `./data/hoga.sqlite`). */
  readonly db?: string | undefined;
  /** Print JSON instead of a table. */
  readonly json?: boolean | undefined;
  /** Print CSV instead of a table (the listings; `--json` goes first). */
  readonly csv?: boolean | undefined;
}

/** Flags of `db info`. */
export interface DbInfoFlags extends DbFlags {
  /** `false` skips `PRAGMA integrity_check` (slow on large files). */
  readonly integrity?: boolean | undefined;
}

/** Flags of `db orders`. */
export interface DbOrdersFlags extends DbFlags {
  readonly state?: OrderQuery['state'];
  readonly strategy?: string | undefined;
  readonly symbol?: string | undefined;
  readonly mode?: OrderQuery['mode'];
  /** KST calendar date of creation, `YYYY-MM-DD`. */
  readonly date?: string | undefined;
  readonly limit?: number | undefined;
  /** One backtest run's orders (its id; with `--mode backtest`). */
  readonly run?: string | undefined;
}

/** Flags of `db fills`. */
export interface DbFillsFlags extends DbFlags {
  readonly symbol?: string | undefined;
  /** Only the fills of this mode's orders. */
  readonly mode?: OrderQuery['mode'];
  /** `clientOrderId` of the order. */
  readonly order?: string | undefined;
  /** Only the fills of this strategy's orders. */
  readonly strategy?: string | undefined;
  /** KST calendar date of the fill, `YYYY-MM-DD`. */
  readonly date?: string | undefined;
  readonly limit?: number | undefined;
}

/** `db info`: file, schema version, journal mode, tables with row counts, integrity check. */
export function dbInfo(flags: DbInfoFlags, io: DbCommandIo): void {
  withExisting(flags, io, (db) => {
    // The file the user named (a read-only snapshot may be read from a private copy).
    const file = resolveDatabasePath(flags.db);
    const info = {
      ...db.info({ integrity: flags.integrity !== false }),
      ...(file === ':memory:' ? {} : { file, sizeBytes: statSync(file).size }),
    };
    if (flags.json === true) {
      io.out(`${JSON.stringify(info, null, 2)}\n`);
      return;
    }
    const width = info.tables.reduce((w, t) => Math.max(w, t.name.length), 0);
    io.out(
      [
        `file            ${info.file}`,
        `size            ${info.sizeBytes.toLocaleString('en-US')} bytes`,
        `schema version  ${info.schemaVersion}${info.schemaVersion === info.latestSchemaVersion ? ' (latest)' : ` (latest ${info.latestSchemaVersion}: run hoga db migrate)`}`,
        `journal mode    ${info.journalMode}`,
        `integrity       ${info.integrity.length === 0 ? 'not checked' : info.integrity.join('; ')}`,
        'tables',
        ...info.tables.map(
          (t) => `  ${t.name.padEnd(width)}  ${t.rows.toLocaleString('en-US').padStart(10)}`,
        ),
        '',
      ].join('\n'),
    );
    if (info.integrity.length > 0 && info.integrity[0] !== 'ok') io.fail(1);
  });
}

/**
 * `db migrate`: creates the file when missing, else brings it to the latest schema; a migration is
 * refused (exit 2) while a run of this machine is running on the file.
 */
export function dbMigrate(flags: DbFlags, io: DbCommandIo): void {
  const file = resolveDatabasePath(flags.db);
  guard(io, () => {
    const directory = directoryDatabase(file);
    if (directory !== undefined) throw new CliError(`${directory}, e.g. ${file}/hoga.sqlite`, ExitCode.USAGE);
    const db = HogaDatabase.open(file, { migrate: false });
    try {
      // a migration rewrites tables in one write transaction, under a running run's statements (a
      // run of an older hoga still at work on the file it opened); a file already at this schema
      // is not touched: said up to date, whoever runs on it (a script's migrate before each start)
      const writing = db.schemaVersion < LATEST_SCHEMA_VERSION ? liveRuns(db.connection) : [];
      if (writing.length > 0) {
        throw new CliError(
          `did not migrate ${file}: ${runningOnIt(writing)}, and a migration holds the file's write lock while it rewrites tables under it, its writes, orders included, waiting or failing meanwhile: run hoga db migrate again once ${writing.length === 1 ? 'it has' : 'they have'} stopped`,
          ExitCode.USAGE,
        );
      }
      const { from, to } = db.migrate();
      if (flags.json === true) io.out(`${JSON.stringify({ file, from, to })}\n`);
      else
        io.out(
          from === to
            ? `${file}: schema version ${to}, up to date\n`
            : `${file}: schema version ${from} → ${to}\n`,
        );
    } finally {
      db.close();
    }
  });
}

/** `db orders`: stored orders, oldest first. */
export function dbOrders(flags: DbOrdersFlags, io: DbCommandIo): void {
  if (flags.run !== undefined && flags.mode !== 'backtest') {
    guard(io, () => {
      throw new CliError(
        "--run lists one backtest run's orders: give it with --mode backtest",
        ExitCode.USAGE,
      );
    });
    return;
  }
  withExisting(flags, io, (db, file) => {
    // a backtest's orders are in the journal, one summary each
    if (flags.mode === 'backtest') {
      listBacktestOrders(db, file, flags, io);
      return;
    }
    const limit = flags.limit ?? 1_000;
    // a row that cannot be read is left out and named after the listing (before: no listing at all)
    const unreadable: UnreadableOrderError[] = [];
    const orders = newestOf(
      db.orders.list({
        onUnreadable: (error) => unreadable.push(error),
        state: flags.state,
        strategyId: flags.strategy,
        symbol: flags.symbol,
        mode: flags.mode,
        ...kstDay(flags.date),
        limit: limit + 1,
        newest: true,
      }),
      limit,
      'order',
      io,
    );
    if (flags.json === true) {
      const out = orders.map((o) => ({
        ...orderJson(o),
        brokerOrderIds: db.orders.brokerOrderIds(o.clientOrderId),
      }));
      io.out(`${JSON.stringify(out, null, 2)}\n`);
      leftOut(unreadable, io);
      return;
    }
    io.out(
      formatRows(
        ['created', 'clientOrderId', 'brokerOrderId', 'strategy', 'mode', 'symbol', ...ORDER_COLUMNS],
        orders.map((o) => [
          kst(o.createdAt),
          o.clientOrderId,
          o.brokerOrderId ?? '-',
          o.strategyId ?? '-',
          o.mode,
          o.symbol,
          ...orderCells(o, o.currency),
        ]),
        flags,
        `no ${flags.mode === undefined ? '' : `${flags.mode} `}orders in ${file}${filtered(flags) ? ' match' : ''}`,
      ),
    );
    leftOut(unreadable, io);
  });
}

/** `db fills`: stored fills, by time (a backtest's are its run's trades: refused with where they are). */
export function dbFills(flags: DbFillsFlags, io: DbCommandIo): void {
  if (flags.mode === 'backtest') {
    // before: an empty list, exit 0 (a backtest stores no broker fills)
    guard(io, () => {
      throw new CliError(
        "a backtest's fills are stored with its run, not as broker fills: hoga db runs --id RUN --json lists its trades, hoga db orders --mode backtest --run RUN --json each order's fills",
        ExitCode.USAGE,
      );
    });
    return;
  }
  withExisting(flags, io, (db, file) => {
    let orderId: number | undefined;
    if (flags.order !== undefined) {
      const order = db.orders.get(flags.order);
      if (order === null)
        throw new StoreError(
          StoreErrorCode.ORDER_NOT_FOUND,
          `no stored order has clientOrderId ${flags.order}`,
        );
      orderId = order.id;
    }
    const limit = flags.limit ?? 10_000;
    const fills = newestOf(
      db.fills.list({
        orderId,
        symbol: flags.symbol,
        mode: flags.mode,
        strategyId: flags.strategy,
        ...kstDay(flags.date),
        limit: limit + 1,
        newest: true,
      }),
      limit,
      'fill',
      io,
    );
    // each fill's order: its client order id and strategy, read once per order
    const ordersById = new Map<
      number,
      { readonly clientOrderId: string; readonly strategyId: string | null }
    >();
    const orderOf = (id: number) => {
      let known = ordersById.get(id);
      if (known === undefined) {
        const order = db.orders.getById(id);
        known = { clientOrderId: order?.clientOrderId ?? `#${id}`, strategyId: order?.strategyId ?? null };
        ordersById.set(id, known);
      }
      return known;
    };
    const clientId = (id: number): string => orderOf(id).clientOrderId;
    if (flags.json === true) {
      io.out(
        `${JSON.stringify(
          fills.map((f) => ({
            ...fillJson(f, clientId(f.orderId)),
            strategyId: orderOf(f.orderId).strategyId,
          })),
          null,
          2,
        )}\n`,
      );
      return;
    }
    io.out(
      formatRows(
        [
          'filled',
          'clientOrderId',
          'brokerOrderId',
          'strategy',
          'symbol',
          'side',
          'qty',
          'price',
          'commission',
          'tax',
          'cumulative',
        ],
        fills.map((f) => [
          kst(f.filledAt),
          clientId(f.orderId),
          f.brokerOrderId ?? '-',
          orderOf(f.orderId).strategyId ?? '-',
          f.symbol,
          f.side,
          dec(f.quantity),
          dec(f.price),
          `${dec(f.commission)} ${f.commissionCurrency}`,
          f.tax === null ? '-' : `${dec(f.tax)} ${f.commissionCurrency}`,
          dec(f.cumulativeQuantity),
        ]),
        flags,
        `no ${flags.mode === undefined ? '' : `${flags.mode} `}fills in ${file}${filtered(flags) ? ' match' : ''}`,
      ),
    );
  });
}

/** `db orders --mode backtest`: the orders of backtests (of one with `--run`), from the journal. */
function listBacktestOrders(db: HogaDatabase, file: string, flags: DbOrdersFlags, io: DbCommandIo): void {
  const states = flags.state === undefined ? undefined : [flags.state].flat();
  const orders = backtestOrders(db, {
    runId: flags.run,
    states,
    strategyId: flags.strategy,
    symbol: flags.symbol,
    ...kstDay(flags.date),
    limit: flags.limit ?? 1_000,
  });
  if (flags.json === true) {
    const out = orders.map(({ summary, ...o }) => ({
      ...o,
      mode: 'backtest',
      ...orderDecimalsJson(o),
      createdAt: iso(o.createdAt),
      events: summary.events.map(([type, at]) => ({ type, at: iso(at) })),
      fills: summary.fills.map(([at, quantity, price, commission, tax]) => ({
        at: iso(at),
        quantity,
        price,
        commission,
        tax,
      })),
    }));
    io.out(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  io.out(
    formatRows(
      ['created', 'clientOrderId', 'strategy', 'symbol', ...ORDER_COLUMNS, 'reason'],
      orders.map((o) => [
        kst(o.createdAt),
        o.clientOrderId,
        o.strategyId ?? '-',
        o.symbol,
        // in its market's currency: a KR amount order (the broker takes US ones only) denied in KRW
        ...orderCells(o, o.symbol === '' ? '' : currencyOf(marketOfSymbol(o.symbol))),
        o.reason ?? '',
      ]),
      flags,
      `no backtest orders in ${file}${filtered(flags) ? ' match' : ''}`,
    ),
  );
}
