/**
 * `hoga db runs`: the runs the store holds (each backtest is stored with its parameters, statistics,
 * trades and equity curve under its run id). Without `--id`, the newest runs as a table; with
 * `--id`, one run: its statistics, or with `--json` the whole run (trades and equity included,
 * decimals as strings, times ISO 8601 in KST).
 *
 * @module
 */

import { existsSync } from 'node:fs';
import { formatDecimal, formatKst } from '@hoga/core';
import {
  type RunKind,
  type RunRecord,
  RunRepository,
  resolveDatabasePath,
  runProcessAlive,
} from '@hoga/store';
import { DateTime } from 'luxon';
import { directoryDatabase } from '../../runtime/database-path.js';
import {
  byCurrency,
  equityText,
  percentText,
  type StatsView,
  statisticsRows,
  storedStatsJson,
} from '../backtest-report.js';
import { storedStrategyViews, strategyRows } from '../backtest-report-strategies.js';
import { simulatorDatabaseHint } from '../simulator-database.js';
import { type DbCommandIo, formatRows } from './db-io.js';
import { openForReading } from './open-for-reading.js';

/** Flags of `db runs`. */
export interface DbRunsFlags {
  readonly db?: string;
  readonly json?: boolean;
  /** Print the list as CSV (not with `--id`: one run is a report, or JSON). */
  readonly csv?: boolean;
  readonly id?: string;
  readonly kind?: RunKind;
  readonly limit?: number;
}

function kst(ms: number | null): string | null {
  return ms === null ? null : formatKst(DateTime.fromMillis(ms));
}

/** A stored run's statistics as the reports show them (a field missing or of another type: none). */
function statsView(stats: unknown): StatsView {
  const s = (stats !== null && typeof stats === 'object' ? stats : {}) as Record<string, unknown>;
  const num = (key: string): number | null => {
    const v = s[key];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : Number.NaN;
    return Number.isNaN(n) ? null : n;
  };
  const money = (key: string): Record<string, string> => {
    const v = s[key];
    if (v === null || typeof v !== 'object') return {};
    return byCurrency(
      Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')),
    );
  };
  const counts = (key: string): Record<string, number> | null => {
    const v = s[key];
    if (v === null || typeof v !== 'object') return null;
    return Object.fromEntries(
      Object.entries(v).filter((e): e is [string, number] => typeof e[1] === 'number'),
    );
  };
  return {
    bars: num('bars'),
    startEquity: num('startEquity'),
    endEquity: num('endEquity'),
    fxOnUsdCash: num('fxOnUsdCash'),
    totalReturn: num('totalReturn'),
    cagr: num('cagr'),
    maxDrawdown: num('maxDrawdown'),
    sharpe: num('sharpe'),
    trades: num('trades'),
    roundTrips: num('roundTrips'),
    winRate: num('winRate'),
    commissions: money('commissions'),
    taxes: money('taxes'),
    refused: counts('refused'),
    halts: counts('halts'),
  };
}

/** A run's return (as a percentage) and trade count as the list shows them: `-` when not stored. */
function listedStats(v: StatsView, csv: boolean): [string, string] {
  // CSV is for programs: the fraction stored, with no unit, and an empty cell for none (before,
  // `-1.23 %`, which a spreadsheet or pandas reads as text)
  if (csv)
    return [v.totalReturn === null ? '' : String(v.totalReturn), v.trades === null ? '' : String(v.trades)];
  return [
    // the report's digits (before, a loss too small for them was -0.00 % here, 0.00 % in the report)
    percentText(v.totalReturn, '-'),
    v.trades === null ? '-' : String(v.trades),
  ];
}

/** Why a failed run failed (its stored statistics say), as a row; none when it did not. */
function failureRow(stats: unknown): [string, string][] {
  const failure = (stats as { failure?: unknown } | null)?.failure;
  return typeof failure === 'string' ? [['failure', failure]] : [];
}

/**
 * Whether a run's process still runs it: false once it ended; for a `running` one, whether its
 * process lives (null when that cannot be told: another machine's, or none recorded).
 */
function alive(run: RunRecord): boolean | null {
  return run.status === 'running' ? runProcessAlive(run.process) : false;
}

/** A run's status as the table and report show it: `interrupted` for one running no more. */
function shownStatus(run: RunRecord): string {
  return run.status === 'running' && alive(run) === false ? 'interrupted' : run.status;
}

function header(run: RunRecord): Record<string, unknown> {
  return {
    runId: run.runId,
    kind: run.kind,
    strategy: run.strategyName,
    strategyPath: run.strategyPath,
    // as stored: `running` also for one whose process is gone (`process.alive` false)
    status: run.status,
    process: run.process === null ? null : { ...run.process, alive: alive(run) },
    startedAt: kst(run.startedAt),
    endedAt: kst(run.endedAt),
    params: run.params,
    stats: storedStatsJson(run.stats),
  };
}

