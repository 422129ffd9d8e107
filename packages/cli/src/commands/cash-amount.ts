/**
 * Starting cash as `hoga backtest` and `hoga run` take it (`--cash`, `--cash-krw`, `--cash-usd`):
 * one rule for both, so that a budget moves from one command line to the other unchanged.
 *
 * @module
 */
import { type Currency, Decimal } from '@hoga/core';

/**
 * Cash amounts as the broker keeps them: whole won, dollars to the cent; and at most what the
 * equity curve, kept in doubles (KRW, USD at the rate), counts to the won: 10^14 won and 10^11
 * dollars, a start of 2.5 × 10^14 KRW at most at 1,500 KRW a dollar, where a double's step is
 * 1/32 won (before: 10^20 won ran, and a share bought left the curve and the net profit unchanged).
 */
const CASH_AMOUNT: Readonly<
  Record<Currency, { readonly pattern: RegExp; readonly unit: string; readonly max: Decimal }>
> = {
  KRW: { pattern: /^\d+$/, unit: 'whole won', max: new Decimal('1e14') },
  USD: { pattern: /^\d+(\.\d{1,2})?$/, unit: 'dollars to the cent', max: new Decimal('1e11') },
};

/**
 * What is wrong with `amount` as a starting cash of `currency`, to follow the flag's name
 * (`"1.5" is not a non-negative amount in whole won`), or null when it is one.
 */
export function cashAmountProblem(currency: Currency, amount: string): string | null {
  const { pattern, unit, max } = CASH_AMOUNT[currency];
  if (!pattern.test(amount)) return `"${amount}" is not a non-negative amount in ${unit}`;
  if (new Decimal(amount).greaterThan(max)) {
    return `${amount} is more than ${groupThousands(max)} (the equity curve counts to the won below it)`;
  }
  return null;
}

/** A whole amount with its thousands grouped (`100,000,000,000`). */
function groupThousands(value: Decimal): string {
  return value.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
