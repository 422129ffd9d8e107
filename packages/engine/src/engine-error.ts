/**
 * The engine's error base class and its codes.
 *
 * @module
 */
import { inspect } from 'node:util';
import { HogaError, type HogaErrorOptions } from '@hoga/core';
import { throwPlace } from './strategy/throw-place.js';

/** Stable codes of {@link EngineError}. */
export const EngineErrorCode = {
  /** A strategy's config failed its schema (exit code 2). */
  INVALID_STRATEGY_CONFIG: 'invalid-strategy-config',
  /** A strategy file could not be loaded or exports no strategy class (exit code 2). */
  STRATEGY_LOAD_FAILED: 'strategy-load-failed',
  /** A strategy hook threw (or its code failed outside a hook); the run stopped. */
  STRATEGY_HOOK_FAILED: 'strategy-hook-failed',
  /** A backtest's options are unusable (bad range, no symbols, unknown symbol; exit code 2). */
  INVALID_RUN_OPTIONS: 'invalid-run-options',
  /** A strategy used its context wrongly (unknown order id, bad order request). */
  INVALID_REQUEST: 'invalid-request',
  /** Another paper run works the store's paper account (one at a time per store; exit code 1). */
  PAPER_ACCOUNT_BUSY: 'paper-account-busy',
  /** The strategy already runs live on the store in another process (exit code 1). */
  STRATEGY_RUNNING: 'strategy-running',
  /** The store refused a paper run's order events and ledger up to its stop (told, the run not failed). */
  PAPER_NOT_STORED: 'paper-not-stored',
} as const;
/** One of {@link EngineErrorCode}. */
export type EngineErrorCode = (typeof EngineErrorCode)[keyof typeof EngineErrorCode];

/** Base class of every error the engine raises, with a stable {@link EngineErrorCode}. */
export class EngineError extends HogaError {
  /**
   * @param code - stable code
   * @param message - what was expected and what was found
   * @param options - cause and details
   */
  constructor(code: EngineErrorCode, message: string, options: HogaErrorOptions = {}) {
    super(code, message, options);
    this.name = 'EngineError';
  }
}

/**
 * How strategy code can fail outside the engine's call of a hook: a promise it left rejected with
 * no handler (an async helper called without `await` that throws), or an exception thrown from a
 * callback it scheduled itself (a `setTimeout`'s). Node reports them on the process; a run takes
 * them for the failure of the strategy they came from (see `watchStrayFailures`).
 */
export type StrayFailure = 'unhandled promise rejection' | 'uncaught exception';

const STRAY: ReadonlySet<string> = new Set<StrayFailure>([
  'unhandled promise rejection',
  'uncaught exception',
]);

/**
 * A strategy hook threw, or its code failed outside a hook ({@link StrayFailure}): names the
 * strategy and the hook; the original error is the `cause`.
 */
export class StrategyHookError extends EngineError {
  /**
   * @param strategyId - the strategy whose hook threw; null for a stray failure no strategy's code
   *   is on the stack of
   * @param hook - the hook's name (`onBar`, …), or the {@link StrayFailure}
   * @param cause - what it threw
   * @param strategyClass - the strategy's class: the message names where in its file it threw (` (at
   *   file:line:column)`), when it was loaded from one
   */
  constructor(
    readonly strategyId: string | null,
    readonly hook: string,
    cause: unknown,
    strategyClass?: object,
  ) {
    const what = thrownText(cause);
    const place = strategyClass === undefined ? '' : throwPlace(cause, strategyClass);
    const message =
      strategyId === null
        ? `${hook} not traced to a strategy (no frame of its stack is in a strategy's file): ${what}`
        : STRAY.has(hook)
          ? `${hook} in strategy ${strategyId}: ${what}${place}`
          : `strategy ${strategyId} threw in ${hook}: ${what}${place}`;
    super(EngineErrorCode.STRATEGY_HOOK_FAILED, message, { cause, details: { strategyId, hook } });
    this.name = 'StrategyHookError';
  }
}

/**
 * What a strategy threw, as a message names it: an Error's message, a string as it is, anything
 * else as it reads in code (`{ code: 42 }`, `10n`; before, `[object Object]`), on one line.
 */
export function thrownText(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'string') return thrown;
  return inspect(thrown, { depth: 4, breakLength: Number.POSITIVE_INFINITY, maxArrayLength: 20 });
}
