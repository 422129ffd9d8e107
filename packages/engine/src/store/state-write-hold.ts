/**
 * The strategies' `ctx.state` writes held while a run tells them the fills it noted, and committed
 * with the drop of those notes. Paper and live note each fill in the transaction that stores it
 * and drop the note once the strategy was told (`untold-events.ts`); a run killed after the telling
 * and before the drop tells the fill again at its next start. Written at once, the state a hook
 * wrote as it heard the fill was then stored already: a strategy that counted its fills in
 * `ctx.state` counted that one twice. Held here and written in the drop's transaction, a kill before
 * that commit loses both, and the strategy hears the fill again with the state it had before.
 *
 * This holds for what a hook writes before it returns (or first awaits); a write after an `await`
 * is made at once, as outside a telling. Only the strategies' own state is held: the store's other
 * writes made meanwhile (an order a hook placed, a paper fill stored) commit as they always do.
 *
 * @module
 */
import { type HogaDatabase, StrategyStateRepository } from '@hoga/store';

/** A key removed while held. */
const REMOVED = Symbol('removed');

/** What a held key reads: its JSON text, or removed. */
type Held = string | typeof REMOVED;

const holds = new WeakMap<HogaDatabase, StateWriteHold>();

/** The state writes of one store held during a telling (see the module's note). */
export class StateWriteHold {
  /** Per state owner (namespaced strategy id), the keys written while held; null when not holding. */
  private writes: Map<string, Map<string, Held>> | null = null;
  /** The drops of tellings nested in the one under way, made with its commit. */
  private readonly nested: (() => void)[] = [];

  private constructor(private readonly db: HogaDatabase) {}

  /** The hold of a store (one per open database). */
  static of(db: HogaDatabase): StateWriteHold {
    let hold = holds.get(db);
    if (hold === undefined) {
      hold = new StateWriteHold(db);
      holds.set(db, hold);
    }
    return hold;
  }

  /**
   * Tells (`tell`, which hands events to the strategies) with their state writes held, then writes
   * those and `drop` (the notes of what was told) in one transaction, also when `tell` throws. Inside
   * a telling under way, `drop` waits for its commit.
   *
   * @throws what `tell` threw; else the commit's failure (the state writes then written alone, where
   *   the store takes them, and the notes left: those fills are told once more at the next start)
   */
  telling(tell: () => void, drop: () => void): void {
    if (this.writes !== null) {
      try {
        tell();
      } finally {
        this.nested.push(drop);
      }
      return;
    }
    const writes = new Map<string, Map<string, Held>>();
    this.writes = writes;
    try {
      tell();
    } finally {
      this.writes = null;
      const drops = [...this.nested.splice(0), drop];
      this.commit(writes, drops);
    }
  }

  /** Whether `owner`'s `key` was written while held, and what it reads then. */
  read(owner: string, key: string): { readonly value: unknown } | undefined {
    const held = this.writes?.get(owner)?.get(key);
    if (held === undefined) return undefined;
    return { value: held === REMOVED ? undefined : StrategyStateRepository.valueOf(held) };
  }

  /**
   * Holds a write of `owner`'s `key` when a telling is under way (checked as a write now is: a
   * value JSON would lose throws at once); false when none is (write it now).
   */
  write(owner: string, key: string, value: unknown): boolean {
    const writes = this.writes;
    if (writes === null) return false;
    const text = this.db.strategyState.textOf(owner, key, value);
    keysOf(writes, owner).set(key, text ?? REMOVED);
    return true;
  }

  /** Holds a removal when a telling is under way: whether the key was there then; undefined when none is. */
  remove(owner: string, key: string): boolean | undefined {
    const writes = this.writes;
    if (writes === null) return undefined;
    const keys = keysOf(writes, owner);
    const held = keys.get(key);
    const there = held === undefined ? this.db.strategyState.get(owner, key) !== undefined : held !== REMOVED;
    keys.set(key, REMOVED);
    return there;
  }

  private commit(writes: Map<string, Map<string, Held>>, drops: readonly (() => void)[]): void {
    // nothing written (most tellings): the drops as they were made before, each its own transaction
    // or none (no transaction of the hold's on each paper event told)
    if (writes.size === 0) {
      for (const drop of drops) drop();
      return;
    }
    const put = (): void => {
      for (const [owner, keys] of writes)
        for (const [key, held] of keys)
          if (held === REMOVED) this.db.strategyState.delete(owner, key);
          else this.db.strategyState.setText(owner, key, held);
    };
    try {
      this.db.transaction(() => {
        put();
        for (const drop of drops) drop();
      });
    } catch (error) {
      // the strategies' writes at least, as they would have been written outside a telling
      try {
        this.db.transaction(put);
      } catch {
        // the store refuses writes: the commit's failure is the one reported
      }
      throw error;
    }
  }
}

/** The keys held of `owner` (made empty when it has none). */
function keysOf(writes: Map<string, Map<string, Held>>, owner: string): Map<string, Held> {
  let keys = writes.get(owner);
  if (keys === undefined) {
    keys = new Map();
    writes.set(owner, keys);
  }
  return keys;
}
