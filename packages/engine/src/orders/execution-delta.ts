/**
 * Fills from cumulative execution. The broker reports, per order, the totals so far (quantity,
 * amount, commission, tax); a fill is the increase of those totals since the last report that was
 * counted. Pure functions: the order manager stores the totals and applies the delta in one
 * transaction, so the same report counted twice (a repeated poll, a restart, a re-subscription)
 * yields no second fill.
 *
 * @module
 */
import { Decimal } from '@hoga/core';

/** The cumulative execution of one broker order. */
export interface CumulativeExecution {
  readonly filledQuantity: Decimal;
  readonly filledAmount: Decimal;
  readonly commission: Decimal;
  readonly tax: Decimal;
}

/** The execution of a broker order before any fill. */
export const NO_EXECUTION: CumulativeExecution = {
  filledQuantity: new Decimal(0),
  filledAmount: new Decimal(0),
  commission: new Decimal(0),
  tax: new Decimal(0),
};

/** One fill derived from two cumulative reports. */
export interface ExecutionDelta {
  readonly quantity: Decimal;
  readonly amount: Decimal;
  /** `amount / quantity` (see {@link fillPrice}). */
  readonly price: Decimal;
  readonly commission: Decimal;
  readonly tax: Decimal;
  /** The totals after this fill (what is stored next). */
  readonly after: CumulativeExecution;
}

/** What a broker report holds (null fields before the first fill). */
export interface ReportedExecution {
  readonly filledQuantity: Decimal;
  readonly filledAmount: Decimal | null;
  readonly averageFilledPrice: Decimal | null;
  readonly commission: Decimal | null;
  readonly tax: Decimal | null;
}

/**
 * The cumulative totals a report states. `filledAmount` missing while something filled is taken
 * as quantity × average price.
 *
 * @param report - the order record's `execution`
 */
export function cumulativeOf(report: ReportedExecution): CumulativeExecution {
  const amount =
    report.filledAmount ??
    (report.averageFilledPrice === null
      ? new Decimal(0)
      : report.filledQuantity.times(report.averageFilledPrice));
  return {
    filledQuantity: report.filledQuantity,
    filledAmount: amount,
    commission: report.commission ?? new Decimal(0),
    tax: report.tax ?? new Decimal(0),
  };
}

/**
 * The fill between the stored totals and a newer report, or null when the report adds no
 * quantity (a repeated or stale report: lists can lag behind the detail, so a report with less
 * than what was counted is never a negative fill).
 *
 * @param counted - the totals already counted
 * @param reported - the totals the broker reports now
 */
export function executionDelta(
  counted: CumulativeExecution,
  reported: CumulativeExecution,
): ExecutionDelta | null {
  const quantity = reported.filledQuantity.minus(counted.filledQuantity);
  if (quantity.lte(0)) return null;
  const amount = reported.filledAmount.minus(counted.filledAmount);
  return {
    quantity,
    amount,
    price: fillPrice(amount, quantity),
    commission: notNegative(reported.commission.minus(counted.commission)),
    tax: notNegative(reported.tax.minus(counted.tax)),
    after: reported,
  };
}

const ZERO = new Decimal(0);

/**
 * A fill's price: `amount / quantity`. The broker rounds an amount to the cent (KRW: the won), so
 * the quotient of an amount order's fill or a fractional quantity often does not end (500.00 USD
 * for 2.20274 shares is 226.990021518654039968…); the price is then the quotient with the fewest
 * decimal places (2, 4, … 20) whose product with the quantity, rounded to the cent, is the amount
 * again (226.99), so books that recompute the amount as quantity × price find the broker's. An
 * exact quotient of at most 20 places is kept as it is.
 */
export function fillPrice(amount: Decimal, quantity: Decimal): Decimal {
  const exact = amount.div(quantity);
  if (exact.decimalPlaces() <= 2) return exact;
  const places = Math.max(2, amount.decimalPlaces());
  for (let dp = 2; dp <= 20; dp += 2) {
    const price = exact.toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
    if (price.times(quantity).toDecimalPlaces(places, Decimal.ROUND_HALF_UP).eq(amount)) return price;
  }
  return exact;
}

/** `max(0, d)` without building a `Decimal` for the 0 each time. */
function notNegative(d: Decimal): Decimal {
  return d.isNegative() ? ZERO : d;
}
