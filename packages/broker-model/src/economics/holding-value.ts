/**
 * A holding valued the way the broker's holdings report values it: at the last price, with what a
 * sale now would cost, its profit and its change since the previous close.
 *
 * @module
 */
import { type Currency, Decimal, type Market, type SecurityType } from '@hoga/core';
import { roundCash } from './cash.js';
import { commissionFor, sellTaxFor } from './fees.js';

/** Decimal places of the report's rates (profit rate, daily rate), rounded half up. */
export const REPORT_RATE_PLACES = 4;

/** What valuing a holding looks at. */
export interface HoldingValueInput {
  readonly market: Market;
  readonly currency: Currency;
  readonly securityType: SecurityType;
  readonly quantity: Decimal;
  readonly averagePrice: Decimal;
  readonly lastPrice: Decimal;
  /** The previous close (reference price of the trading day). */
  readonly referencePrice: Decimal;
}

/** A valued holding; every amount is rounded to the currency. */
export interface HoldingValue {
  /** quantity × average purchase price. */
  readonly purchaseAmount: Decimal;
  /** quantity × last price. */
  readonly amount: Decimal;
  /** Commission a sale of the whole holding now would pay. */
  readonly commission: Decimal;
  /** Tax that sale would pay: KR stocks only; null where no tax applies (US, KR ETFs/ETNs). */
  readonly tax: Decimal | null;
  /** amount − commission − tax. */
  readonly amountAfterCost: Decimal;
  /** amount − purchaseAmount. */
  readonly profit: Decimal;
  /** amountAfterCost − purchaseAmount. */
  readonly profitAfterCost: Decimal;
  /** quantity × reference price. */
  readonly previousAmount: Decimal;
  /** amount − previousAmount. */
  readonly dailyProfit: Decimal;
}

/**
 * Values a holding at the last price, with the cost of selling it now (commission, and the KR
 * sell tax), its profit over the purchase amount and its change since the previous close.
 */
export function valueHolding(input: HoldingValueInput): HoldingValue {
  const { currency, market, quantity } = input;
  const purchaseAmount = roundCash(currency, quantity.times(input.averagePrice));
  const amount = roundCash(currency, quantity.times(input.lastPrice));
  const commission = commissionFor(market, amount);
  // the reference's Cost.tax: "null when there is no tax" (US, and the exempt KR ETFs/ETNs)
  const taxed = market === 'KR' && input.securityType === 'STOCK';
  const tax = taxed ? sellTaxFor(market, input.securityType, amount) : null;
  const amountAfterCost = amount.minus(commission).minus(tax ?? 0);
  const previousAmount = roundCash(currency, quantity.times(input.referencePrice));
  return {
    purchaseAmount,
    amount,
    commission,
    tax,
    amountAfterCost,
    profit: amount.minus(purchaseAmount),
    profitAfterCost: amountAfterCost.minus(purchaseAmount),
    previousAmount,
    dailyProfit: amount.minus(previousAmount),
  };
}

/** A report rate: numerator ÷ denominator to 4 places half up, and 0 over a zero denominator. */
export function reportRate(numerator: Decimal, denominator: Decimal): Decimal {
  if (denominator.isZero()) return new Decimal(0);
  return numerator.dividedBy(denominator).toDecimalPlaces(REPORT_RATE_PLACES, Decimal.ROUND_HALF_UP);
}
