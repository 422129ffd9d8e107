import { Decimal, exactIntOf } from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilCash, floorCash, roundCash } from './cash.js';
import { commissionFor, commissionRateFor, sellTaxFor, tradeCharges } from './fees.js';

describe('commissionFor', () => {
  it.each([
    ['KR', '7200000', '1080'],
    ['KR', '719000', '107'],
    ['KR', '6666', '0'],
    ['US', '370.5', '0.37'],
    ['US', '555.75', '0.56'],
    ['US', '4.99', '0'],
  ] as const)('charges %s %s → %s', (market, amount, fee) => {
    expect(commissionFor(market, new Decimal(amount)).toFixed()).toBe(fee);
  });
});

describe('sellTaxFor', () => {
  it.each([
    ['KR', 'STOCK', '719000', '1078'],
    ['KR', 'ETF', '719000', '0'],
    ['KR', 'ETN', '719000', '0'],
    ['US', 'STOCK', '719000', '0'],
  ] as const)('taxes a %s %s sale of %s with %s', (market, type, amount, tax) => {
    expect(sellTaxFor(market, type, new Decimal(amount)).toFixed()).toBe(tax);
  });
});

describe('roundCash and ceilCash', () => {
  it.each([
    ['KRW', '100.5', '101', '101'],
    ['KRW', '100.4', '100', '101'],
    ['USD', '1.005', '1.01', '1.01'],
    ['USD', '1.0001', '1', '1.01'],
  ] as const)('rounds %s %s to %s (half up) and %s (up)', (currency, amount, rounded, ceiled) => {
    expect(roundCash(currency, new Decimal(amount)).toFixed()).toBe(rounded);
    expect(ceilCash(currency, new Decimal(amount)).toFixed()).toBe(ceiled);
  });

  it.each([
    ['KRW', '100.9', '100'],
    ['USD', '1.009', '1'],
    ['USD', '19.999', '19.99'],
  ] as const)('floorCash rounds %s %s down to %s', (currency, amount, floored) => {
    expect(floorCash(currency, new Decimal(amount)).toFixed()).toBe(floored);
  });
});

describe('commissionRateFor', () => {
  it.each([
    ['KRW', '0.00015'],
    ['USD', '0.001'],
  ] as const)('charges %s trades at %s', (currency, rate) => {
    expect(commissionRateFor(currency).toFixed()).toBe(rate);
  });
});

describe('tradeCharges', () => {
  it.each([
    // market, currency, type, side, quantity, price → amount, commission, tax
    ['KR', 'KRW', 'STOCK', 'BUY', '10', '71900', '719000', '107', '0'],
    ['KR', 'KRW', 'STOCK', 'SELL', '10', '71900', '719000', '107', '1078'],
    ['KR', 'KRW', 'ETF', 'SELL', '10', '71900', '719000', '107', '0'],
    // the amount is rounded to the cent first (370.5045 → 370.50), the commission on that amount
    ['US', 'USD', 'STOCK', 'BUY', '1.5', '247.003', '370.5', '0.37', '0'],
    ['US', 'USD', 'STOCK', 'SELL', '3', '185.25', '555.75', '0.56', '0'],
  ] as const)(
    'charges a %s %s %s %s of %s at %s: %s, commission %s, tax %s',
    (market, currency, securityType, side, quantity, price, amount, commission, tax) => {
      const charges = tradeCharges({
        market,
        currency,
        securityType,
        side,
        quantity: new Decimal(quantity),
        price: new Decimal(price),
      });
      expect({
        amount: charges.amount.toFixed(),
        commission: charges.commission.toFixed(),
        tax: charges.tax.toFixed(),
      }).toEqual({ amount, commission, tax });
    },
  );

  it('books whole-won KR trades (computed in numbers) as commissionFor and sellTaxFor charge the amount', () => {
    const trade = fc.record({
      quantity: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.constant(1_234_567_890)),
      price: fc.oneof(fc.integer({ min: 0, max: 5_000_000 }), fc.constant(7_000_000)),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      securityType: fc.constantFrom('STOCK' as const, 'ETF' as const, 'ETN' as const),
    });
    fc.assert(
      fc.property(trade, (t) => {
        const quantity = new Decimal(t.quantity);
        const price = new Decimal(t.price);
        const charges = tradeCharges({ market: 'KR', currency: 'KRW', ...t, quantity, price });
        const amount = roundCash('KRW', quantity.times(price));
        const tax = t.side === 'SELL' ? sellTaxFor('KR', t.securityType, amount) : new Decimal(0);
        expect([charges.amount, charges.commission, charges.tax].map((d) => d.toFixed())).toEqual(
          [amount, commissionFor('KR', amount), tax].map((d) => d.toFixed()),
        );
      }),
    );
  });
});

describe('exactIntOf', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['12345678', 12345678],
    ['-70000', -70000],
    ['9007199254740991', 9007199254740991],
    ['9007199254740992', Number.NaN],
    ['1e20', Number.NaN],
    ['0.5', Number.NaN],
    ['100.01', Number.NaN],
    ['Infinity', Number.NaN],
    ['NaN', Number.NaN],
  ])('reads %s as %s', (text, expected) => {
    expect(exactIntOf(new Decimal(text))).toBe(expected);
  });
});
