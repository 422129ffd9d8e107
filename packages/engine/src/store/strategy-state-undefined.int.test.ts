/**
 * `ctx.state.set(key, undefined)` removes the key: `get` gives `undefined` back, as it was set, in
 * this run and after a restart (a new connection to the same SQLite file). Before, the value was
 * written as JSON `null` and read back as `null`. An `undefined` inside an array (which JSON writes
 * as `null`) is refused with a `StoreError` naming the place, like NaN; an object's `undefined`
 * property is left out, as JSON does (reading it still gives `undefined`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseStrategyStateStore } from './strategy-state-store.js';

const open: HogaDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function openDb(file: string): HogaDatabase {
  const db = HogaDatabase.open(file);
  open.push(db);
  return db;
}

describe('ctx.state and undefined', () => {
  it('set(key, undefined) removes the key: get gives undefined, also after a restart', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hoga-state-undefined-')), 'hoga.sqlite');
    const first = openDb(file);
    const state = new DatabaseStrategyStateStore(first, 'paper/').forStrategy('s1');
    state.set('target', 5);
    state.set('kept', 'yes');
    state.set('target', undefined);
    expect(state.get('target')).toBeUndefined();
    expect(state.delete('target')).toBe(false);
    state.set('never', undefined);
    expect(state.get('never')).toBeUndefined();
    first.close();
    open.splice(0);

    const second = openDb(file);
    const again = new DatabaseStrategyStateStore(second, 'paper/').forStrategy('s1');
    expect(again.get('target')).toBeUndefined();
    expect(again.get('never')).toBeUndefined();
    expect(again.get('kept')).toBe('yes');
    expect([...second.strategyState.entries('paper/s1').keys()]).toEqual(['kept']);
  });

  it('refuses an undefined inside an array (JSON would turn it into null), naming the place; keeps the old value', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hoga-state-undefined-')), 'hoga.sqlite');
    const state = new DatabaseStrategyStateStore(openDb(file), '').forStrategy('s1');
    state.set('levels', [1, 2]);
    expect(() => state.set('levels', [1, undefined])).toThrow(
      expect.objectContaining({
        name: 'StoreError',
        message: expect.stringContaining("state key 'levels' of s1: levels[1] is undefined"),
      }),
    );
    expect(state.get('levels')).toEqual([1, 2]);
    // an object's undefined property is left out, as JSON does
    state.set('o', { a: 1, b: undefined });
    expect(state.get('o')).toEqual({ a: 1 });
  });
});
