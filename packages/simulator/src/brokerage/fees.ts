import { type Currency, Decimal, type Market } from '@hoga/core';

/** Commission rates per market, as decimal fractions of the traded amount (fee = amount × rate). */
export const COMMISSION_RATES: Readonly<Record<Market, Decimal>> = {
  KR: new Decimal('0.00015'),
  US: new Decimal('0.001'),
};

/** KR securities transaction tax on sells of stocks (not ETFs/ETNs), as a fraction of the amount. */
export const KR_SELL_TAX_RATE = new Decimal('0.0015');

/** Validity window of the KR commission rate as the commissions endpoint shows it. */
export const KR_COMMISSION_PERIOD = { startDate: '2026-01-01', endDate: '2027-12-31' } as const;

/** Decimal places of cash amounts in a currency: KRW whole won, USD cents. */
export function cashPlaces(currency: Currency): number {
  return currency === 'KRW' ? 0 : 2;
}

/** Rounds a cash amount to its currency's precision (half up). */
export function roundCash(currency: Currency, amount: Decimal): Decimal {
  return amount.toDecimalPlaces(cashPlaces(currency), Decimal.ROUND_HALF_UP);
}

/** Rounds a cash amount up to its currency's precision (used for reservations). */
export function ceilCash(currency: Currency, amount: Decimal): Decimal {
  return amount.toDecimalPlaces(cashPlaces(currency), Decimal.ROUND_UP);
}

/**
 * Commission on a traded amount: KR truncated to whole won, US rounded half up
 * to the cent.
 */
export function commissionFor(market: Market, amount: Decimal): Decimal {
  const raw = amount.times(COMMISSION_RATES[market]);
  return market === 'KR'
    ? raw.toDecimalPlaces(0, Decimal.ROUND_DOWN)
    : raw.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Transaction tax on a sell: KR stocks only (ETFs/ETNs and US are exempt), truncated to whole won. */
export function sellTaxFor(market: Market, securityType: string, amount: Decimal): Decimal {
  if (market !== 'KR' || securityType !== 'STOCK') return new Decimal(0);
  return amount.times(KR_SELL_TAX_RATE).toDecimalPlaces(0, Decimal.ROUND_DOWN);
}

/** The payload of `GET /api/v1/commissions`. */
export function commissionsPayload(): unknown {
  return [
    {
      marketCountry: 'KR',
      commissionRate: COMMISSION_RATES.KR.toFixed(),
      startDate: KR_COMMISSION_PERIOD.startDate,
      endDate: KR_COMMISSION_PERIOD.endDate,
    },
    { marketCountry: 'US', commissionRate: COMMISSION_RATES.US.toFixed(), startDate: null, endDate: null },
  ];
}
