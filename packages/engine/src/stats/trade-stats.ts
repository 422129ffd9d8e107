/**
 * Statistics of a run's fills: the number of trades, round trips and their win rate, commissions
 * and taxes per currency. Money stays `Decimal` (these totals are printed and stored exactly).
 *
 * @module
 */
import { roundCash } from '@hoga/broker-model';
import { Decimal, exactIntOf } from '@hoga/core';

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
  /**
   * Proceeds of sells − cost of buys − commissions − taxes, in the trade currency: each fill's
   * amount rounded to the won or cent as the broker books it, so the PnL is what the cash moved by.
   */
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

/**
 * A fill's amount as the cash moves by it: `quantity × price` rounded half up to the currency (KRW
 * won, USD cent), as the broker books an execution; another currency unrounded.
 */
function amountOf(quantity: Decimal, price: Decimal, currency: string): Decimal {
  const product = quantity.times(price);
  return currency === 'KRW' || currency === 'USD' ? roundCash(currency, product) : product;
}

/** Whether `quantity × price` of an integer quantity may need rounding to the currency (more places than it keeps). */
function mayRound(price: Decimal, currency: string): boolean {
  return price.decimalPlaces() > (currency === 'KRW' ? 0 : currency === 'USD' ? 2 : Number.POSITIVE_INFINITY);
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
      trip.pnl = trip.pnl.minus(amountOf(signed, t.price, t.currency)).minus(charges);
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
    // the fill's amount, the part that closes rounded and the rest opening the next trip
    const closingAmount = amountOf(closing, t.price, t.currency);
    const openingAmount = amountOf(signed, t.price, t.currency).minus(closingAmount);
    trip.pnl = trip.pnl.minus(closingAmount).minus(charges.times(share));
    closed.push({
      symbol: t.symbol,
      currency: t.currency,
      openedAt: trip.openedAt,
      closedAt: t.time,
      pnl: trip.pnl,
    });
    open.set(key, {
      position: after,
      pnl: openingAmount.negated().minus(charges.times(new Decimal(1).minus(share))),
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
  const totals = fastTotals(trades);
  const trips = totals.trips ?? exactTripCounts(trades);
  return {
    trades: trades.length,
    roundTrips: trips.roundTrips,
    wins: trips.wins,
    winRate: trips.roundTrips === 0 ? null : trips.wins / trips.roundTrips,
    commissions: decimalTotals(trades, 'commission', totals.commissions),
    taxes: decimalTotals(trades, 'tax', totals.taxes),
  };
}

/** The number of round trips and of those with a positive PnL. */
interface TripCounts {
  readonly roundTrips: number;
  readonly wins: number;
}

/** What one pass in doubles over a run's fills found (see {@link fastTotals}). */
interface FastTotals {
  /** Null when the doubles did not decide them. */
  readonly trips: TripCounts | null;
  /** Per currency, the sum of its commissions, NaN when not exact in doubles. */
  readonly commissions: Record<string, number>;
  readonly taxes: Record<string, number>;
}

/** Integers of smaller magnitude are exact in a double, and so are their sums below it. */
const EXACT_LIMIT = 2 ** 53;
/**
 * The error of a trip's PnL summed in doubles is at most `terms × magnitude × 2^-53` (each value
 * read from its decimal, each product and each sum rounds once, relative 2^-53); 2^-50 leaves a
 * factor of 8 to spare and covers the decimal computation's own rounding (40 digits) as well.
 */
const ERROR_PER_TERM = 2 ** -50;

/** `x` as a double: `integer` when it is one (core's `exactIntOf`: exact in a double), else the nearest double. */
function toDouble(x: Decimal, integer: number): number {
  return Number.isNaN(integer) ? x.toNumber() : integer;
}

/** An open round trip followed in doubles. */
interface FastTrip {
  position: number;
  pnl: number;
  /** Sum of the magnitudes of the terms of `pnl`: its error bound is proportional to it. */
  magnitude: number;
  terms: number;
  /** Whether every term was an exact integer (then so is `pnl`, while `magnitude` stays below 2^53). */
  exact: boolean;
}

/** Whether a closed trip's PnL is positive; null when its sign is not decided. */
function isWin(trip: FastTrip): boolean | null {
  if (trip.exact && trip.magnitude < EXACT_LIMIT) return trip.pnl > 0;
  const bound = trip.magnitude * (trip.terms + 4) * ERROR_PER_TERM;
  if (trip.pnl > bound) return true;
  if (trip.pnl < -bound) return false;
  return null;
}

/**
 * One pass over a run's fills in doubles: the commissions and taxes per currency, exact while they
 * are integers summing below 2^53 (KRW); and {@link roundTrips}' count and wins, positions exactly
 * (integer quantities only), each trip's PnL with an error bound: exact when every price,
 * commission and tax is an integer, else decided when the PnL is farther from zero than its bound.
 * The trips are null when a quantity is not an integer below 2^53, a price has more places than
 * its currency's cash (its amount is rounded) or a trip's sign is not decided ({@link
 * exactTripCounts} answers then).
 */
function fastTotals(trades: readonly TradeSample[]): FastTotals {
  /** Open trips per strategy, then per symbol. */
  const open = new Map<string, Map<string, FastTrip>>();
  let closed = 0;
  let wins = 0;
  let decided = true;
  const commissions: Record<string, number> = {};
  const taxes: Record<string, number> = {};
  for (const t of trades) {
    const commissionInteger = exactIntOf(t.commission);
    const taxInteger = exactIntOf(t.tax);
    commissions[t.currency] = exactSum(commissions[t.currency], commissionInteger);
    taxes[t.currency] = exactSum(taxes[t.currency], taxInteger);
    if (!decided) continue;
    const quantity = exactIntOf(t.quantity);
    if (Number.isNaN(quantity)) {
      decided = false;
      continue;
    }
    const priceInteger = exactIntOf(t.price);
    // an amount the broker rounds (a sub-dollar price's fourth place): the decimals count it
    if (Number.isNaN(priceInteger) && mayRound(t.price, t.currency)) {
      decided = false;
      continue;
    }
    const price = toDouble(t.price, priceInteger);
    const commission = toDouble(t.commission, commissionInteger);
    const tax = toDouble(t.tax, taxInteger);
    const integral = !Number.isNaN(priceInteger + commissionInteger + taxInteger);
    const signed = t.side === 'BUY' ? quantity : -quantity;
    const charges = commission + tax;
    const strategy = t.strategyId ?? '';
    let book = open.get(strategy);
    if (book === undefined) {
      book = new Map<string, FastTrip>();
      open.set(strategy, book);
    }
    let trip = book.get(t.symbol);
    if (trip === undefined) {
      trip = { position: 0, pnl: 0, magnitude: 0, terms: 0, exact: true };
      book.set(t.symbol, trip);
    }
    const after = trip.position + signed;
    if (Math.abs(after) >= EXACT_LIMIT) {
      decided = false;
      continue;
    }
    const crosses = trip.position !== 0 && after !== 0 && trip.position > 0 !== after > 0;
    if (!crosses) {
      const flow = signed * price;
      trip.pnl = trip.pnl - flow - charges;
      trip.magnitude += Math.abs(flow) + Math.abs(commission) + Math.abs(tax);
      trip.terms += 3;
      trip.exact &&= integral;
      trip.position = after;
      if (after === 0) {
        const win = isWin(trip);
        if (win === null) decided = false;
        closed++;
        if (win) wins++;
        book.delete(t.symbol);
      }
      continue;
    }
    // the fill closes the trip with part of its quantity and opens the next with the rest
    const closing = -trip.position;
    const share = Math.abs(closing) / quantity;
    const closingFlow = closing * price;
    trip.pnl = trip.pnl - closingFlow - charges * share;
    trip.magnitude += Math.abs(closingFlow) + Math.abs(charges);
    trip.terms += 4;
    trip.exact &&= integral && charges === 0;
    const win = isWin(trip);
    if (win === null) decided = false;
    closed++;
    if (win) wins++;
    const openingFlow = -after * price;
    book.set(t.symbol, {
      position: after,
      pnl: openingFlow - charges * (1 - share),
      magnitude: Math.abs(openingFlow) + Math.abs(charges),
      terms: 4,
      exact: integral && charges === 0,
    });
  }
  return { trips: decided ? { roundTrips: closed, wins } : null, commissions, taxes };
}

/** `sum + value` while both are exact integers and the sum stays below 2^53, else NaN. */
function exactSum(sum: number | undefined, value: number): number {
  const next = (sum ?? 0) + value;
  return Math.abs(next) < EXACT_LIMIT ? next : Number.NaN;
}

/** {@link roundTrips}' count and wins, in decimals. */
function exactTripCounts(trades: readonly TradeSample[]): TripCounts {
  const trips = roundTrips(trades);
  return {
    roundTrips: trips.length,
    wins: trips.filter((r) => r.pnl.isPositive() && !r.pnl.isZero()).length,
  };
}

/**
 * A field's totals per currency as decimals: from the exact sums in doubles, summed in decimals
 * for a currency whose sum was not exact; in the order the currencies first appear.
 */
function decimalTotals(
  trades: readonly TradeSample[],
  field: 'commission' | 'tax',
  sums: Record<string, number>,
): Record<string, Decimal> {
  const totals: Record<string, Decimal> = {};
  for (const [currency, sum] of Object.entries(sums)) {
    totals[currency] = Number.isNaN(sum) ? new Decimal(0) : new Decimal(sum);
  }
  for (const [currency, sum] of Object.entries(sums)) {
    if (!Number.isNaN(sum)) continue;
    let total = new Decimal(0);
    for (const t of trades) if (t.currency === currency) total = total.plus(t[field]);
    totals[currency] = total;
  }
  return totals;
}
