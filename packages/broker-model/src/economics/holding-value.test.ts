import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { reportRate, valueHolding } from './holding-value.js';

const d = (text: string | number) => new Decimal(text);
const fixed = (v: ReturnType<typeof valueHolding>) =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === null ? null : (x as Decimal).toFixed()]));

describe('valueHolding', () => {
  it('values a KR stock with the commission and the sell tax of a sale now', () => {
    const value = valueHolding({
      market: 'KR',
      currency: 'KRW',
      securityType: 'STOCK',
      quantity: d(100),
      averagePrice: d(65000),
      lastPrice: d(71900),
      referencePrice: d(71000),
    });
    // 7,190,000: commission 1,078 (1,078.5 truncated), tax 10,785
    expect(fixed(value)).toEqual({
      purchaseAmount: '6500000',
      amount: '7190000',
      commission: '1078',
      tax: '10785',
      amountAfterCost: '7178137',
      profit: '690000',
      profitAfterCost: '678137',
      previousAmount: '7100000',
      dailyProfit: '90000',
    });
  });

  it('values a KR ETF and a US stock with no tax at all (null: the reference\'s "null when there is none")', () => {
    const etf = valueHolding({
      market: 'KR',
      currency: 'KRW',
      securityType: 'ETF',
      quantity: d(10),
      averagePrice: d(35000),
      lastPrice: d(35005),
      referencePrice: d(35000),
    });
    expect(etf.tax).toBeNull();
    // 350,050: commission 52 (52.5075 truncated), nothing else
    expect(etf.amountAfterCost.toFixed()).toBe('349998');
    const us = valueHolding({
      market: 'US',
      currency: 'USD',
      securityType: 'STOCK',
      quantity: d('5.5'),
      averagePrice: d('120.25'),
      lastPrice: d('130.13'),
      referencePrice: d('129'),
    });
    // 5.5 × 120.25 = 661.375 → 661.38; 5.5 × 130.13 = 715.715 → 715.72; commission 0.72 (0.71572)
    expect(fixed(us)).toEqual({
      purchaseAmount: '661.38',
      amount: '715.72',
      commission: '0.72',
      tax: null,
      amountAfterCost: '715',
      profit: '54.34',
      profitAfterCost: '53.62',
      previousAmount: '709.5',
      dailyProfit: '6.22',
    });
  });
});

describe('reportRate', () => {
  it.each([
    ['690000', '6500000', '0.1062'],
    ['-1', '3', '-0.3333'],
    ['1', '0', '0'],
  ] as const)('%s over %s is %s', (n, den, expected) => {
    expect(reportRate(d(n), d(den)).toFixed()).toBe(expected);
  });
});
