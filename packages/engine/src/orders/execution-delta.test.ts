import { Decimal } from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cumulativeOf, executionDelta, NO_EXECUTION } from './execution-delta.js';

const d = (v: string): Decimal => new Decimal(v);

describe('executionDelta', () => {
  it('is the change of the cumulative totals, priced as Δamount / Δquantity', () => {
    const first = cumulativeOf({
      filledQuantity: d('4'),
      filledAmount: d('400'),
      averageFilledPrice: d('100'),
      commission: d('0.06'),
      tax: d('0'),
    });
    const second = cumulativeOf({
      filledQuantity: d('10'),
      filledAmount: d('1030'),
      averageFilledPrice: d('103'),
      commission: d('0.15'),
      tax: d('0'),
    });
    const a = executionDelta(NO_EXECUTION, first);
    const b = executionDelta(first, second);
    expect([a?.quantity.toString(), a?.price.toString(), a?.commission.toString()]).toEqual([
      '4',
      '100',
      '0.06',
    ]);
    expect([b?.quantity.toString(), b?.price.toString(), b?.commission.toString()]).toEqual([
      '6',
      '105',
      '0.09',
    ]);
  });

  it('gives nothing for a repeated or stale report (never a negative fill)', () => {
    const counted = cumulativeOf({
      filledQuantity: d('10'),
      filledAmount: d('1000'),
      averageFilledPrice: d('100'),
      commission: null,
      tax: null,
    });
    expect(executionDelta(counted, counted)).toBeNull();
    const stale = cumulativeOf({
      filledQuantity: d('4'),
      filledAmount: d('400'),
      averageFilledPrice: d('100'),
      commission: null,
      tax: null,
    });
    expect(executionDelta(counted, stale)).toBeNull();
  });

  it('takes a missing filled amount as quantity × average price, and fractional quantities of amount orders', () => {
    const report = cumulativeOf({
      filledQuantity: d('92577.714285'),
      filledAmount: null,
      averageFilledPrice: d('0.1534'),
      commission: d('14.2'),
      tax: null,
    });
    const delta = executionDelta(NO_EXECUTION, report);
    expect(delta?.quantity.toString()).toBe('92577.714285');
    expect(delta?.price.toString()).toBe('0.1534');
    expect(delta?.tax.toString()).toBe('0');
  });

  it('prices a fill whose amount the broker rounded with the fewest places that give that amount back, not 40 digits', () => {
    // a 500 USD amount order: 2.20274 shares for 500.00 (the broker's amount, rounded to the cent)
    const delta = executionDelta(
      NO_EXECUTION,
      cumulativeOf({
        filledQuantity: d('2.20274'),
        filledAmount: d('500'),
        averageFilledPrice: d('226.99'),
        commission: d('0.5'),
        tax: null,
      }),
    );
    // 500 / 2.20274 is 226.99002151865403996840298900460335763640…
    expect(delta?.price.toString()).toBe('226.99');
    expect(delta?.price.times('2.20274').toDecimalPlaces(2).toString()).toBe('500');
    // 200 for 3: 66.67 × 3 gives 200.01, 66.6667 × 3 gives 200.0001, which rounds to 200.00
    const third = executionDelta(
      NO_EXECUTION,
      cumulativeOf({
        filledQuantity: d('3'),
        filledAmount: d('200'),
        averageFilledPrice: null,
        commission: null,
        tax: null,
      }),
    );
    expect(third?.price.toString()).toBe('66.6667');
  });

  it('gives back the amount from the price for any quantity and cent amount (generated)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000_000 }), // amount in cents
        fc.integer({ min: 1, max: 100_000_000_000 }), // quantity in millionths
        (cents, millionths) => {
          const amount = new Decimal(cents).div(100);
          const quantity = new Decimal(millionths).div(1_000_000);
          const delta = executionDelta(NO_EXECUTION, {
            filledQuantity: quantity,
            filledAmount: amount,
            commission: new Decimal(0),
            tax: new Decimal(0),
          });
          expect(delta?.price.times(quantity).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).eq(amount)).toBe(
            true,
          );
          expect(delta?.price.decimalPlaces()).toBeLessThanOrEqual(40);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
