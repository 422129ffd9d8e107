/**
 * Each strategy's part of a run that ran several in one engine: its fills, round trips and win
 * rate (counted as the run's are, from its own fills), and the realized PnL, commissions and taxes
 * its books hold, with the unrealized PnL of the positions it still holds at the end. Computed once,
 * at the end of a run (never per bar or per fill). There is no equity curve per strategy.
 *
 * @module
 */
import { Decimal } from '@hoga/core';
import type { CurrencyTotals } from '../portfolio/strategy-book.js';
import { type TradeSample, type TradeStats, tradeStats } from './trade-stats.js';

const ZERO = new Decimal(0);

/**
 * One strategy's statistics in a run: the run's trade statistics of its own fills (its round trips
 * counted as the run's are: per strategy and symbol; its commissions and taxes per currency, its
 * book's), its id and its realized PnL. Ratios are fractions (0.5 = 50 %).
 */
export interface StrategyStats extends TradeStats {
  readonly strategyId: string;
  /** Per currency, its realized PnL before commissions and taxes (its book's, as `ctx.realizedPnl` reads it). */
  readonly realizedPnl: Readonly<Record<string, Decimal>>;
  /**
   * Per currency, the unrealized PnL of the positions it holds at the end, at the last prices (as
   * `ctx.unrealizedPnl` reads it): realized + unrealized − commissions − taxes is what it made.
   */
  readonly unrealizedPnl: Readonly<Record<string, Decimal>>;
}

/** A strategy's money in a currency: its book's totals and, at the end, its positions' unrealized PnL. */
export type StrategyMoney = CurrencyTotals & { readonly unrealizedPnl?: Decimal };

/**
 * Each strategy's statistics, in the order of `strategyIds`: counts from its own fills, money from
 * its book, in each of `currencies` (the run's: zero where the strategy traded none).
 *
 * @param strategyIds - the run's strategies, in the order they were given
 * @param trades - the run's fills in time order (each with its strategy's id)
 * @param currencies - the currencies to give the money in
 * @param totalsOf - a strategy's book totals in a currency, with its unrealized PnL (none: zero)
 * @param runStats - the run's trade statistics, when made: a run of one strategy whose fills are
 *   all its own reuses them rather than counting its fills again
 */
export function strategyStats(
  strategyIds: readonly string[],
  trades: readonly TradeSample[],
  currencies: readonly string[],
  totalsOf: (strategyId: string, currency: string) => StrategyMoney,
  runStats?: TradeStats,
): StrategyStats[] {
  const only = strategyIds.length === 1 ? strategyIds[0] : undefined;
  const allOwn =
    only !== undefined && runStats !== undefined && trades.every((t) => (t.strategyId ?? '') === only);
  const byStrategy = new Map<string, TradeSample[]>(strategyIds.map((id) => [id, []]));
  if (!allOwn) for (const t of trades) byStrategy.get(t.strategyId ?? '')?.push(t);
  return strategyIds.map((strategyId) => {
    const own = allOwn && runStats !== undefined ? runStats : tradeStats(byStrategy.get(strategyId) ?? []);
    const realizedPnl: Record<string, Decimal> = {};
    const unrealizedPnl: Record<string, Decimal> = {};
    const commissions: Record<string, Decimal> = {};
    const taxes: Record<string, Decimal> = {};
    for (const currency of currencies) {
      const totals = totalsOf(strategyId, currency);
      realizedPnl[currency] = totals.realizedPnl;
      unrealizedPnl[currency] = totals.unrealizedPnl ?? ZERO;
      commissions[currency] = totals.commissions;
      taxes[currency] = totals.taxes;
    }
    return {
      strategyId,
      trades: own.trades,
      roundTrips: own.roundTrips,
      wins: own.wins,
      winRate: own.winRate,
      realizedPnl,
      unrealizedPnl,
      commissions,
      taxes,
    };
  });
}
