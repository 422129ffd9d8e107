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
 * SIGTERM does the same, its exit code 143.
 *
 * @module
 */

import { counted } from '@hoga/core';
import { type InterruptSignal, type Interrupts, listenForInterrupts } from '../runtime/interrupts.js';
import { releaseStartupInterrupt } from '../runtime/startup-interrupt.js';

/** Where the run is: what a signal does depends on it. */
type Phase = 'loading' | 'engine-starting' | 'up';

/**
 * See the module documentation; once the run is up ({@link StartInterrupt.runIsUp}) the same
 * listener stops it on the first signal and quits on the second, until
 * {@link StartInterrupt.release} at the command's end (runtime/interrupts.ts: never in between).
 */
export class StartInterrupt {
  private phase: Phase = 'loading';
  private onStop: () => void = () => undefined;
  private readonly interrupts: Interrupts;

  /** @param cleanUp - what to close before quitting at once (the store, the broker client) */
  constructor(cleanUp: () => void) {
    this.interrupts = listenForInterrupts({
      quitMessage: () => QUIT_MESSAGES[this.phase],
      onFirst: (signal) => this.first(signal),
      onQuit: cleanUp,
    });
    // bin/hoga.js's handler while the code loaded says the same; this one takes over
    releaseStartupInterrupt();
  }

  /** The engine starts the run: a signal from now on stops it once it is up. */
  engineStarts(): void {
    this.phase = 'engine-starting';
  }

  /**
   * The run is up: a first signal from now on calls `onStop`, a second quits at once.
   *
   * @param onStop - stops the run
   */
  runIsUp(onStop: () => void): void {
    this.phase = 'up';
    this.onStop = onStop;
  }

  /** Whether a signal came (while the engine started: the run is to stop at once). */
  get interrupted(): boolean {
    return this.interrupts.signal.aborted;
  }

  /** The exit code of a run the first signal stopped: 130 after Ctrl-C, 143 after SIGTERM. */
  get exitCode(): number {
    return this.interrupts.exitCode;
  }

  /** Gives the signals back (idempotent): at the command's end. */
  release(): void {
    this.interrupts.release();
  }

  private first(signal: InterruptSignal): void {
    switch (this.phase) {
      case 'loading':
        this.interrupts.quit(signal);
        return;
      case 'engine-starting':
        process.stderr.write(
          'hoga run: interrupted during start-up: the run stops as soon as it is up (Ctrl-C again quits at once)\n',
        );
        return;
      case 'up':
        this.onStop();
        return;
    }
  }
}

/** What quitting at once says, by phase (in `loading`, on the first signal). */
const QUIT_MESSAGES: Readonly<Record<Phase, string>> = {
  loading: 'hoga run: interrupted during start-up, before the run started: no order was placed',
  'engine-starting':
    'hoga run: quit at once during start-up: hoga db orders lists any order its strategies placed, and hoga db runs the session',
  up: 'hoga run: interrupted again: quitting at once; the orders and fills so far are in the store (stored as they came), open orders stay with the broker',
};

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
