/**
 * A broker rule's answer: accepted, or refused with the broker's code, its HTTP status, a message
 * and the `data` hint the broker would send. Rules return verdicts; they never throw for a refusal.
 *
 * @module
 */
import { type BrokerErrorCode, brokerErrorStatus } from './broker-error-codes.js';

/** A refusal: what the broker would answer. */
export interface BrokerRefusal {
  readonly accepted: false;
  /** The broker's error code. */
  readonly code: BrokerErrorCode;
  /** Its HTTP status. */
  readonly status: number;
  /** One sentence saying what was wrong. */
  readonly message: string;
  /** The `error.data` hint (`field`, `constraint`, limits, …); absent when the broker sends none. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Accepted. */
export interface BrokerAcceptance {
  readonly accepted: true;
}

/** The answer of a broker rule. */
export type BrokerVerdict = BrokerAcceptance | BrokerRefusal;

/** The one accepted verdict. */
export const ACCEPTED: BrokerAcceptance = Object.freeze({ accepted: true });

/**
 * A refusal with the status of `code` from the error table.
 *
 * @param code - the broker's code
 * @param message - what was expected and what was found
 * @param data - the `error.data` hint, if the broker sends one
 */
export function refuse(
  code: BrokerErrorCode,
  message: string,
  data?: Readonly<Record<string, unknown>>,
): BrokerRefusal {
  const base = { accepted: false as const, code, status: brokerErrorStatus(code), message };
  return data === undefined ? base : { ...base, data };
}

/**
 * A 400 `invalid-request` naming the offending field (`data.field`), with any further hint.
 *
 * @param field - the wire field (or `a,b` for a pair)
 * @param message - what was expected and what was found
 * @param data - further hints (`constraint`, `allowedConditions`, …)
 */
export function invalidRequest(
  field: string,
  message: string,
  data?: Readonly<Record<string, unknown>>,
): BrokerRefusal {
  return refuse('invalid-request', message, { field, ...data });
}

/**
 * Runs checks in order and answers the first refusal, or {@link ACCEPTED}.
 *
 * @param checks - thunks, each returning a verdict
 */
export function firstRefusal(...checks: ReadonlyArray<() => BrokerVerdict>): BrokerVerdict {
  for (const check of checks) {
    const verdict = check();
    if (!verdict.accepted) return verdict;
  }
  return ACCEPTED;
}
