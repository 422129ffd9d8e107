/**
 * What open orders hold back: cash for buys, shares for sells; and so the cash buying power and
 * the sellable quantity the broker reports.
 *
 * @module
 */
import { type Currency, Decimal, decimalOfNumber, exactIntOf, type OrderSide } from '@hoga/core';
import { cashPlaces, ceilCash, ceilDivInt, floorCash } from './cash.js';
import { commissionRateFor } from './fees.js';

/** Decimal places of a fractional share (the broker trades to 1e-6 shares). */
export const SHARE_PLACES = 6;

/** What a reservation looks at of one open (working) order. */
export interface ReservingOrder {
  readonly symbol: string;
  readonly currency: Currency;
  readonly side: OrderSide;
  /** The limit price; null for market orders (reserved at `reservePrice`). */
  readonly price: Decimal | null;
  /** The ordered quantity (ignored for amount orders). */
  readonly quantity: Decimal | null;
  /** The ordered amount of an amount order; null otherwise. */
  readonly orderAmount: Decimal | null;
  readonly filledQuantity: Decimal;
  /** Value filled so far (sum of the rounded traded amounts). */
  readonly filledAmount: Decimal;
  /**
   * The price a market buy reserves cash at and an amount sell reserves shares at, fixed when the
   * order was accepted (the limit price for limit orders).
   */
  readonly reservePrice: Decimal;
}

const ZERO = new Decimal(0);

/**
 * Cash an open buy holds back: its unfilled quantity at its limit price (market orders: at the
 * reserve price; amount orders: the unfilled amount), plus the commission on it, rounded up to
 * the currency. 0 for sells. The caller passes only open orders.
 */
export function reservedCash(order: ReservingOrder): Decimal {
  if (order.side !== 'BUY') return ZERO;
  const exact = reservedCashInt(order);
  if (!Number.isNaN(exact)) return decimalOfNumber(exact);
  const gross =
    order.orderAmount !== null
      ? Decimal.max(0, order.orderAmount.minus(order.filledAmount))
      : (order.quantity ?? ZERO).minus(order.filledQuantity).times(order.price ?? order.reservePrice);
  return buyReservation(order.currency, gross);
}

/**
 * The cash the broker holds back for a buy worth `gross` (its quantity at its price, or its
 * amount): the gross plus the commission on it, rounded up to the currency, as {@link reservedCash}
 * reserves an open buy's unfilled part.
 *
 * @example
 * ```ts
 * buyReservation('KRW', new Decimal(4_970_000)); // 4,970,746 (745.5 commission, rounded up)
 * ```
 */
export function buyReservation(currency: Currency, gross: Decimal): Decimal {
  return ceilCash(currency, gross.times(withCommission(currency)));
}

/**
 * {@link reservedCash} of a buy in numbers, for whole-unit currencies (KRW) with integer figures:
 * the gross is an integer, and gross × (1 + rate) rounded up is an integer quotient. NaN when a
 * figure is not a safe integer or the gross is negative (the Decimal path answers then).
 */
function reservedCashInt(order: ReservingOrder): number {
  if (cashPlaces(order.currency) !== 0) return Number.NaN;
  let gross: number;
  if (order.orderAmount !== null) {
    gross = Math.max(0, exactIntOf(order.orderAmount) - exactIntOf(order.filledAmount));
  } else {
    const left =
      (order.quantity === null ? 0 : exactIntOf(order.quantity)) - exactIntOf(order.filledQuantity);
    gross = left * exactIntOf(order.price ?? order.reservePrice);
  }
  const factor = withCommissionInt(order.currency);
  return ceilDivInt(gross * factor.numerator, factor.denominator);
}

const WITH_COMMISSION_INT: Partial<Record<Currency, { numerator: number; denominator: number }>> = {};

/** 1 + the commission rate of a currency's market as an integer ratio (computed once per currency). */
function withCommissionInt(currency: Currency): { numerator: number; denominator: number } {
  let factor = WITH_COMMISSION_INT[currency];
  if (factor === undefined) {
    const rate = withCommission(currency);
    const denominator = 10 ** rate.decimalPlaces();
    factor = { numerator: rate.times(denominator).toNumber(), denominator };
    WITH_COMMISSION_INT[currency] = factor;
  }
  return factor;
}

const WITH_COMMISSION: Partial<Record<Currency, Decimal>> = {};

/** 1 + the commission rate of a currency's market (computed once per currency). */
function withCommission(currency: Currency): Decimal {
  let factor = WITH_COMMISSION[currency];
  if (factor === undefined) {
    factor = commissionRateFor(currency).plus(1);
    WITH_COMMISSION[currency] = factor;
  }
  return factor;
}

/**
 * Shares an open sell holds back: its unfilled quantity (amount sells: the unfilled amount at the
 * reserve price, rounded up to 1e-6 shares). 0 for buys. The caller passes only open orders.
 */
export function reservedShares(order: ReservingOrder): Decimal {
  if (order.side !== 'SELL') return ZERO;
  if (order.orderAmount !== null) {
    return Decimal.max(0, order.orderAmount.minus(order.filledAmount))
      .dividedBy(order.reservePrice)
      .toDecimalPlaces(SHARE_PLACES, Decimal.ROUND_UP);
  }
  if (order.filledQuantity.isZero()) return order.quantity ?? ZERO;
  return (order.quantity ?? ZERO).minus(order.filledQuantity);
}

/** Total cash the open orders in `currency` hold back. */
export function totalReservedCash(openOrders: readonly ReservingOrder[], currency: Currency): Decimal {
  return openOrders
    .filter((o) => o.currency === currency)
    .reduce((sum, o) => sum.plus(reservedCash(o)), ZERO);
}

/** Total shares of `symbol` the open orders hold back. */
export function totalReservedShares(openOrders: readonly ReservingOrder[], symbol: string): Decimal {
  return openOrders.filter((o) => o.symbol === symbol).reduce((sum, o) => sum.plus(reservedShares(o)), ZERO);
}

/**
 * Cash buying power in a currency: the cash held minus what the open orders hold back, never
 * below 0, rounded down to the currency.
 *
 * @param cash - cash held in `currency`
 * @param openOrders - the account's open orders (any currency; others are ignored)
 */
export function cashBuyingPower(
  cash: Decimal,
  openOrders: readonly ReservingOrder[],
  currency: Currency,
): Decimal {
  return floorCash(currency, Decimal.max(0, cash.minus(totalReservedCash(openOrders, currency))));
}

/**
 * Sellable quantity of a symbol: the quantity held minus what the open sells hold back, never
 * below 0.
 *
 * @param held - quantity held of `symbol`
 * @param openOrders - the account's open orders (any symbol; others are ignored)
 */
export function sellableQuantity(
  held: Decimal,
  openOrders: readonly ReservingOrder[],
  symbol: string,
): Decimal {
  return Decimal.max(0, held.minus(totalReservedShares(openOrders, symbol)));
}
