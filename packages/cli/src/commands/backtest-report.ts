/**
 * What `hoga backtest` prints: a short report for people, or with `--json` one JSON document
 * (`{runId, stats, trades, equity}`) with every decimal as a string and times as ISO 8601 (KST).
 *
 * @module
 */
import { Decimal, formatKst } from '@hoga/core';
import type { BacktestOutcome, PerformanceStats } from '@hoga/engine';
import { DateTime } from 'luxon';
import { formatMoney, groupDecimal } from '../output/table.js';
import {
  storedStrategiesJson,
  strategiesJson,
  strategyRows,
  strategyViews,
} from './backtest-report-strategies.js';

/**
 * The `--json` document. Its `stats.byStrategy` gives each strategy's part, in the order given
 * (`StrategyJson` of `backtest-report-strategies.ts`).
 */
export interface BacktestJson {
  readonly runId: string;
  readonly stats: Record<string, unknown>;
  readonly trades: readonly {
    time: string;
    /** The strategy whose fill it is (several can run in one backtest). */
    strategyId: string;
    symbol: string;
    side: string;
    quantity: string;
    price: string;
    /** The currency of its price, commission and tax (`KRW`, `USD`), as the stored run's trade. */
    currency: string;
    commission: string;
    tax: string;
  }[];
  readonly equity: readonly { time: string; equity: string }[];
}

function iso(ms: number): string {
  return formatKst(DateTime.fromMillis(ms));
}

/**
 * A ratio as a decimal string in plain notation, the digits of the number's shortest form (before,
 * `String(value)`: a ratio below 1e-6, such as one share's return on a large account, came out as
 * `"2.815e-9"`).
 */
export function ratio(value: number | null): string | null {
  return value === null || !Number.isFinite(value) ? null : new Decimal(value).toFixed();
}

/**
 * What the run made in KRW: the end's equity less the start's, each to the won as the report
 * prints them (so the three agree to the won); null when either is not known.
 */
export function netProfitText(startEquity: number | null, endEquity: number | null): string | null {
  if (startEquity === null || endEquity === null) return null;
  return new Decimal(equityText(endEquity)).minus(equityText(startEquity)).toFixed();
}

/** Money per currency as decimal strings, the currencies sorted. */
export function perCurrency(values: Readonly<Record<string, Decimal>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [currency, amount] of Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1))) {
    out[currency] = amount.toFixed();
  }
  return out;
}

/**
 * A stored per-currency record with its currencies sorted, as {@link perCurrency} gives them (a run
 * stores them in the order its fills first met them: a run whose first fill was a US one printed
 * `$0.47, 9 KRW` in `hoga db runs --id` where its report had printed `9 KRW, $0.47`).
 */
