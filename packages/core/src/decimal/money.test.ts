import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { Decimal } from './decimal.js';
import { CurrencyMismatchError, Money } from './money.js';

describe('Money', () => {
  describe('.of', () => {
    it('keeps the amount and currency when given a decimal string', () => {
      const m = Money.of('1500.5', 'USD');
      expect(m.amount.toFixed()).toBe('1500.5');
      expect(m.currency).toBe('USD');
    });

    it('accepts a Decimal', () => {
      expect(Money.of(new Decimal('0.1'), 'KRW').toString()).toBe('0.1 KRW');
    });

    it.each([['1e3'], [''], ['abc']])('throws a ValidationError when the amount string is %j', (amount) => {
      expect(() => Money.of(amount, 'KRW')).toThrow(ValidationError);
    });

    it('throws a ValidationError naming currency when the currency is unknown', () => {
      expect(() => Money.of('1', 'EUR' as 'KRW')).toThrow(/currency|EUR/);
    });

    it('returns a frozen object', () => {
      expect(Object.isFrozen(Money.of('1', 'KRW'))).toBe(true);
    });
  });

  describe('.plus', () => {
    it('adds exactly when currencies match', () => {
      expect(Money.of('0.1', 'USD').plus(Money.of('0.2', 'USD')).equals(Money.of('0.3', 'USD'))).toBe(true);
    });

    it('throws CurrencyMismatchError when currencies differ', () => {
      let caught: unknown;
      try {
        Money.of('1', 'KRW').plus(Money.of('1', 'USD'));
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(CurrencyMismatchError);
      expect((caught as CurrencyMismatchError).code).toBe('currency-mismatch');
      expect((caught as CurrencyMismatchError).message).toContain('KRW');
      expect((caught as CurrencyMismatchError).message).toContain('USD');
    });
  });

  describe('.minus', () => {
    it('subtracts when currencies match', () => {
      const m = Money.of('100', 'KRW').minus(Money.of('250', 'KRW'));
      expect(m.toString()).toBe('-150 KRW');
      expect(m.isNegative()).toBe(true);
    });

    it('throws CurrencyMismatchError when currencies differ', () => {
      expect(() => Money.of('1', 'USD').minus(Money.of('1', 'KRW'))).toThrow(CurrencyMismatchError);
    });
  });

  describe('.times', () => {
    it('multiplies by a rate without binary rounding', () => {
      expect(Money.of('72100', 'KRW').times('0.00015').toString()).toBe('10.815 KRW');
    });

    it('multiplies by a Decimal quantity', () => {
      expect(Money.of('189.51', 'USD').times(new Decimal(3)).toJSON()).toEqual({
        amount: '568.53',
        currency: 'USD',
      });
    });

    it('leaves the receiver unchanged', () => {
      const m = Money.of('2', 'KRW');
      m.times('3');
      expect(m.amount.toFixed()).toBe('2');
    });
  });

  describe('.zero', () => {
    it('is zero in the given currency', () => {
      const z = Money.zero('USD');
      expect(z.isZero()).toBe(true);
      expect(z.currency).toBe('USD');
    });
  });
});
