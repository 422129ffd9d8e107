import { brokerOrderId, Decimal, type Fill, Money } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, sampleOrder, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import { fillFromRecord, newFillFromFill } from './fill-convert.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

describe('fill-convert', () => {
  it('a core fill recorded in SQLite and read back is the same fill', () => {
    const order = db.orders.recordIntent(sampleOrder('c-1'));
    const fill: Fill = {
      fillId: 'B-9:0.5',
      clientOrderId: order.clientOrderId,
      brokerOrderId: brokerOrderId('B-9'),
      symbol: 'NVDA',
      side: 'BUY',
      quantity: new Decimal('0.5'),
      price: new Decimal('120.1234'),
      commission: Money.of('0.06', 'USD'),
      cumulativeQuantity: new Decimal('0.5'),
      tsEvent: T0 + 5_000,
    };
    expect(db.fills.record(newFillFromFill(fill, order.id))).toBe(true);
    const [stored] = db.fills.byOrder(order.id);
    expect(fillFromRecord(stored!, order)).toEqual(fill);
  });
});
