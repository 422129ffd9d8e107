/**
 * Ctrl-C (SIGINT) or SIGTERM during `hoga run`'s start-up, before the run is up. Before, Node's
 * default ended the process at once with no word (exit 130 in a shell), whatever the start-up had
 * done by then. Now:
 * - before the engine starts (strategies loaded and checked, the broker and the store read): nothing
 *   was placed, no run was started; said, exit 130 at once;
 * - while the engine starts (the run's lease and stored session taken, the paper account opened,
 *   the strategies' `onStart` and warm-up, which may place orders): the run stops as soon as it is
 *   up, as a stopped run does (onStop, `--cancel-on-stop`, the store flushed, the session stored
 *   `stopped`), then says whether the start placed orders, exit 130; a second signal quits at once.
 *
 * @module
 */

import { counted } from '@hoga/core';
import { ExitCode } from '../runtime/exit-codes.js';
import { releaseStartupInterrupt } from '../runtime/startup-interrupt.js';

/** See the module documentation; {@link StartInterrupt.release} once the run is up. */
export class StartInterrupt {
  private engineStarting = false;
  private signalled = false;
  private readonly onSignal = (): void => {
    if (!this.engineStarting) {
      this.quit('hoga run: interrupted during start-up, before the run started: no order was placed\n');
      return;
    }
    if (this.signalled) {
      this.quit(
        'hoga run: quit at once during start-up: hoga db orders lists any order its strategies placed, and hoga db runs the session\n',
      );
      return;
    }
    this.signalled = true;
    process.stderr.write(
      'hoga run: interrupted during start-up: the run stops as soon as it is up (Ctrl-C again quits at once)\n',
    );
  };

  /** @param cleanUp - what to close before quitting at once (the store, the broker client) */
  constructor(private readonly cleanUp: () => void) {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
    // bin/hoga.js's handler while the code loaded says the same; this one takes over
    releaseStartupInterrupt();
  }

  /** The engine starts the run: a signal from now on stops it once it is up. */
  engineStarts(): void {
    this.engineStarting = true;
  }

  /** Whether a signal came while the engine started (the run is to stop at once). */
  get interrupted(): boolean {
    return this.signalled;
  }

  /** Gives the signals back (idempotent). */
  release(): void {
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
  }

  private quit(message: string): void {
    process.stderr.write(message);
    try {
      this.cleanUp();
    } finally {
      process.exit(ExitCode.INTERRUPTED);
    }
  }
}

/**
 * The last line of a run interrupted while it started, once it stopped.
 *
 * @param placed - the orders its strategies placed (none, most often)
 */
export function interruptedStartLine(placed: number): string {
  const orders =
    placed === 0
      ? 'no order was placed'
      : `its strategies placed ${counted(placed, 'order')} as it started (above)`;
  return `hoga run: interrupted during start-up; the run stopped once it was up: ${orders}\n`;
}
