/**
 * An amount of money in one currency.
 *
 * @module
 */
import { ValidationError } from '../errors.js';
import { Decimal, formatDecimal } from './decimal.js';

/** The currencies the broker trades in. */
export const Currency = { KRW: 'KRW', USD: 'USD' } as const;
/** A currency code: `KRW` or `USD`. */
export type Currency = (typeof Currency)[keyof typeof Currency];

/**
 * Checks that a value is a known {@link Currency}.
 *
 * @param value - any value
 * @returns whether it is `KRW` or `USD`
 */
export function isCurrency(value: unknown): value is Currency {
  return value === Currency.KRW || value === Currency.USD;
}

/** Raised when two amounts in different currencies are combined (code `currency-mismatch`). */
export class CurrencyMismatchError extends ValidationError {
  /**
   * @param left - currency of the receiver
   * @param right - currency of the argument
   */
  constructor(left: Currency, right: Currency) {
    super(
      'currency',
      `money: expected ${left}, found ${right}`,
      { details: { left, right } },
      'currency-mismatch',
    );
  }
}

/**
 * Immutable amount of money with its currency.
 *
 * @example
 * ```ts
 * const fee = Money.of('1500', 'KRW').plus(Money.of('20', 'KRW')); // 1520 KRW
 * ```
 */
export class Money {
  /** The amount. */
  readonly amount: Decimal;
  /** The currency of the amount. */
  readonly currency: Currency;

  private constructor(amount: Decimal, currency: Currency) {
    this.amount = amount;
    this.currency = currency;
    Object.freeze(this);
  }

  /**
   * Creates an amount.
   *
   * @param amount - a `Decimal`, or a decimal string (strictly parsed)
   * @param currency - `KRW` or `USD`
   * @throws {@link ValidationError} when the currency is unknown or the amount not a decimal
   */
  static of(amount: Decimal | string, currency: Currency): Money {
    if (!isCurrency(currency)) {
      throw new ValidationError('currency', `money: expected KRW or USD, found ${String(currency)}`);
    }
    const value = typeof amount === 'string' ? new Decimal(strictAmount(amount)) : amount;
    if (!(value instanceof Decimal) || !value.isFinite()) {
      throw new ValidationError('amount', 'money: expected a finite Decimal amount');
    }
    return new Money(value, currency);
  }

  /**
   * Zero in a currency.
   *
   * @param currency - the currency
   */
  static zero(currency: Currency): Money {
    return new Money(new Decimal(0), currency);
  }

  /**
   * Sum of two amounts.
   *
   * @throws {@link CurrencyMismatchError} when currencies differ
   */
  plus(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.amount.plus(other.amount), this.currency);
  }

  /**
   * Difference of two amounts.
   *
   * @throws {@link CurrencyMismatchError} when currencies differ
   */
  minus(other: Money): Money {
    this.assertSameCurrency(other);
    return new Money(this.amount.minus(other.amount), this.currency);
  }

  /**
   * Multiplies the amount by a factor (a quantity, a rate).
   *
   * @param factor - a `Decimal` or a decimal string
   */
  times(factor: Decimal | string): Money {
    const f = typeof factor === 'string' ? new Decimal(strictAmount(factor)) : factor;
    return new Money(this.amount.times(f), this.currency);
  }

  /** Negated amount. */
  negated(): Money {
    return new Money(this.amount.negated(), this.currency);
  }

  /** Whether both amount and currency are equal. */
  equals(other: Money): boolean {
    return this.currency === other.currency && this.amount.equals(other.amount);
  }

  /** Whether the amount is zero. */
  isZero(): boolean {
    return this.amount.isZero();
  }

  /** Whether the amount is below zero. */
  isNegative(): boolean {
    return this.amount.isNegative() && !this.amount.isZero();
  }

  /** `"<amount> <currency>"`, e.g. `"1520 KRW"`. */
  toString(): string {
    return `${formatDecimal(this.amount)} ${this.currency}`;
  }

  /** JSON form: `{amount: string, currency}`. */
  toJSON(): { amount: string; currency: Currency } {
    return { amount: formatDecimal(this.amount), currency: this.currency };
  }

  private assertSameCurrency(other: Money): void {
    if (other.currency !== this.currency) throw new CurrencyMismatchError(this.currency, other.currency);
  }
}

function strictAmount(value: string): string {
  if (!/^-?\d+(?:\.\d+)?$/.test(value)) {
    throw new ValidationError('amount', `money: expected a decimal string, found ${JSON.stringify(value)}`);
  }
  return value;
}
