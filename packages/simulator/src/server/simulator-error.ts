import { HogaError, type HogaErrorOptions } from '@hoga/core';

/**
 * Base class of the simulator's own errors (bad options, bad control-API
 * input given through code). Answers on the wire are `SimApiError`s instead.
 */
export class SimulatorError extends HogaError {
  /** Name of the offending option or argument, when one is to blame. */
  readonly field: string | undefined;

  /**
   * @param code - stable kebab-case code, e.g. `invalid-simulator-option`
   * @param message - what was expected and what was found
   * @param field - the offending option or argument
   * @param options - optional cause and details
   */
  constructor(code: string, message: string, field?: string, options: HogaErrorOptions = {}) {
    super(code, message, options);
    this.field = field;
  }
}
