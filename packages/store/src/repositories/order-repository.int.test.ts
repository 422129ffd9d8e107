import { Decimal, type OrderState } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, sampleOrder, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

describe('OrderRepository', () => {
  describe('.recordIntent', () => {
    it('stores every field exactly and starts in INITIALIZED with nothing filled', () => {
      const stored = db.orders.recordIntent(
        sampleOrder('c-1', { price: new Decimal('0.0001'), quantity: new Decimal('123456789.123456') }),
      );
      const read = db.orders.get('c-1');
      expect(read).toEqual(stored);
      expect(read).toMatchObject({
        clientOrderId: 'c-1',
        brokerOrderId: null,
        strategyId: 'sma-cross',
        mode: 'paper',
        state: 'INITIALIZED',
        rejectReason: null,
        averageFillPrice: null,
        createdAt: T0,
        updatedAt: T0,
      });
      expect(read?.price?.toFixed()).toBe('0.0001');
      expect(read?.quantity?.toFixed()).toBe('123456789.123456');
      expect(read?.filledQuantity.isZero()).toBe(true);
      expect(db.connection.prepare('SELECT typeof(price) FROM orders').pluck().get()).toBe('text');
    });

    it('throws duplicate-client-order-id and keeps the first order when the clientOrderId is reused', () => {
      db.orders.recordIntent(sampleOrder('dup', { symbol: '005930' }));
      expect(() => db.orders.recordIntent(sampleOrder('dup', { symbol: '000660' }))).toThrow(
        expect.objectContaining({
          code: 'duplicate-client-order-id',
          message: expect.stringContaining('dup'),
        }),
      );
      expect(db.orders.list()).toHaveLength(1);
      expect(db.orders.get('dup')?.symbol).toBe('005930');
    });

    it('appends the given journal event in the same transaction', () => {
      db.orders.recordIntent(sampleOrder('c-1', { state: 'SUBMITTED' }), {
        type: 'OrderSubmitted',
        tsEvent: T0,
        tsInit: T0,
        mode: 'paper',
        clientOrderId: 'c-1',
        payload: { clientOrderId: 'c-1', price: new Decimal('72100') },
      });
      expect(db.journal.forOrder('c-1')).toMatchObject([
        { type: 'OrderSubmitted', payload: { clientOrderId: 'c-1', price: '72100' } },
      ]);
    });

    it('stores an amount order with no price and no quantity', () => {
      db.orders.recordIntent(
        sampleOrder('amt', {
          symbol: 'AAPL',
          market: 'US',
          currency: 'USD',
          orderType: 'MARKET',
          price: null,
          quantity: null,
          amount: new Decimal('150.25'),
        }),
      );
      expect(db.orders.get('amt')).toMatchObject({
        price: null,
        quantity: null,
        amount: new Decimal('150.25'),
      });
    });
  });

  describe('.linkBrokerOrderId', () => {
    it('keeps the whole lineage of a create, two modifies and a cancel, and finds the order by any id', () => {
      db.orders.recordIntent(sampleOrder('chain'));
      db.orders.linkBrokerOrderId('chain', 'B-100', 'create', T0 + 1);
      db.orders.linkBrokerOrderId('chain', 'B-101', 'modify', T0 + 2);
      db.orders.linkBrokerOrderId('chain', 'B-102', 'modify', T0 + 3);
      db.orders.linkBrokerOrderId('chain', 'B-103', 'cancel', T0 + 4);
      expect(db.orders.brokerOrderIds('chain')).toEqual([
        { brokerOrderId: 'B-100', ordinal: 1, kind: 'create', createdAt: T0 + 1 },
        { brokerOrderId: 'B-101', ordinal: 2, kind: 'modify', createdAt: T0 + 2 },
        { brokerOrderId: 'B-102', ordinal: 3, kind: 'modify', createdAt: T0 + 3 },
        { brokerOrderId: 'B-103', ordinal: 4, kind: 'cancel', createdAt: T0 + 4 },
      ]);
      for (const id of ['B-100', 'B-101', 'B-102', 'B-103']) {
        expect(db.orders.findByBrokerOrderId(id)?.clientOrderId).toBe('chain');
      }
      expect(db.orders.get('chain')).toMatchObject({ brokerOrderId: 'B-103', updatedAt: T0 + 4 });
      expect(db.orders.findByBrokerOrderId('B-999')).toBeNull();
    });

    it('is a no-op when the same id is linked to the same order twice', () => {
      db.orders.recordIntent(sampleOrder('c-1'));
      db.orders.linkBrokerOrderId('c-1', 'B-1', 'create', T0);
      db.orders.linkBrokerOrderId('c-1', 'B-1', 'create', T0 + 5);
      expect(db.orders.brokerOrderIds('c-1')).toHaveLength(1);
    });

    it('throws duplicate-broker-order-id when the id belongs to another order', () => {
      db.orders.recordIntent(sampleOrder('c-1'));
      db.orders.recordIntent(sampleOrder('c-2'));
      db.orders.linkBrokerOrderId('c-1', 'B-1', 'create', T0);
      expect(() => db.orders.linkBrokerOrderId('c-2', 'B-1', 'create', T0)).toThrow(
        expect.objectContaining({ code: 'duplicate-broker-order-id' }),
      );
      expect(db.orders.get('c-2')?.brokerOrderId).toBeNull();
    });

    it('throws order-not-found for an unknown clientOrderId', () => {
      expect(() => db.orders.linkBrokerOrderId('nope', 'B-1', 'create', T0)).toThrow(
        expect.objectContaining({ code: 'order-not-found', message: expect.stringContaining('nope') }),
      );
    });
  });

  describe('.updateState', () => {
    it('changes the given fields only and clears a field given as null', () => {
      db.orders.recordIntent(sampleOrder('c-1'));
      db.orders.updateState('c-1', {
        state: 'PARTIALLY_FILLED',
        updatedAt: T0 + 10,
        filledQuantity: new Decimal('4'),
        averageFillPrice: new Decimal('72050.5'),
      });
      db.orders.updateState('c-1', {
        state: 'PENDING_MODIFY',
        updatedAt: T0 + 20,
        price: new Decimal('72000'),
      });
      expect(db.orders.get('c-1')).toMatchObject({
        state: 'PENDING_MODIFY',
        updatedAt: T0 + 20,
        filledQuantity: new Decimal('4'),
        averageFillPrice: new Decimal('72050.5'),
        price: new Decimal('72000'),
        quantity: new Decimal('10'),
      });
      db.orders.updateState('c-1', {
        state: 'REJECTED',
        updatedAt: T0 + 30,
        rejectReason: 'price-out-of-range',
      });
      db.orders.updateState('c-1', { state: 'REJECTED', updatedAt: T0 + 31, averageFillPrice: null });
      expect(db.orders.get('c-1')).toMatchObject({
        rejectReason: 'price-out-of-range',
        averageFillPrice: null,
      });
    });

    it('throws order-not-found for an unknown order', () => {
      expect(() => db.orders.updateState('nope', { state: 'ACCEPTED', updatedAt: T0 })).toThrow(
        expect.objectContaining({ code: 'order-not-found' }),
      );
    });
  });

  describe('.updateStates', () => {
    it('applies nothing when one update of the batch fails', () => {
      db.orders.recordIntent(sampleOrder('c-1'));
      expect(() =>
        db.orders.updateStates([
          ['c-1', { state: 'ACCEPTED', updatedAt: T0 + 1 }],
          ['missing', { state: 'ACCEPTED', updatedAt: T0 + 1 }],
        ]),
      ).toThrow(expect.objectContaining({ code: 'order-not-found' }));
      expect(db.orders.get('c-1')?.state).toBe('INITIALIZED');
    });
  });

  describe('.list', () => {
    it('filters by state, strategy, symbol, mode and creation time', () => {
      const day = 86_400_000;
      db.orders.recordIntent(sampleOrder('a', { strategyId: 's1', symbol: '005930', createdAt: T0 }));
      db.orders.recordIntent(sampleOrder('b', { strategyId: 's2', symbol: '005930', createdAt: T0 + 1 }));
      db.orders.recordIntent(sampleOrder('c', { strategyId: 's1', symbol: '000660', createdAt: T0 + day }));
      db.orders.recordIntent(
        sampleOrder('d', { strategyId: null, mode: 'live', symbol: 'AAPL', createdAt: T0 + 2 }),
      );
      db.orders.updateState('b', { state: 'FILLED', updatedAt: T0 + 5 });
      const ids = (q: Parameters<typeof db.orders.list>[0]) => db.orders.list(q).map((o) => o.clientOrderId);
      expect(ids({})).toEqual(['a', 'b', 'd', 'c']);
      expect(ids({ state: 'FILLED' })).toEqual(['b']);
      expect(ids({ state: ['INITIALIZED', 'FILLED'], symbol: '005930' })).toEqual(['a', 'b']);
      expect(ids({ strategyId: 's1' })).toEqual(['a', 'c']);
      expect(ids({ mode: 'live' })).toEqual(['d']);
      expect(ids({ from: T0 + 1, to: T0 + day })).toEqual(['b', 'd']);
      expect(ids({ limit: 2 })).toEqual(['a', 'b']);
      expect(db.orders.get('d')?.strategyId).toBeNull();
    });
  });

  describe('.unknownOutcome', () => {
    // [state, has broker id, mode, listed?]
    const cases: [OrderState, boolean, 'paper' | 'live' | 'backtest', boolean][] = [
      ['INITIALIZED', false, 'live', true],
      ['SUBMITTED', false, 'live', true],
      ['SUBMITTED', true, 'live', true],
      ['ACCEPTED', true, 'live', false],
      ['ACCEPTED', false, 'paper', true],
      ['PARTIALLY_FILLED', true, 'paper', false],
      ['PENDING_CANCEL', true, 'live', true],
      ['PENDING_MODIFY', true, 'live', true],
      ['FILLED', true, 'live', false],
      ['CANCELED', true, 'live', false],
      ['REJECTED', false, 'live', false],
      ['DENIED', false, 'live', false],
      ['EXPIRED', true, 'live', false],
      ['SUBMITTED', false, 'backtest', false],
    ];
    it.each(cases)('for %s with broker id %s in %s mode lists it: %s', (state, hasBrokerId, mode, listed) => {
      db.orders.recordIntent(sampleOrder('x', { mode, state }));
      if (hasBrokerId) db.orders.linkBrokerOrderId('x', 'B-1', 'create', T0);
      expect(db.orders.unknownOutcome().map((o) => o.clientOrderId)).toEqual(listed ? ['x'] : []);
    });
  });
});
