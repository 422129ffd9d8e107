/**
 * Persistent strategy state through the store's `strategy_state`, under a namespace: live uses the
 * strategy id itself, paper `paper/<strategyId>` (a paper run never reads or writes the live
 * strategy's state); a backtest writes under `backtest/<runId>/<strategyId>` so every run starts
 * empty and never touches a live strategy's state.
 *
 * @module
 */
import type { HogaDatabase } from '@hoga/store';
import type { StrategyState } from '../strategy/strategy-context.js';

/** Token of {@link StrategyStateStore}. */
export const StrategyStateStore = Symbol.for('hoga.engine.StrategyStateStore');

/** Gives each strategy its state. */
export interface StrategyStateStore {
  /** The state of one strategy. */
  forStrategy(strategyId: string): StrategyState;
}

/** State kept in the store, keys of `namespace + strategyId`. */
export class DatabaseStrategyStateStore implements StrategyStateStore {
  /**
   * @param db - the store
   * @param namespace - prefix of the stored strategy id (`''` live, `paper/`, `backtest/<runId>/`)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly namespace: string,
  ) {}

  /** @inheritdoc */
  forStrategy(strategyId: string): StrategyState {
    const id = `${this.namespace}${strategyId}`;
    const repo = this.db.strategyState;
    return {
      get: <T>(key: string) => repo.get(id, key) as T | undefined,
      set: (key, value) => repo.set(id, key, value),
      delete: (key) => repo.delete(id, key),
    };
  }
}
