import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import type { PositionEntry } from './position-repository.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const samsung: PositionEntry = {
  symbol: '005930',
  market: 'KR',
  currency: 'KRW',
  quantity: new Decimal('10'),
  averagePrice: new Decimal('71850.5'),
  realizedPnl: new Decimal('-1200'),
};
const apple: PositionEntry = {
  symbol: 'AAPL',
  market: 'US',
  currency: 'USD',
  quantity: new Decimal('0.123456'),
  averagePrice: new Decimal('187.12'),
  realizedPnl: new Decimal('0'),
};

describe('PositionRepository', () => {
  describe('.latest', () => {
    it('returns the newest snapshot of the scope at or before the given time, whole', () => {
      db.positions.save({ ts: T0, mode: 'live', strategyId: null, positions: [samsung] });
      db.positions.save({ ts: T0 + 10, mode: 'live', strategyId: null, positions: [samsung, apple] });
      db.positions.save({ ts: T0 + 20, mode: 'live', strategyId: 's1', positions: [] });
      db.positions.save({ ts: T0 + 30, mode: 'paper', strategyId: null, positions: [apple] });
      const pick = (at?: number) => {
        const snapshot = db.positions.latest('live', null, at);
        return { ts: snapshot?.ts, positions: snapshot?.positions };
      };
      expect(pick()).toEqual({ ts: T0 + 10, positions: [samsung, apple] });
      expect(pick(T0 + 5)).toEqual({ ts: T0, positions: [samsung] });
      const s1 = db.positions.latest('live', 's1');
      expect([s1?.ts, s1?.strategyId, s1?.positions]).toEqual([T0 + 20, 's1', []]);
      expect(db.positions.latest('live', null, T0 - 1)).toBeNull();
      expect(db.positions.latest('backtest', null)).toBeNull();
    });
  });

  describe('.save', () => {
    it('writes nothing when one position of the snapshot is invalid', () => {
      expect(() =>
        db.positions.save({ ts: T0, mode: 'live', strategyId: null, positions: [samsung, samsung] }),
      ).toThrow(/UNIQUE/);
      expect(db.positions.latest('live', null)).toBeNull();
    });
  });
});
