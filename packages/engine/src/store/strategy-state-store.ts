/**
 * Persistent strategy state through the store's `strategy_state`, under a namespace: live uses the
 * strategy id itself, paper `paper/<strategyId>` (a paper run never reads or writes the live
 * strategy's state); a backtest writes under `backtest/<runId>/<strategyId>` so every run starts
 * empty and never touches a live strategy's state.
 *
 * @module
 */
import type { HogaDatabase } from '@hoga/store';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import { PAPER_STATE_ID } from '../live/paper-store.js';
import { riskStateOwner } from '../risk/trading-state-persistence.js';
import type { StrategyState } from '../strategy/strategy-context.js';
import { StateWriteHold } from './state-write-hold.js';

/**
 * The `strategy_state` owners the engine keeps its own state under that a strategy's namespaced id
 * could spell (strategy ids have no `/` or `:`): the paper account's (`paper/` + `_account`) and the
 * risk module's trading states (`__risk__`, `paper/` + `__risk__`).
 */
const ENGINE_OWNERS: Readonly<Record<string, string>> = {
  [PAPER_STATE_ID]: 'the paper account',
  [riskStateOwner('live')]: "the risk module's trading states",
  [riskStateOwner('paper')]: "the risk module's trading states",
};

/**
 * Why a strategy of id `strategyId` cannot keep its state under `namespace` (`''` live, `paper/`):
 * it would share the engine's own rows ({@link ENGINE_OWNERS}); else null. `hoga run` asks before
 * the run starts, and the store refuses such a strategy all the same.
 */
export function engineStateRefusal(namespace: string, strategyId: string): string | null {
  const id = `${namespace}${strategyId}`;
  const engines = ENGINE_OWNERS[id];
  if (engines === undefined) return null;
  return `strategy id ${strategyId} is where the store keeps ${engines} (${id}): its state would overwrite it; give the strategy another id (FILE.ts:ID)`;
}

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
  /**
   * @throws {@link EngineError} (`invalid-run-options`) for a strategy id whose state would share
   *   the engine's own rows (a paper strategy of id `_account`: the paper account's)
   */
  forStrategy(strategyId: string): StrategyState {
    const refusal = engineStateRefusal(this.namespace, strategyId);
    if (refusal !== null) throw new EngineError(EngineErrorCode.INVALID_RUN_OPTIONS, refusal);
    const id = `${this.namespace}${strategyId}`;
    const repo = this.db.strategyState;
    // while the run tells fills it noted, the writes wait for the notes' drop (state-write-hold.ts)
    const hold = StateWriteHold.of(this.db);
    return {
      get: <T>(key: string) => (hold.read(id, key) ?? { value: repo.get(id, key) }).value as T | undefined,
      set: (key, value) => {
        if (!hold.write(id, key, value)) repo.set(id, key, value);
      },
      delete: (key) => hold.remove(id, key) ?? repo.delete(id, key),
    };
  }
}
