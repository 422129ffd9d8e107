import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { averageFillPrice, averagePurchasePrice } from './average-price.js';

const d = (text: string | number) => new Decimal(text);

describe('averagePurchasePrice', () => {
  it.each([
    // held, average, bought, amount → new average
    ['0', '0', '10', '700000', '70000'],
    ['100', '65000', '100', '7000000', '67500'],
    // (3 × 100 + 1 × 101) / 4 = 100.25
    ['3', '100', '1', '101', '100.25'],
    // (1 × 100 + 2 × 100.01) / 3 = 100.006666… → 100.0067 (4 places, half up)
    ['1', '100', '2', '200.02', '100.0067'],
    // (10 × 155.3 + 0.5 × 150) / 10.5 = 155.047619… → 155.0476
    ['10', '155.3', '0.5', '75', '155.0476'],
    // (1 + 1.00001) / 2 = 1.000005: below the half at the fifth place → 1
    ['1', '1', '1', '1.00001', '1'],
    // 1.00005 is the half: (1 + 1.0001) / 2 = 1.00005 → 1.0001
    ['1', '1', '1', '1.0001', '1.0001'],
  ] as const)('holding %s at %s, buying %s for %s → %s', (held, average, bought, amount, expected) => {
    expect(averagePurchasePrice(d(held), d(average), d(bought), d(amount)).toFixed()).toBe(expected);
  });
});

describe('averageFillPrice', () => {
  it.each([
    ['KRW', '0', '0', null],
    ['KRW', '210200', '3', '70066.67'],
    ['KRW', '140000', '2', '70000'],
    ['USD', '370.5', '1.5', '247'],
    ['USD', '100', '3', '33.3333'],
    ['USD', '200', '3', '66.6667'],
  ] as const)('averages %s %s over %s to %s', (currency, amount, quantity, expected) => {
    const average = averageFillPrice(currency, d(amount), d(quantity));
    expect(average === null ? null : average.toFixed()).toBe(expected);
  });
});
