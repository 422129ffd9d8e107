import { Decimal } from '@hoga/core';
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
});