/** The report's status: a running run's process too (and whether it is gone). */
function statusLine(run: RunRecord): string {
  if (run.status !== 'running' || run.process === null) return run.status;
  const { pid, host } = run.process;
  return alive(run) === false
    ? `interrupted (stored as running; its process ${pid} on this machine is gone)`
    : `running (process ${pid} on ${alive(run) === null ? host : 'this machine'})`;
}

function oneRun(runs: RunRepository, run: RunRecord, json: boolean, io: DbCommandIo): void {
  if (json) {
    const trades = runs.trades(run.runId).map((t) => ({
      time: kst(t.time),
      strategyId: t.strategyId ?? null,
      symbol: t.symbol,
      side: t.side,
      quantity: formatDecimal(t.quantity),
      price: formatDecimal(t.price),
      currency: t.currency,
      commission: formatDecimal(t.commission),
      tax: formatDecimal(t.tax),
    }));
    const equity = runs.equity(run.runId).map((p) => ({ time: kst(p.time), equity: equityText(p.equity) }));
    io.out(`${JSON.stringify({ ...header(run), trades, equity }, null, 2)}\n`);
    return;
  }
  const lines = [
    ['run', run.runId],
    ['kind', run.kind],
    ['strategy', `${run.strategyName}${run.strategyPath === null ? '' : ` (${run.strategyPath})`}`],
    ['status', statusLine(run)],
    ['started', kst(run.startedAt) ?? '-'],
    ['ended', kst(run.endedAt) ?? '-'],
    ['params', JSON.stringify(run.params)],
    ...(run.stats === null ? [] : statisticsRows(statsView(run.stats))),
    // a run of several strategies: each one's part (none stored before they were)
    ...strategyRows(storedStrategyViews((run.stats as { byStrategy?: unknown } | null)?.byStrategy)),
    ...failureRow(run.stats),
  ];
  // (a key as long as the column, a strategy's row, still has a space before its value)
  io.out(`${lines.map(([k, v]) => `${(k as string).padEnd(15)} ${v}`).join('\n')}\n`);
}

/**
 * Prints the runs, or one run.
 *
 * @param flags - `--db`, `--json`, `--id`, `--kind`, `--limit`
 * @param io - output
 */
export function dbRuns(flags: DbRunsFlags, io: DbCommandIo): void {
  const file = resolveDatabasePath(flags.db);
  if (file !== ':memory:' && !existsSync(file)) {
    io.failure([`no database at ${file}: give --db or HOGA_DB${simulatorDatabaseHint(flags.db)}`], 2);
    return;
  }
  const directory = directoryDatabase(file);
  if (directory !== undefined) {
    io.failure([directory], 2);
    return;
  }
  // one snapshot: a run and its trades and equity of one moment, while a backtest writes them
  const reading = openForReading(file, { snapshot: true });
  try {
    const hasRuns =
      reading.db.connection
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'")
        .get() !== undefined;
    const runs = hasRuns ? new RunRepository(reading.db.connection) : null;
    if (flags.id !== undefined) {
      if (flags.csv === true && flags.json !== true) {
        io.failure(
          ['--csv lists runs; one run (--id) prints as a report, or with its trades and equity as --json'],
          2,
        );
        return;
      }
      const run = runs?.get(flags.id);
      if (runs === null || run === undefined) {
        io.failure(
          [`no run ${flags.id} in ${file} (hoga db runs lists them)${simulatorDatabaseHint(flags.db)}`],
          1,
        );
        return;
      }
      oneRun(runs, run, flags.json === true, io);
      return;
    }
    const list =
      runs?.list({ ...(flags.kind === undefined ? {} : { kind: flags.kind }), limit: flags.limit ?? 50 }) ??
      [];
    if (flags.json === true) {
      io.out(`${JSON.stringify(list.map(header), null, 2)}\n`);
      return;
    }
    io.out(
      formatRows(
        ['started', 'run', 'kind', 'strategy', 'status', 'return', 'trades'],
        list.map((r) => [
          (kst(r.startedAt) ?? '-').slice(0, 19).replace('T', ' '),
          r.runId,
          r.kind,
          r.strategyName,
          shownStatus(r),
          ...listedStats(statsView(r.stats), flags.csv === true),
        ]),
        flags,
        `no ${flags.kind === undefined ? '' : `${flags.kind} `}runs in ${file}`,
      ),
    );
  } finally {
    reading.close();
  }
}
