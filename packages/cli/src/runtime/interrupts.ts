/**
 * Ctrl-C (SIGINT) and SIGTERM for a long command, the one way every command handles them: the
 * first signal aborts an `AbortSignal` (the command stops gracefully and says what it kept), a
 * second one quits at once, saying so, exit 130 (SIGINT) or 143 (SIGTERM).
 *
 * The listener stays installed from {@link listenForInterrupts} until {@link Interrupts.release},
 * at the command's end, never in a signal's dispatch: the token cache's lock library
 * (proper-lockfile's signal-exit) listens to SIGINT and SIGTERM too and, when its listener runs
 * and finds itself the only one, re-raises the signal, which then kills the process. A
 * `process.once` listener registered before signal-exit's removed itself before signal-exit's ran,
 * so the first Ctrl-C killed the process in the middle of its graceful stop, without a word; one
 * registered after it was safe only by that order, and a SIGTERM without a listener of ours was
 * re-raised at once.
 *
 * @module
 */

import { ExitCode } from './exit-codes.js';

/** The signals a command stops on. */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

const SIGNALS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM'];

/** The exit code of a process ended by `signal`, as a shell shows it (128 + the signal's number). */
export function interruptedExitCode(signal: InterruptSignal): ExitCode {
  return signal === 'SIGTERM' ? ExitCode.TERMINATED : ExitCode.INTERRUPTED;
}

/** What {@link listenForInterrupts} listens on: `process` (a stand-in in unit tests). */
export interface InterruptTarget {
  on(event: InterruptSignal, listener: (signal: InterruptSignal) => void): unknown;
  removeListener(event: InterruptSignal, listener: (signal: InterruptSignal) => void): unknown;
  exit(code: number): void;
  readonly stderr: { write(text: string): unknown };
}

/** Options of {@link listenForInterrupts}. */
export interface InterruptOptions {
  /**
   * The line written when a second signal quits at once (without its newline), read then: a
   * command whose state changes says what holds at that moment.
   */
  readonly quitMessage: string | (() => string);
  /** Called on the first signal, after the signal is aborted (a message, a wake-up). */
  readonly onFirst?: (signal: InterruptSignal) => void;
  /** What to close before quitting at once (the store, the broker client); its errors are ignored. */
  readonly onQuit?: () => void;
  /** Default `process`. */
  readonly target?: InterruptTarget;
}

/** The interrupts of one command: see the module documentation. */
export interface Interrupts {
  /** Aborted on the first SIGINT or SIGTERM (or {@link Interrupts.abort}). */
  readonly signal: AbortSignal;
  /** The first signal received, null before one (or when stopped by {@link Interrupts.abort}). */
  readonly received: InterruptSignal | null;
  /** 130 after SIGINT, 143 after SIGTERM: the exit code of a command the first signal stopped. */
  readonly exitCode: number;
  /** Stops as the first signal does, without one (a closed output): a later signal quits. */
  abort(): void;
  /** Quits at once as a second signal does: the quit message, `onQuit`, exit. */
  quit(signal: InterruptSignal): void;
  /** Removes the listener (idempotent): at the command's end, never in a signal's dispatch. */
  release(): void;
}

/**
 * Listens to SIGINT and SIGTERM until {@link Interrupts.release}: see the module documentation.
 *
 * @param options - the message of a second signal, what to do on the first and before quitting
 */
export function listenForInterrupts(options: InterruptOptions): Interrupts {
  const target = options.target ?? (process as unknown as InterruptTarget);
  const controller = new AbortController();
  let received: InterruptSignal | null = null;
  let released = false;
  const quit = (signal: InterruptSignal): void => {
    const message = typeof options.quitMessage === 'string' ? options.quitMessage : options.quitMessage();
    target.stderr.write(`${message}\n`);
    try {
      options.onQuit?.();
    } catch {
      // quitting: a failed close changes nothing now
    }
    target.exit(interruptedExitCode(signal));
  };
  const listener = (signal: InterruptSignal): void => {
    if (controller.signal.aborted) {
      quit(signal);
      return;
    }
    received = signal;
    controller.abort();
    options.onFirst?.(signal);
  };
  for (const signal of SIGNALS) target.on(signal, listener);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    get exitCode() {
      return interruptedExitCode(received ?? 'SIGINT');
    },
    abort: () => controller.abort(),
    quit,
    release: () => {
      if (released) return;
      released = true;
      for (const signal of SIGNALS) target.removeListener(signal, listener);
    },
  };
}
