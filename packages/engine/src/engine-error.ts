/**
 * The engine's error base class and its codes.
 *
 * @module
 */
import { HogaError, type HogaErrorOptions } from '@hoga/core';
import { throwPlace } from './strategy/throw-place.js';

/** Stable codes of {@link EngineError}. */
export const EngineErrorCode = {
  /** A strategy's config failed its schema (exit code 2). */
  INVALID_STRATEGY_CONFIG: 'invalid-strategy-config',
  /** A strategy file could not be loaded or exports no strategy class (exit code 2). */
  STRATEGY_LOAD_FAILED: 'strategy-load-failed',
  /** A strategy hook threw; the run stopped. */
  STRATEGY_HOOK_FAILED: 'strategy-hook-failed',
  /** A backtest's options are unusable (bad range, no symbols, unknown symbol; exit code 2). */
  INVALID_RUN_OPTIONS: 'invalid-run-options',
  /** A strategy used its context wrongly (unknown order id, bad order request). */
  INVALID_REQUEST: 'invalid-request',
  /** Another paper run works the store's paper account (one at a time per store; exit code 1). */
  PAPER_ACCOUNT_BUSY: 'paper-account-busy',
  /** The strategy already runs live on the store in another process (exit code 1). */
  STRATEGY_RUNNING: 'strategy-running',
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

/** A strategy hook threw: names the strategy and the hook; the original error is the `cause`. */
export class StrategyHookError extends EngineError {
  /**
   * @param strategyId - the strategy whose hook threw
   * @param hook - the hook's name (`onBar`, …)
   * @param cause - what it threw
   * @param strategyClass - the strategy's class: the message names where in its file it threw (` (at
   *   file:line:column)`), when it was loaded from one
   */
  constructor(
    readonly strategyId: string,
    readonly hook: string,
    cause: unknown,
    strategyClass?: object,
  ) {
    const what = cause instanceof Error ? cause.message : String(cause);
    const place = strategyClass === undefined ? '' : throwPlace(cause, strategyClass);
    super(EngineErrorCode.STRATEGY_HOOK_FAILED, `strategy ${strategyId} threw in ${hook}: ${what}${place}`, {
      cause,
      details: { strategyId, hook },
    });
    this.name = 'StrategyHookError';
  }
}
