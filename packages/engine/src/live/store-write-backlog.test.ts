import { createLogger } from '@hoga/core';
import { StoreError, StoreErrorCode } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { MAX_KEPT_WRITES, StoreWriteBacklog } from './store-write-backlog.js';

/** A backlog of strings over a fake store (refusing while `refuse` is set), a captured log and a test clock. */
function backlog() {
  const lines: { level: number; msg: string; stored?: number }[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const state = {
    now: 0,
    held: false,
    refuse: false,
    tries: 0,
    stored: [] as string[],
    poison: new Set<string>(),
  };
  const run = <T>(fn: () => T): T => {
    state.tries += 1;
    if (state.refuse) throw new Error('database is locked');
    const before = state.stored.length;
    try {
      return fn();
    } catch (error) {
      state.stored.length = before; // rolled back
      throw error;
    }
  };
  const writes = new StoreWriteBacklog<string>(
    { transaction: run, durableTransaction: run, withoutBusyWait: <T>(fn: () => T): T => fn() },
    {
      durable: true,
      write: (item) => {
        if (state.poison.has(item))
          throw new StoreError(StoreErrorCode.DUPLICATE_CLIENT_ORDER_ID, `${item} is already stored`);
        state.stored.push(item);
      },
      fields: (item) => ({ item }),
    },
    logger,
    {
      first: 'could not store a test write (kept, tried again)',
      more: 'refused tries to store the kept test writes',
      moreOne: 'refused try to store the kept test writes',
      again: 'test writes are stored again, those kept too',
      lost: 'test writes are not stored (the store refused them to the stop)',
    },
    () => state.held,
    () => state.now,
  );
  const said = () => lines.map((l) => `${l.level} ${l.msg}`);
  return { writes, state, said, lines };
}

describe(StoreWriteBacklog, () => {
  it('writes at once while the store takes writes', () => {
    const { writes, state, said } = backlog();
    writes.add('a');
    writes.add('b');
    expect(state.stored).toEqual(['a', 'b']);
    expect(state.tries).toBe(2);
    expect(said()).toEqual([]);
  });

  it('while the store refuses, keeps new writes without trying each, tries again after a growing pause, then stores all in order', () => {
    const { writes, state, said, lines } = backlog();
    state.refuse = true;
    for (let i = 0; i < 100; i++) {
      state.now += 500; // a denial every half second for 50 s
      writes.add(`o${i}`);
    }
    // tried at 0.5 s, then after 1, 2, 4, 8, 16 and 30 s pauses: not once a write
    expect(state.tries).toBeLessThanOrEqual(8);
    expect(writes.size).toBe(100);
    expect(said()[0]).toBe('50 could not store a test write (kept, tried again)');
    state.refuse = false;
    state.now += 30_000;
    writes.retry();
    expect(state.stored).toEqual(Array.from({ length: 100 }, (_, i) => `o${i}`));
    expect(writes.size).toBe(0);
    expect(said().at(-1)).toMatch(/^30 test writes are stored again, those kept too; \d+ more refused tries/);
    expect(lines.at(-1)?.stored).toBe(100);
    // the pause starts over: the next write goes at once
    writes.add('next');
    expect(state.stored.at(-1)).toBe('next');
  });

  it('drops a write refused for itself and stores the others', () => {
    const { writes, state, said } = backlog();
    state.refuse = true;
    writes.add('a');
    writes.add('b');
    state.refuse = false;
    state.poison.add('b');
    state.now += 1_000;
    writes.add('c');
    expect(state.stored).toEqual(['a', 'c']);
    expect(writes.size).toBe(0);
    expect(said()).toContain('50 could not store a test write (kept, tried again)');
  });

  it('keeps at most MAX_KEPT_WRITES, and the stop says what the store never took', () => {
    const { writes, state, said } = backlog();
    state.refuse = true;
    for (let i = 0; i < MAX_KEPT_WRITES + 5; i++) writes.add(`o${i}`);
    expect(writes.size).toBe(MAX_KEPT_WRITES);
    const tries = state.tries;
    writes.flush(); // tried once more, whatever the pause
    expect(state.tries).toBe(tries + 1);
    expect(writes.size).toBe(0);
    expect(said().at(-1)).toBe(
      `50 ${MAX_KEPT_WRITES + 5} test writes are not stored (the store refused them to the stop)`,
    );
  });

  it('keeps writes without trying while another writer saw the store refuse, and writes them once it takes writes', () => {
    const { writes, state } = backlog();
    state.held = true;
    writes.add('a');
    state.now += 60_000;
    writes.add('b');
    writes.retry();
    expect(state.tries).toBe(0);
    state.held = false;
    writes.retry();
    expect(state.stored).toEqual(['a', 'b']);
  });
});
