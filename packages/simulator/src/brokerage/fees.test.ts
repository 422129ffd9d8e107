import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { ceilCash, commissionFor, roundCash, sellTaxFor } from './fees.js';

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
});