export function byCurrency<T>(values: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The statistics that are money per currency (sorted by currency when read back). */
const MONEY_STATS: ReadonlySet<string> = new Set(['commissions', 'taxes']);

/**
 * The JSON document of a run.
 *
 * @param outcome - the run
 * @param stats - its statistics
 */
export function backtestJson(outcome: BacktestOutcome, stats: PerformanceStats): BacktestJson {
  return {
    runId: outcome.runId,
    stats: {
      totalReturn: ratio(stats.totalReturn),
      cagr: ratio(stats.cagr),
      maxDrawdown: ratio(stats.maxDrawdown),
      sharpe: ratio(stats.sharpe),
      trades: stats.trades,
      roundTrips: stats.roundTrips,
      wins: stats.wins,
      winRate: ratio(stats.winRate),
      commissions: perCurrency(stats.commissions),
      taxes: perCurrency(stats.taxes),
      refused: outcome.refused,
      halts: outcome.halts,
      startEquity: equityText(stats.startEquity),
      endEquity: equityText(stats.endEquity),
      netProfit: netProfitText(stats.startEquity, stats.endEquity),
      // of the net profit, what the USD/KRW rate's moves made on the USD cash (whole won)
      fxOnUsdCash: equityText(outcome.fxOnUsdCash),
      bars: outcome.bars,
      // each strategy's part (one entry for a run of one); no equity per strategy: the cash is shared
      byStrategy: strategiesJson(outcome.byStrategy),
    },
    trades: outcome.trades.map((t) => ({
      time: iso(t.time),
      strategyId: t.strategyId,
      symbol: t.symbol,
      side: t.side,
      quantity: t.quantity.toFixed(),
      price: t.price.toFixed(),
      currency: t.currency,
      commission: t.commission.toFixed(),
      tax: t.tax.toFixed(),
    })),
    equity: outcome.equity.map((p) => ({ time: iso(p.time), equity: equityText(p.equity) })),
  };
}

/** The statistics that are ratios (numbers in the stored run, decimal strings in `--json`). */
const RATIO_STATS: ReadonlySet<string> = new Set(['totalReturn', 'cagr', 'maxDrawdown', 'sharpe', 'winRate']);
/** The statistics that are KRW (numbers in the stored run, whole won in `--json`). */
const EQUITY_STATS: ReadonlySet<string> = new Set(['startEquity', 'endEquity', 'fxOnUsdCash']);

/**
 * A stored run's statistics as `--json` prints them (`hoga db runs`): the ratios as decimal
 * strings and the equity to the won as `hoga backtest --json` gives them, with the net profit
 * made from them (a run stored before it was reported included), counts as numbers, the rest
 * (money per currency, refusals, halts, a failure) as stored, and each strategy's part as `--json`
 * prints it (a run stored before the parts were has none).
 *
 * @param stats - the run's stored statistics (null while it runs)
 */
export function storedStatsJson(stats: unknown): unknown {
  if (stats === null || typeof stats !== 'object' || Array.isArray(stats)) return stats;
  const stored = stats as Record<string, unknown>;
  const number = (key: string) => (typeof stored[key] === 'number' ? (stored[key] as number) : null);
  const netProfit = netProfitText(number('startEquity'), number('endEquity'));
  return Object.fromEntries(
    Object.entries(stored).flatMap(([key, value]): [string, unknown][] => {
      if (key === 'byStrategy') return [[key, storedStrategiesJson(value)]];
      if (MONEY_STATS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return [[key, byCurrency(value as Record<string, unknown>)]];
      }
      if (typeof value !== 'number') return [[key, value]];
      if (RATIO_STATS.has(key)) return [[key, ratio(value)]];
      if (key === 'endEquity' && netProfit !== null) {
        return [
          [key, equityText(value)],
          ['netProfit', netProfit],
        ];
      }
      if (EQUITY_STATS.has(key)) return [[key, equityText(value)]];
      return [[key, value]];
    }),
  );
}

/**
 * Equity in KRW to the won (the curve is computed in numbers; USD enters through the rate), as
 * `hoga backtest` prints it and `hoga db runs` reads a stored curve back.
 */
export function equityText(value: number): string {
  return Math.round(value).toFixed(0);
}

/**
 * A ratio as a percentage with two decimals (`-1.23 %`; a loss too small for them `0.00 %`), or
 * `none` when it has no value: the reports' digits, and `hoga db runs`' list's.
 */
export function percentText(value: number | null, none = 'n/a'): string {
  return value === null || !Number.isFinite(value) ? none : `${fixed2(value * 100)} %`;
}

/** Two decimals, with no sign on a value they round to zero (-0.00 reads as a loss). */
function fixed2(value: number): string {
  const text = value.toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

function count(value: number | null): string {
  return value === null ? '-' : String(value);
}

/**
 * Money per currency as the tables show it (`1,252 KRW, $23.30`), to the currency's unit (the won,
 * the cent; rounded half up, as the run's status line rounds it: fractional US shares make a PnL of
 * many decimals, before printed whole, `$12,377.59815585`; one that rounds to nothing has no sign);
 * `0` when none was charged. `--json` keeps them exact.
 */
export function money(values: Readonly<Record<string, string>>): string {
  const parts = Object.entries(values)
    .filter(([, v]) => Number(v) !== 0)
    .map(([c, v]) => {
      const rounded = new Decimal(v).toDecimalPlaces(c === 'USD' ? 2 : 0, Decimal.ROUND_HALF_UP);
      const shown = formatMoney(rounded.isZero() ? rounded.abs() : rounded, c);
      return c === 'USD' ? shown : `${shown} ${c}`;
    });
  return parts.length === 0 ? '0' : parts.join(', ');
}

/** Equity in KRW as the report shows it: whole won, grouped (`239,627,000 KRW`). */
function equityKrw(value: number): string {
  return `${groupDecimal(new Decimal(equityText(value)))} KRW`;
}

/** The net profit as the report shows it: whole won, grouped, signed (`-5,080 KRW`); `-` when not known. */
function netProfitKrw(startEquity: number | null, endEquity: number | null): string {
  const net = netProfitText(startEquity, endEquity);
  return net === null ? '-' : `${groupDecimal(new Decimal(net))} KRW`;
}

/**
 * A run's statistics as its reports show them: numbers, null where a ratio has no value (no
 * return to measure, no round trip), and money per currency as decimal strings. Made from a run's
 * {@link PerformanceStats}, or read back from a stored run.
 */
export interface StatsView {
  readonly bars: number | null;
  readonly startEquity: number | null;
  readonly endEquity: number | null;
  /**
   * Of the net profit, what the USD/KRW rate's moves made on the USD cash, KRW; null when not known
   * (a paper or live session, a backtest stored before it was counted): no row then.
   */
  readonly fxOnUsdCash: number | null;
  readonly totalReturn: number | null;
  readonly cagr: number | null;
  readonly maxDrawdown: number | null;
  readonly sharpe: number | null;
  readonly trades: number | null;
  readonly roundTrips: number | null;
  readonly winRate: number | null;
  readonly commissions: Readonly<Record<string, string>>;
  readonly taxes: Readonly<Record<string, string>>;
  /** Orders refused (denied before the venue or rejected by it) by code; null when not known (a run stored before they were counted). */
  readonly refused: Readonly<Record<string, number>> | null;
  /** The daily loss limit's halts by scope (`strategy:<id>`, `account`); null when not known (a run stored before they were counted). */
  readonly halts: Readonly<Record<string, number>> | null;
}

/**
 * Counts by key as a report shows them: `-` when not known, `none`, or the total and each key's
 * count (`3 (code-a 2, code-b 1)`), each key as `name` writes it.
 */
function countsText(
  counts: Readonly<Record<string, number>> | null,
  name: (key: string) => string = (key) => key,
): string {
  if (counts === null) return '-';
  const entries = Object.entries(counts);
  if (entries.length === 0) return 'none';
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return `${total} (${entries.map(([key, n]) => `${name(key)} ${n}`).join(', ')})`;
}

/** Refused orders as a report shows them: `none`, or the total and each code's count (`3 (code-a 2, code-b 1)`). */
export function refusals(refused: Readonly<Record<string, number>> | null): string {
  return countsText(refused);
}

/** Halts as a report shows them: `none`, or the total and each scope's count (`33 (strategy Sma 33)`). */
export function haltCounts(halts: Readonly<Record<string, number>> | null): string {
  return countsText(halts, (scope) => scope.replace(':', ' '));
}

/**
 * The statistics' rows of a report (`hoga backtest`'s, and `hoga db runs --id`'s for a stored run):
 * the same labels and digits in both.
 */
export function statisticsRows(s: StatsView): [string, string][] {
  return [
    ['bars', count(s.bars)],
    ['start equity', s.startEquity === null ? '-' : equityKrw(s.startEquity)],
    ['end equity', s.endEquity === null ? '-' : equityKrw(s.endEquity)],
    ['net profit', netProfitKrw(s.startEquity, s.endEquity)],
    ...(s.fxOnUsdCash === null ? [] : ([['of which FX', equityKrw(s.fxOnUsdCash)]] as [string, string][])),
    ['total return', percentText(s.totalReturn)],
    ['CAGR', percentText(s.cagr)],
    ['max drawdown', percentText(s.maxDrawdown)],
    ['Sharpe ratio', s.sharpe === null || !Number.isFinite(s.sharpe) ? 'n/a' : fixed2(s.sharpe)],
    ['trades (fills)', count(s.trades)],
    ['round trips', count(s.roundTrips)],
    ['win rate', percentText(s.winRate)],
    ['commissions', money(s.commissions)],
    ['taxes', money(s.taxes)],
    ['refused orders', refusals(s.refused)],
    ['risk halts', haltCounts(s.halts)],
  ];
}

/**
 * The report for people.
 *
 * @param outcome - the run
 * @param stats - its statistics
 * @param title - strategy, symbols, interval and range
 * @param storedIn - the database file the run is stored in
 */
export function backtestText(
  outcome: BacktestOutcome,
  stats: PerformanceStats,
  title: string,
  storedIn: string,
): string {
  const rows: [string, string][] = [
    ['run', outcome.runId],
    ['stored in', storedIn],
    ...statisticsRows({
      ...stats,
      fxOnUsdCash: outcome.fxOnUsdCash,
      bars: outcome.bars,
      commissions: perCurrency(stats.commissions),
      taxes: perCurrency(stats.taxes),
      refused: outcome.refused,
      halts: outcome.halts,
    }),
    // a run of several strategies: a row for each one's part (a run of one prints as before)
    ...strategyRows(strategyViews(outcome.byStrategy)),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = [title, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)];
  // where the refused orders' reasons are
  if (Object.keys(outcome.refused).length > 0) {
    lines.push(
      `  (their reasons: hoga db orders --mode backtest --run ${outcome.runId} --state DENIED,REJECTED --db ${storedIn})`,
    );
  }
  return lines.join('\n');
}
