import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

describe('StrategyStateRepository', () => {
  describe('.set', () => {
    it('stores JSON values per strategy, decimals as strings, stamped by the clock', () => {
      db.strategyState.set('s1', 'lastSignal', { side: 'BUY', at: T0, price: new Decimal('72100.50') });
      db.strategyState.set('s2', 'lastSignal', 'none');
      expect(db.strategyState.get('s1', 'lastSignal')).toEqual({ side: 'BUY', at: T0, price: '72100.5' });
      expect(db.strategyState.get('s2', 'lastSignal')).toBe('none');
      expect(db.connection.prepare('SELECT updated_at FROM strategy_state LIMIT 1').pluck().get()).toBe(T0);
    });

    it('replaces the value of an existing key', () => {
      db.strategyState.set('s1', 'n', 1);
      db.strategyState.set('s1', 'n', 2);
      expect([...db.strategyState.entries('s1')]).toEqual([['n', 2]]);
    });
  });

  describe('.delete', () => {
    it('removes a key and reports whether it existed', () => {
      db.strategyState.set('s1', 'n', 1);
      expect(db.strategyState.delete('s1', 'n')).toBe(true);
      expect(db.strategyState.delete('s1', 'n')).toBe(false);
      expect(db.strategyState.get('s1', 'n')).toBeUndefined();
    });
  });
});
