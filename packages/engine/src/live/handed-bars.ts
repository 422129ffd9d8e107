/**
 * The newest bar of each symbol and interval that a strategy id was handed in a live or paper run,
 * kept in the store (`strategy_state`, owner `live:bars` or `paper:bars`, one row per strategy id;
 * a `:` no strategy id has, so no strategy's own state shares the owner, as a paper strategy of id
 * `_account` would share the paper account's `paper/_account`) so that the next run of the same
 * mode does not hand it over again: a run's first bar is the newest completed candle when it
 * starts, which a run stopped or killed before the next candle completed (within the minute on
 * `1m`, within the day on `1d`) had already handed over. A bar is noted as it is handed over,
 * before the hook runs: a process killed in the hook does not get it again (its orders are in the
 * store), so a bar reaches a strategy at most once.
 *
 * The note is written at once, but without waiting for a file another process holds locked
 * (better-sqlite3 is synchronous: a wait would stall the run for the busy timeout at every bar);
 * a refused write is tried again with the next bar, and at the stop with the wait. A run killed
 * while the file was locked may hand the bars since the last write over again.
 *
 * @module
 */
import type { Bar, Logger } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';

/** Per `interval symbol`, the `ts` of the newest bar handed over. */
type Handed = Record<string, number>;

/** The bars handed to each strategy id, in this run and the earlier ones of the same mode. */
export class HandedBars {
  private readonly byStrategy = new Map<string, Handed>();
  /** The strategy ids whose notes are not stored yet. */
  private readonly unstored = new Set<string>();
  private readonly owner: string;

  /**
   * @param o - the store, the run's mode, the run's logger (a note the stop could not store is said)
   */
  constructor(private readonly o: { db: HogaDatabase; mode: string; logger: Logger }) {
    this.owner = `${o.mode}:bars`;
  }

  /** Whether `strategyId` was handed `bar` (or a later bar of its symbol and interval) before. */
  had(strategyId: string, bar: Bar): boolean {
    const newest = this.of(strategyId)[`${bar.interval} ${bar.symbol}`];
    return newest !== undefined && bar.ts <= newest;
  }

  /** Notes that `strategyId` is handed `bar` now (stored unless the file is locked). */
  note(strategyId: string, bar: Bar): void {
    this.of(strategyId)[`${bar.interval} ${bar.symbol}`] = bar.ts;
    this.unstored.add(strategyId);
    this.store(false);
  }

  /** At the stop: stores what is not stored yet, waiting for a locked file; says what it could not. */
  flush(): void {
    this.store(true);
  }

  private store(wait: boolean): void {
    for (const strategyId of this.unstored) {
      const write = () => this.o.db.strategyState.set(this.owner, strategyId, this.of(strategyId));
      try {
        if (wait) write();
        else this.o.db.withoutBusyWait(write);
        this.unstored.delete(strategyId);
      } catch (error) {
        if (wait)
          this.o.logger.warn(
            { err: error, strategyIds: [...this.unstored] },
            'could not store which bars the strategies were handed: the next run may hand the last bars over again',
          );
        return;
      }
    }
  }

  private of(strategyId: string): Handed {
    let handed = this.byStrategy.get(strategyId);
    if (handed === undefined) {
      const stored = this.read(strategyId);
      handed = typeof stored === 'object' && stored !== null ? { ...(stored as Handed) } : {};
      this.byStrategy.set(strategyId, handed);
    }
    return handed;
  }

  private read(strategyId: string): unknown {
    try {
      return this.o.db.strategyState.get(this.owner, strategyId);
    } catch {
      return undefined;
    }
  }
}
