/**
 * The ledger's error: corrupt bookings (selling what is not held) fail fast.
 *
 * @module
 */
import { HogaError, type HogaErrorOptions } from '@hoga/core';

/** Stable codes of {@link LedgerError}. */
export const LedgerErrorCode = {
  /** A sell of more than the holding (or of a symbol not held). */
  OVERSOLD: 'ledger-oversold',
  /** A snapshot naming a currency that is neither KRW nor USD. */
  UNKNOWN_CURRENCY: 'ledger-unknown-currency',
} as const;
/** A {@link LedgerErrorCode} value. */
export type LedgerErrorCode = (typeof LedgerErrorCode)[keyof typeof LedgerErrorCode];

/** A booking the ledger cannot make: a programmer error or corrupt data, never a business refusal. */
export class LedgerError extends HogaError {
  /**
   * @param code - what went wrong
   * @param message - what was expected and what was found
   * @param options - cause and details
   */
  constructor(code: LedgerErrorCode, message: string, options: HogaErrorOptions = {}) {
    super(code, message, options);
  }
}
