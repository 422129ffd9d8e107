/**
 * Writes the simulator's state file (`--state`) one save after another, and reports a save that
 * failed after a committed change instead of failing the request.
 *
 * @module
 */
import { type BrokerageState, writeState } from './state-file.js';

/** Serialised saves of the state file; see the module description. */
export class StateSaver {
  private saving: Promise<void> = Promise.resolve();

  /**
   * @param path - the state file (undefined: saving is a no-op)
   * @param onSaveError - receives a failed save after a change; default writes one line to stderr
   */
  constructor(
    private readonly path: string | undefined,
    private readonly onSaveError?: (error: unknown) => void,
  ) {}

  /**
   * Writes the state (atomic rename) after the saves already queued; a no-op without a path.
   *
   * @param state - builds the state to write (called only when there is a path)
   */
  save(state: () => BrokerageState): Promise<void> {
    const path = this.path;
    if (path === undefined) return Promise.resolve();
    const snapshot = state();
    this.saving = this.saving.catch(() => undefined).then(() => writeState(path, snapshot));
    return this.saving;
  }

  /**
   * Reports a failed save after a committed change (never throws): the change stands in memory.
   *
   * @param save - the save to run
   */
  async reportFailure(save: () => Promise<void>): Promise<void> {
    try {
      await save();
    } catch (error) {
      const report =
        this.onSaveError ??
        ((e: unknown) =>
          process.stderr.write(
            `simulator: could not save the state file ${this.path}: ${String(e)}; the change is kept in memory only\n`,
          ));
      report(error);
    }
  }
}
