/**
 * The broker's charges on a trade: commission per market, and the KR securities transaction tax
 * on sells of stocks.
 *
 * @module
 */
import {
  type Currency,
  Decimal,
  decimalOfNumber,
  exactIntOf,
  type Market,
  type SecurityType,
} from '@hoga/core';
import { cashPlaces, floorDivInt, roundCash } from './cash.js';

/** Commission rates per market, as decimal fractions of the traded amount (fee = amount × rate). */
export const COMMISSION_RATES: Readonly<Record<Market, Decimal>> = {
  KR: new Decimal('0.00015'),
  US: new Decimal('0.001'),
};

/** KR securities transaction tax on sells of stocks (not ETFs/ETNs), as a fraction of the amount. */
export const KR_SELL_TAX_RATE = new Decimal('0.0015');

/** Validity window of the KR commission rate, as the commissions endpoint shows it (US: none). */
export const KR_COMMISSION_PERIOD = { startDate: '2026-01-01', endDate: '2027-12-31' } as const;

const MARKET_OF_CURRENCY: Readonly<Record<Currency, Market>> = { KRW: 'KR', USD: 'US' };

/** The market whose trades settle in a currency (KRW → KR, USD → US). */
export function marketOfCurrency(currency: Currency): Market {
  return MARKET_OF_CURRENCY[currency];
}

/**
 * The commission rate on trades in a currency (its market's rate): the rate a reservation and the
 * affordable quantity of a buy add on top of the price.
 */
export function commissionRateFor(currency: Currency): Decimal {
  return COMMISSION_RATES[marketOfCurrency(currency)];
}

/**
 * Commission on a traded amount (already rounded to the currency): KR truncated to whole won, US
 * rounded half up to the cent.
 *
 * @example
 * ```ts
 * commissionFor('KR', new Decimal(719000)); // 107 (107.85 truncated)
 * commissionFor('US', new Decimal('555.75')); // 0.56
 * ```
 */
export function commissionFor(market: Market, amount: Decimal): Decimal {
  const raw = amount.times(COMMISSION_RATES[market]);
  return market === 'KR'
    ? raw.toDecimalPlaces(0, Decimal.ROUND_DOWN)
    : raw.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/**
 * Transaction tax on a sell: KR stocks only (ETFs/ETNs and US are exempt), truncated to whole won.
 * Buys pay none; callers pass only sells.
 */
export function sellTaxFor(market: Market, securityType: SecurityType, amount: Decimal): Decimal {
  if (market !== 'KR' || securityType !== 'STOCK') return new Decimal(0);
  return amount.times(KR_SELL_TAX_RATE).toDecimalPlaces(0, Decimal.ROUND_DOWN);
}

/** What a trade is charged, all rounded as the broker books them. */
export interface TradeCharges {
  /** Traded amount: quantity × price rounded half up to the currency. */
  readonly amount: Decimal;
  /** Commission on the amount ({@link commissionFor}). */
  readonly commission: Decimal;
  /** Transaction tax ({@link sellTaxFor} on sells; 0 on buys). */
  readonly tax: Decimal;
}

/** What {@link tradeCharges} looks at. */
export interface TradeChargesInput {
  readonly market: Market;
  readonly currency: Currency;
  readonly securityType: SecurityType;
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Decimal;
  readonly price: Decimal;
}

/**
 * The amount, commission and tax of one execution: the amount is rounded to the currency first,
 * and the charges are computed on that rounded amount.
 */
export function tradeCharges(input: TradeChargesInput): TradeCharges {
  return tradeChargesInt(input) ?? tradeChargesDecimal(input);
}

function tradeChargesDecimal(input: TradeChargesInput): TradeCharges {
  const amount = roundCash(input.currency, input.quantity.times(input.price));
  const commission = commissionFor(input.market, amount);
  const tax = input.side === 'SELL' ? sellTaxFor(input.market, input.securityType, amount) : new Decimal(0);
  return { amount, commission, tax };
}

/** A rate `n / d` with integers (`d` a power of ten), for truncating charges in whole units. */
interface IntRate {
  readonly numerator: number;
  readonly denominator: number;
}

function intRate(rate: Decimal): IntRate {
  const denominator = 10 ** rate.decimalPlaces();
  return { numerator: rate.times(denominator).toNumber(), denominator };
}

const ZERO = new Decimal(0);
const KR_COMMISSION_INT = intRate(COMMISSION_RATES.KR);
const KR_SELL_TAX_INT = intRate(KR_SELL_TAX_RATE);

/** ⌊amount × rate⌋ in numbers, exact (NaN when amount × numerator is not a safe integer). */
function truncatedCharge(amount: number, rate: IntRate): number {
  return floorDivInt(amount * rate.numerator, rate.denominator);
}

/**
 * {@link tradeCharges} in numbers, for the common KR case: a whole-won price times a whole number
 * of shares is a whole-won amount (no rounding), and the commission and the tax, both truncated to
 * whole won ({@link commissionFor}, {@link sellTaxFor}), are integer quotients. Null when any figure
 * is not a safe integer, or the market rounds otherwise (the Decimal path answers then).
 */
function tradeChargesInt(input: TradeChargesInput): TradeCharges | null {
  if (input.market !== 'KR' || cashPlaces(input.currency) !== 0) return null;
  const quantity = exactIntOf(input.quantity);
  const price = exactIntOf(input.price);
  // NaN fails both tests
  if (!(quantity >= 0 && price >= 0)) return null;
  const amount = quantity * price;
  if (!Number.isSafeInteger(amount)) return null;
  const commission = truncatedCharge(amount, KR_COMMISSION_INT);
  const tax =
    input.side === 'SELL' && input.securityType === 'STOCK' ? truncatedCharge(amount, KR_SELL_TAX_INT) : 0;
  if (Number.isNaN(commission) || Number.isNaN(tax)) return null;
  // buys and exempt sells pay no tax: one shared 0 (a Decimal never changes)
  return {
    amount: decimalOfNumber(amount),
    commission: decimalOfNumber(commission),
    tax: tax === 0 ? ZERO : decimalOfNumber(tax),
  };
}
