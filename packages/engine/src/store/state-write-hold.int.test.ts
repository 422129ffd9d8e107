/**
 * A strategy's `ctx.state` writes made while the run tells it fills are held and committed with the
 * drop of the fills' notes, over a real SQLite file: a second connection to the file sees neither
 * until that commit, and both after it. (`run-killed-untold.int.test.ts` kills a `hoga run` inside
 * `onFill` and checks the fill is told again to a state that never counted it.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase, StoreError } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { StateWriteHold } from './state-write-hold.js';
import { DatabaseStrategyStateStore } from './strategy-state-store.js';

const open: HogaDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

/** A store on a new file, and a second connection to the same file (what another process reads). */
function stores() {
  const file = join(mkdtempSync(join(tmpdir(), 'hoga-state-hold-')), 'hoga.sqlite');
  const db = HogaDatabase.open(file);
  const other = HogaDatabase.open(file);
  open.push(db, other);
  const state = new DatabaseStrategyStateStore(db, 'paper/').forStrategy('s1');
  const stored = (key: string) => other.strategyState.get('paper/s1', key);
  const note = (value: unknown) => db.strategyState.set('paper:untold-events', 's1', value);
  const noted = () => other.strategyState.get('paper:untold-events', 's1');
  return { db, state, stored, note, noted, hold: StateWriteHold.of(db) };
}

describe('StateWriteHold', () => {
  it('holds the writes of a telling, read back as written, and commits them with the drop', () => {
    const { state, stored, note, noted, hold } = stores();
    state.set('count', 1);
    state.set('gone', 'x');
    note(['fill-1']);
    const counts: unknown[] = [];
    hold.telling(
      () => {
        const placed = { a: 'id-1' };
        state.set('count', (state.get<number>('count') ?? 0) + 1);
        state.set('placed', placed);
        // a value is held as it was set: changing the object afterwards changes nothing stored
        placed.a = 'changed';
        expect(state.delete('gone')).toBe(true);
        expect(state.delete('gone')).toBe(false);
        expect(state.delete('never')).toBe(false);
        counts.push(state.get('count'), state.get('placed'), state.get('gone'));
        // nothing of it committed yet: another connection reads the state before the telling
        counts.push(stored('count'), stored('placed'), stored('gone'));
      },
      () => note(undefined),
    );
    expect(counts).toEqual([2, { a: 'id-1' }, undefined, 1, undefined, 'x']);
    expect([stored('count'), stored('placed'), stored('gone'), noted()]).toEqual([
      2,
      { a: 'id-1' },
      undefined,
      undefined,
    ]);
    // outside a telling, a write is made at once
    state.set('count', 3);
    expect(stored('count')).toBe(3);
  });

  it('commits a telling that threw, with its drop; a nested telling drops with the outer one', () => {
    const { state, stored, note, noted, hold } = stores();
    note(['fill-1', 'fill-2']);
    let nestedDropped = false;
    expect(() =>
      hold.telling(
        () => {
          state.set('heard', 1);
          hold.telling(
            () => state.set('inner', true),
            () => {
              nestedDropped = true;
            },
          );
          // the nested telling's writes wait for the outer commit too
          expect([stored('inner'), nestedDropped]).toEqual([undefined, false]);
          throw new Error('a listener failed');
        },
        () => note(undefined),
      ),
    ).toThrow('a listener failed');
    expect([stored('heard'), stored('inner'), nestedDropped, noted()]).toEqual([1, true, true, undefined]);
  });

  it('refuses a value JSON would lose at once, as outside a telling; a failed drop leaves the notes, the state written', () => {
    const { state, stored, note, noted, hold } = stores();
    note(['fill-1']);
    expect(() =>
      hold.telling(
        () => {
          expect(() => state.set('bad', Number.NaN)).toThrow(StoreError);
          state.set('good', 1);
        },
        () => {
          note(undefined);
          throw new Error('the store refused the drop');
        },
      ),
    ).toThrow('the store refused the drop');
    // the drop rolled back (the fill is told once more at the next start); the state kept
    expect([stored('bad'), stored('good'), noted()]).toEqual([undefined, 1, ['fill-1']]);
  });
});
