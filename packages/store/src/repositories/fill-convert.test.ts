import { brokerOrderId, clientOrderId, Decimal, type Fill, Money } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../store-error.js';
import { fillFromRecord, newFillFromFill } from './fill-convert.js';
import type { FillRecord } from './fill-repository.js';

const d = (text: string) => new Decimal(text);
const ORDER = { id: 7, clientOrderId: clientOrderId('c-1'), brokerOrderId: brokerOrderId('B-2') };

const fill: Fill = {
  fillId: 'B-1:4',
  clientOrderId: clientOrderId('c-1'),
  brokerOrderId: brokerOrderId('B-1'),
  symbol: '005930',
  side: 'SELL',
  quantity: d('4'),
  price: d('71900'),
  commission: Money.of('43', 'KRW'),
  tax: Money.of('431', 'KRW'),
  cumulativeQuantity: d('4'),
  tsEvent: 1_700_000_000_000,
};

const record: FillRecord = {
  id: 3,
  orderId: 7,
  brokerOrderId: brokerOrderId('B-1'),
  symbol: '005930',
  side: 'SELL',
  quantity: d('4'),
  price: d('71900'),
  commission: d('43'),
  commissionCurrency: 'KRW',
  tax: d('431'),
  filledAt: 1_700_000_000_000,
  cumulativeQuantity: d('4'),
};

describe('newFillFromFill', () => {
  it('keeps every figure and names the order row', () => {
    const row = newFillFromFill(fill, 7);
    expect({ ...row, commission: row.commission.toFixed(), tax: row.tax?.toFixed() }).toEqual({
      orderId: 7,
      brokerOrderId: 'B-1',
      symbol: '005930',
      side: 'SELL',
      quantity: fill.quantity,
      price: fill.price,
      commission: '43',
      commissionCurrency: 'KRW',
      tax: '431',
      filledAt: 1_700_000_000_000,
      cumulativeQuantity: fill.cumulativeQuantity,
    });
  });

  it('records an unreported tax as null', () => {
    const { tax: _omit, ...untaxed } = fill;
    expect(newFillFromFill(untaxed, 7).tax).toBeNull();
  });

  it('refuses a tax in another currency than the commission', () => {
    expect(() => newFillFromFill({ ...fill, tax: Money.of('1', 'USD') }, 7)).toThrow(StoreError);
  });
});

describe('fillFromRecord', () => {
  it('rebuilds the fill with the derived id, our client order id and money in the trade currency', () => {
    expect(fillFromRecord(record, ORDER)).toEqual(fill);
  });

  it('takes the order broker id when the row has none, and leaves out an unreported tax', () => {
    const back = fillFromRecord({ ...record, brokerOrderId: null, tax: null }, ORDER);
    expect(back.brokerOrderId).toBe('B-2');
    expect(back.fillId).toBe('B-2:4');
    expect('tax' in back).toBe(false);
  });

  it.each([
    ['another order row', { ...ORDER, id: 8 }, record],
    ['no broker id anywhere', { ...ORDER, brokerOrderId: null }, { ...record, brokerOrderId: null }],
  ] as const)('refuses %s', (_name, order, row) => {
    expect(() => fillFromRecord(row, order)).toThrow(StoreError);
  });

  it('round-trips a core fill through the row shape', () => {
    const row = newFillFromFill(fill, 7);
    const stored: FillRecord = { ...row, id: 3, brokerOrderId: fill.brokerOrderId, tax: row.tax ?? null };
    expect(fillFromRecord(stored, ORDER)).toEqual(fill);
  });
});
