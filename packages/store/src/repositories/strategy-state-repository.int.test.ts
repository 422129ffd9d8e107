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

  describe('.set of a value JSON cannot keep', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    for (const [name, value, message] of [
      ['a Map', { levels: new Map([[1, 2]]) }, "state key 'k' of s1: k.levels is a Map"],
      ['a Set', [1, new Set([3])], "state key 'k' of s1: k[1] is a Set"],
      ['NaN', { ratio: Number.NaN }, "state key 'k' of s1: k.ratio is NaN"],
      ['Infinity', Number.POSITIVE_INFINITY, "state key 'k' of s1: k is Infinity"],
      ['a function', { f: () => 1 }, "state key 'k' of s1: k.f is a function"],
      ['a cycle', circular, "state key 'k' of s1: k.self refers back to itself"],
    ] as const) {
      it(`is refused with a StoreError naming the key and the place (${name}); what was stored stays`, () => {
        db.strategyState.set('s1', 'k', { kept: true });
        expect(() => db.strategyState.set('s1', 'k', value)).toThrow(
          expect.objectContaining({ name: 'StoreError', message: expect.stringContaining(message) }),
        );
        expect(db.strategyState.get('s1', 'k')).toEqual({ kept: true });
      });
    }

    it('keeps what JSON can: a Date as its ISO text, a bigint and a Decimal as strings', () => {
      db.strategyState.set('s1', 'k', {
        when: new Date(0),
        n: 10n,
        d: new Decimal('1.50'),
        list: [null, 'x'],
      });
      expect(db.strategyState.get('s1', 'k')).toEqual({
        when: '1970-01-01T00:00:00.000Z',
        n: '10',
        d: '1.5',
        list: [null, 'x'],
      });
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
