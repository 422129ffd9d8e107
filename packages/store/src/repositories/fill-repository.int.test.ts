import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, sampleFill, sampleOrder, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';

let db: HogaDatabase;
let cleanup: () => void;
let orderId: number;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
  orderId = db.orders.recordIntent(sampleOrder('c-1')).id;
});
afterEach(() => cleanup());

describe('FillRepository', () => {
  describe('.record', () => {
    it('returns true for a new fill and false when the same fill is recorded again', () => {
      expect(db.fills.record(sampleFill(orderId, '4', '4'))).toBe(true);
      expect(db.fills.record(sampleFill(orderId, '4', '4'))).toBe(false);
      expect(db.fills.record(sampleFill(orderId, '6', '10'))).toBe(true);
      expect(db.fills.byOrder(orderId).map((f) => f.cumulativeQuantity.toFixed())).toEqual(['4', '10']);
    });

    it('treats 4 and 4.0 as the same cumulative quantity', () => {
      db.fills.record(sampleFill(orderId, '4', '4'));
      expect(db.fills.record(sampleFill(orderId, '4', '4.000'))).toBe(false);
    });

    it('keeps prices, quantities and commissions exact as decimal text', () => {
      db.fills.record(
        sampleFill(orderId, '0.123456', '0.123456', {
          price: new Decimal('187.1234'),
          commission: new Decimal('0.0000001'),
          tax: new Decimal('12.34'),
          commissionCurrency: 'USD',
        }),
      );
      const [fill] = db.fills.byOrder(orderId);
      expect(fill?.price.toFixed()).toBe('187.1234');
      expect(fill?.commission.toFixed()).toBe('0.0000001');
      expect(fill?.tax?.toFixed()).toBe('12.34');
      expect(fill?.commissionCurrency).toBe('USD');
      const types = db.connection.prepare('SELECT typeof(price), typeof(commission) FROM fills').raw().get();
      expect(types).toEqual(['text', 'text']);
    });

    it('refuses a fill of an order that does not exist', () => {
      expect(() => db.fills.record(sampleFill(orderId + 99, '1', '1'))).toThrow(/FOREIGN KEY/);
    });
  });

  describe('.recordMany', () => {
    it('counts only the new fills of a batch with repeats', () => {
      const batch = [
        sampleFill(orderId, '1', '1'),
        sampleFill(orderId, '1', '2'),
        sampleFill(orderId, '1', '1'),
      ];
      expect(db.fills.recordMany(batch)).toBe(2);
      expect(db.fills.recordMany(batch)).toBe(0);
    });

    it('writes nothing when one fill of the batch fails', () => {
      expect(() => db.fills.recordMany([sampleFill(orderId, '1', '1'), sampleFill(-1, '1', '1')])).toThrow();
      expect(db.fills.list()).toEqual([]);
    });
  });

  describe('.list', () => {
    it('filters by order, symbol and fill time', () => {
      const other = db.orders.recordIntent(sampleOrder('c-2', { symbol: '000660' })).id;
      db.fills.record(sampleFill(orderId, '1', '1', { filledAt: T0 + 1 }));
      db.fills.record(sampleFill(other, '2', '2', { symbol: '000660', filledAt: T0 + 2 }));
      db.fills.record(sampleFill(orderId, '3', '4', { filledAt: T0 + 3 }));
      const q = (query: Parameters<typeof db.fills.list>[0]) =>
        db.fills.list(query).map((f) => f.filledAt - T0);
      expect(q({})).toEqual([1, 2, 3]);
      expect(q({ symbol: '000660' })).toEqual([2]);
      expect(q({ orderId })).toEqual([1, 3]);
      expect(q({ from: T0 + 2, to: T0 + 3 })).toEqual([2]);
    });
  });
});
