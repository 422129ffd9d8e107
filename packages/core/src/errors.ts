/**
 * Error types shared by every hoga package.
 *
 * Each package derives its own base class from {@link HogaError} and gives every error a stable,
 * kebab-case `code` that callers may switch on.
 *
 * @module
 */

/** Options accepted by {@link HogaError} and its subclasses. */
export interface HogaErrorOptions {
  /** The underlying error, if any. */
  readonly cause?: unknown;
  /** Structured, non-secret detail that helps a reader fix the problem. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Base class of every error raised by hoga code.
 *
 * @example
 * ```ts
 * try { parseDecimal('1e5', 'price'); } catch (e) { if (e instanceof HogaError) console.log(e.code); }
 * ```
 */
export class HogaError extends Error {
  /** Stable machine-readable code, kebab-case (e.g. `invalid-decimal`). */
  readonly code: string;
  /** Structured detail, if any. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  /**
   * @param code - stable kebab-case error code
   * @param message - what was expected and what was found
   * @param options - optional cause and details
   */
  constructor(code: string, message: string, options: HogaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
  }
}

/** A value failed validation; `field` names the offending input. */
export class ValidationError extends HogaError {
  /** Name (or dotted path) of the field that was wrong. */
  readonly field: string;

  /**
   * @param field - the offending field
   * @param message - what was expected and what was found
   * @param options - optional cause and details
   * @param code - error code, `invalid-value` unless a subclass narrows it
   */
  constructor(field: string, message: string, options: HogaErrorOptions = {}, code = 'invalid-value') {
    super(code, message, options);
    this.field = field;
  }
}

/** A wire value was not a strict decimal string (code `invalid-decimal`). */
export class DecimalParseError extends ValidationError {
  /** The rejected value, as received. */
  readonly value: unknown;

  /**
   * @param field - the offending field
   * @param value - the rejected value
   */
  constructor(field: string, value: unknown) {
    super(
      field,
      `${field}: expected a decimal string like "72100" or "-0.25", found ${describeValue(value)}`,
      { details: { value: describeValue(value) } },
      'invalid-decimal',
    );
    this.value = value;
  }
}

/** A state machine was asked for a transition its table does not allow (code `illegal-transition`). */
export class IllegalTransitionError extends HogaError {
  /** The state the machine was in. */
  readonly state: string;
  /** The event that was not allowed in that state. */
  readonly event: string;

  /**
   * @param state - current state
   * @param event - the rejected event type
   * @param machine - name of the state machine, for the message
   */
  constructor(state: string, event: string, machine = 'order') {
    super('illegal-transition', `${machine}: event ${event} is not allowed in state ${state}`, {
      details: { state, event },
    });
    this.state = state;
    this.event = event;
  }
}

/**
 * Short, safe description of an arbitrary value for error messages.
 *
 * @param value - any value
 * @returns e.g. `"1e5"` (string, quoted), `number 5`, `null`, `object`
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `${typeof value} ${String(value)}`;
  }
  return Array.isArray(value) ? 'array' : typeof value;
}
