/**
 * Each strategy's part of a backtest of several (`stats.byStrategy`): as `--json` prints it, as a
 * stored run gives it back (`hoga db runs --id`), and as the reports' rows (only for a run of more
 * than one strategy: a run of one prints as it always did).
 *
 * @module
 */
import type { StrategyStats } from '@hoga/engine';
import { money, perCurrency, percentText, ratio } from './backtest-report.js';

/** One strategy's part as `--json` prints it (`stats.byStrategy[]`): money per currency as decimal strings. */
export interface StrategyJson {
  readonly strategyId: string;
  readonly trades: number;
  readonly roundTrips: number;
  readonly wins: number;
  /** A decimal string; null when no round trip closed. */
  readonly winRate: string | null;
  /** Before commissions and taxes. */
  readonly realizedPnl: Record<string, string>;
  /** Of the positions the strategy holds at the end, at the last prices. */
  readonly unrealizedPnl: Record<string, string>;
  readonly commissions: Record<string, string>;
  readonly taxes: Record<string, string>;
}

/** The parts of a run as `--json` prints them, in the order the strategies were given. */
export function strategiesJson(parts: readonly StrategyStats[]): StrategyJson[] {
  return parts.map((p) => ({
    strategyId: p.strategyId,
    trades: p.trades,
    roundTrips: p.roundTrips,
    wins: p.wins,
    winRate: ratio(p.winRate),
    realizedPnl: perCurrency(p.realizedPnl),
    unrealizedPnl: perCurrency(p.unrealizedPnl),
    commissions: perCurrency(p.commissions),
    taxes: perCurrency(p.taxes),
  }));
}

/**
 * A stored run's parts as `--json` prints them: each win rate (stored as a number) as a decimal
 * string, the rest as stored; a value that is not a list is given back as it is.
 */
export function storedStrategiesJson(stored: unknown): unknown {
  if (!Array.isArray(stored)) return stored;
  return stored.map((part: unknown) => {
    if (part === null || typeof part !== 'object') return part;
    const p = part as Record<string, unknown>;
    return typeof p.winRate === 'number' ? { ...p, winRate: ratio(p.winRate) } : p;
  });
}

/** One strategy's part as the reports show it. */
export interface StrategyView {
  readonly strategyId: string;
  readonly trades: number | null;
  readonly roundTrips: number | null;
  readonly winRate: number | null;
  readonly realizedPnl: Readonly<Record<string, string>>;
  /** Null for a run stored before it was kept. */
  readonly unrealizedPnl: Readonly<Record<string, string>> | null;
  readonly commissions: Readonly<Record<string, string>>;
  readonly taxes: Readonly<Record<string, string>>;
}

/** A run's parts as the reports show them. */
export function strategyViews(parts: readonly StrategyStats[]): StrategyView[] {
  return parts.map((p) => ({
    ...p,
    realizedPnl: perCurrency(p.realizedPnl),
    unrealizedPnl: perCurrency(p.unrealizedPnl),
    commissions: perCurrency(p.commissions),
    taxes: perCurrency(p.taxes),
  }));
}

/**
 * A stored run's parts as the reports show them (a field missing or of another type: none; an
 * entry without a strategy id is left out); none for a run stored before they were.
 */
export function storedStrategyViews(stored: unknown): StrategyView[] {
  if (!Array.isArray(stored)) return [];
  const views: StrategyView[] = [];
  for (const part of stored as unknown[]) {
    if (part === null || typeof part !== 'object') continue;
    const p = part as Record<string, unknown>;
    if (typeof p.strategyId !== 'string') continue;
    const num = (key: string): number | null => {
      const v = p[key];
      const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : Number.NaN;
      return Number.isNaN(n) ? null : n;
    };
    const amounts = (key: string): Record<string, string> => {
      const v = p[key];
      if (v === null || typeof v !== 'object') return {};
      return Object.fromEntries(
        Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
    };
    views.push({
      strategyId: p.strategyId,
      trades: num('trades'),
      roundTrips: num('roundTrips'),
      winRate: num('winRate'),
      realizedPnl: amounts('realizedPnl'),
      unrealizedPnl: p.unrealizedPnl === undefined ? null : amounts('unrealizedPnl'),
      commissions: amounts('commissions'),
      taxes: amounts('taxes'),
    });
  }
  return views;
}

function counted(n: number | null, what: string): string {
  return n === null ? `- ${what}s` : `${n} ${what}${n === 1 ? '' : 's'}`;
}

/**
 * The reports' rows of a run's parts, one per strategy (`strategy KR  5 trades, 1 round trip, win
 * rate 100.00 %, realized PnL 7,000 KRW before charges, unrealized 2,100 KRW, commissions 265 KRW,
 * taxes 1,220 KRW`; a run stored before the unrealized PnL was kept has none);
 * none for a run of one strategy (its statistics are the run's).
 */
export function strategyRows(parts: readonly StrategyView[]): [string, string][] {
  if (parts.length < 2) return [];
  return parts.map((p) => [
    `strategy ${p.strategyId}`,
    [
      counted(p.trades, 'trade'),
      counted(p.roundTrips, 'round trip'),
      `win rate ${percentText(p.winRate)}`,
      `realized PnL ${money(p.realizedPnl)} before charges`,
      ...(p.unrealizedPnl === null ? [] : [`unrealized ${money(p.unrealizedPnl)}`]),
      `commissions ${money(p.commissions)}`,
      `taxes ${money(p.taxes)}`,
    ].join(', '),
  ]);
}
