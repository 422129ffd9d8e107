/**
 * Statistics of a run's fills: the number of trades, round trips and their win rate, commissions
 * and taxes per currency. Money stays `Decimal` (these totals are printed and stored exactly).
 *
 * @module
 */
import { Decimal } from '@hoga/core';

/** What the statistics read of a fill (structurally the backtest's trade record). */
export interface TradeSample {
  /** Epoch ms. */
  readonly time: number;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** The trade's currency (`KRW`, `USD`). */
  readonly currency: string;
  readonly commission: Decimal;
  readonly tax: Decimal;
  /** Trades of different strategies never share a round trip (default: all one book). */
  readonly strategyId?: string;
}

/** One closed round trip: from a flat position back to flat, in one symbol. */
export interface RoundTrip {
  readonly symbol: string;
  readonly currency: string;
  readonly openedAt: number;
  readonly closedAt: number;
  /** Proceeds of sells − cost of buys − commissions − taxes, in the trade currency. */
  readonly pnl: Decimal;
}

/** Totals of a run's fills. */
export interface TradeStats {
  /** Fills. */
  readonly trades: number;
  /** Closed round trips. */
  readonly roundTrips: number;
  /** Round trips with a positive net PnL. */
  readonly wins: number;
  /** `wins / roundTrips`; null when no round trip closed. */
  readonly winRate: number | null;
  /** Commissions per currency. */
  readonly commissions: Readonly<Record<string, Decimal>>;
  /** Taxes per currency. */
  readonly taxes: Readonly<Record<string, Decimal>>;
}

interface OpenTrip {
  position: Decimal;
  pnl: Decimal;
  openedAt: number;
}

/**
 * Round trips of a run: per strategy and symbol, a trip opens when the position leaves zero and
 * closes when it returns to zero; its PnL is net of the commissions and taxes of its fills. A fill
 * that crosses zero (long to short) closes one trip and opens the next with the rest, charges
 * split by quantity.
 *
 * @param trades - fills in time order
 */
export function roundTrips(trades: readonly TradeSample[]): RoundTrip[] {
  const open = new Map<string, OpenTrip>();
  const closed: RoundTrip[] = [];
  for (const t of trades) {
    const key = `${t.strategyId ?? ''}\u0000${t.symbol}`;
    const signed = t.side === 'BUY' ? t.quantity : t.quantity.negated();
    const charges = t.commission.plus(t.tax);
    let trip = open.get(key);
    if (trip === undefined) {
      trip = { position: new Decimal(0), pnl: new Decimal(0), openedAt: t.time };
      open.set(key, trip);
    }
    const after = trip.position.plus(signed);
    const crosses =
      !trip.position.isZero() && !after.isZero() && trip.position.isPositive() !== after.isPositive();
    if (!crosses) {
      trip.pnl = trip.pnl.minus(signed.times(t.price)).minus(charges);
      trip.position = after;
      if (after.isZero()) {
        closed.push({
          symbol: t.symbol,
          currency: t.currency,
          openedAt: trip.openedAt,
          closedAt: t.time,
          pnl: trip.pnl,
        });
        open.delete(key);
      }
      continue;
    }
    const closing = trip.position.negated();
    const share = closing.abs().dividedBy(t.quantity);
    trip.pnl = trip.pnl.minus(closing.times(t.price)).minus(charges.times(share));
    closed.push({
      symbol: t.symbol,
      currency: t.currency,
      openedAt: trip.openedAt,
      closedAt: t.time,
      pnl: trip.pnl,
    });
    open.set(key, {
      position: after,
      pnl: after
        .negated()
        .times(t.price)
        .minus(charges.times(new Decimal(1).minus(share))),
      openedAt: t.time,
    });
  }
  return closed;
}

/**
 * The totals of a run's fills.
 *
 * @param trades - fills in time order
 */
export function tradeStats(trades: readonly TradeSample[]): TradeStats {
  const commissions: Record<string, Decimal> = {};
  const taxes: Record<string, Decimal> = {};
  for (const t of trades) {
    commissions[t.currency] = (commissions[t.currency] ?? new Decimal(0)).plus(t.commission);
    taxes[t.currency] = (taxes[t.currency] ?? new Decimal(0)).plus(t.tax);
  }
  const trips = roundTrips(trades);
  const wins = trips.filter((r) => r.pnl.isPositive() && !r.pnl.isZero()).length;
  return {
    trades: trades.length,
    roundTrips: trips.length,
    wins,
    winRate: trips.length === 0 ? null : wins / trips.length,
    commissions,
    taxes,
  };
}
