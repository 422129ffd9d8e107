/**
 * Paper's creates given and not yet judged ({@link PendingCreates}): kept under the paper account's
 * owner (`strategy_state` of `paper/_account`, key `submitting`, one for all: one paper run per
 * store), where earlier paper runs left them, and settled by `PaperAccount.restoreOrders`.
 *
 * @module
 */
import type { Logger } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { PAPER_STATE_ID } from './paper-store.js';
import { PendingCreates } from './pending-creates.js';

export { RUN_ENDED } from './pending-creates.js';

/** Where the paper creates given and not yet judged are kept (owner {@link PAPER_STATE_ID}). */
const KEY = 'submitting';

/** See the module documentation. */
export class PaperPendingCreates extends PendingCreates {
  /**
   * @param db - the run's store
   * @param log - the paper account's logger
   * @param onError - told of a write the store refused (`paper-store`)
   */
  constructor(db: HogaDatabase, log: Logger, onError?: (error: unknown, where: string) => void) {
    super(
      db,
      log,
      { mode: 'paper', owner: PAPER_STATE_ID, keyOf: () => KEY, venue: 'paper venue', where: 'paper-store' },
      onError,
    );
  }
}
