/**
 * The strategy id `manual`: `hoga order` records its orders under it unless `--strategy` names
 * another, so a live strategy of that id takes over the orders, fills and positions placed by hand.
 * `hoga run` refuses it unless `--take-over-manual` asks for it, and says so at the start when it
 * does. A paper run shares nothing with `hoga order` (live orders only): `manual` is any id there.
 *
 * @module
 */
import { usageError } from '../runtime/exit-codes.js';

/** The strategy `hoga order` counts an order against when `--strategy` names none. */
export const MANUAL_STRATEGY_ID = 'manual';

/**
 * Checks the run's strategy ids against `manual`, before anything connects.
 *
 * @param mode - the run's mode
 * @param ids - the strategies' ids
 * @param takeOver - `--take-over-manual`
 * @returns the warning to print at the start (the takeover asked for, or the flag with nothing to
 *   take over), or `null`
 * @throws {@link CliError} (usage) for a live strategy of id `manual` without `--take-over-manual`
 */
export function manualIdWarning(
  mode: 'live' | 'paper',
  ids: readonly string[],
  takeOver: boolean,
): string | null {
  const manual = mode === 'live' && ids.includes(MANUAL_STRATEGY_ID);
  if (manual && !takeOver) {
    throw usageError(
      `strategy id ${MANUAL_STRATEGY_ID} is hoga order's (its orders without --strategy are recorded under it): ` +
        'a live strategy of that id takes over the orders placed by hand, works the open ones as its own (--cancel-on-stop cancels them), starts from the positions bought by hand and counts them in its risk limits; ' +
        'give the strategy another id (FILE.ts:ID), or --take-over-manual if that is what you want',
      'run',
    );
  }
  if (manual) {
    return (
      "hoga run: strategy manual takes over hoga order's orders, fills and positions (--take-over-manual): " +
      "it works the open orders placed by hand as its own, starts from the positions bought by hand, and takes hoga order's orders placed while it runs (without --strategy) for its own"
    );
  }
  if (takeOver) {
    return `hoga run: --take-over-manual: no strategy of id ${MANUAL_STRATEGY_ID} runs live here, so nothing of hoga order's is taken over`;
  }
  return null;
}
