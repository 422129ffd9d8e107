import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileAtVersion, openTemp, T0, tempDir } from '../../test/support.js';
import { HogaDatabase } from '../hoga-database.js';
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

  describe('migration 13', () => {
    it('stores an unknown average or realized PnL as NULL; live snapshots of before lose their 0s', () => {
      const { dir, cleanup: removeDir } = tempDir();
      try {
        const old = fileAtVersion(dir, 12, (raw) => {
          const snap = raw.prepare('INSERT INTO position_snapshots (ts, mode, strategy_id) VALUES (?, ?, ?)');
          const item = raw.prepare(
            `INSERT INTO position_snapshot_items (snapshot_id, symbol, market, currency, quantity, average_price,
               realized_pnl) VALUES (?, '005930', 'KR', 'KRW', '10', ?, ?)`,
          );
          const live = snap.run(T0, 'live', '').lastInsertRowid;
          item.run(live, '0', '0'); // what the live order manager wrote: not figures
          const paper = snap.run(T0, 'paper', '').lastInsertRowid;
          item.run(paper, '71850.5', '-1200');
        });
        const opened = HogaDatabase.open(old);
        try {
          expect(opened.positions.latest('live', null)?.positions[0]).toMatchObject({
            quantity: new Decimal(10),
            averagePrice: null,
            realizedPnl: null,
          });
          expect(opened.positions.latest('paper', null)?.positions[0]).toMatchObject({
            averagePrice: new Decimal('71850.5'),
            realizedPnl: new Decimal('-1200'),
          });
          const unknown = { ...samsung, averagePrice: null, realizedPnl: null };
          opened.positions.save({ ts: T0 + 1, mode: 'live', strategyId: null, positions: [unknown] });
          expect(opened.positions.latest('live', null)?.positions).toEqual([unknown]);
        } finally {
          opened.close();
        }
      } finally {
        removeDir();
      }
    });
  });
});
