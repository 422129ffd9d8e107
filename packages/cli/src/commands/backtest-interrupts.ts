/**
 * Ctrl-C (SIGINT) and SIGTERM for the whole of `hoga backtest`: one listener (runtime/interrupts.ts)
 * from the action's start to its end. Before, each step (the download of the bars, the reading of
 * the USD/KRW rates, the run) installed its own and removed it after, and a signal in between
 * (while the strategies loaded, while the instruments were read) found no listener of hoga's and
 * killed the process by the signal, without a word.
 *
 * The first signal stops the step under way, or the next one to start, which says what was kept;
 * the command exits 130 (SIGTERM 143). A second one quits at once, saying so.
 *
 * @module
 */

import { cliRuntime } from '../runtime/cli-runtime.js';
import { CliError, type ExitCode } from '../runtime/exit-codes.js';
import { interruptedExitCode, listenForInterrupts } from '../runtime/interrupts.js';

/** What a second Ctrl-C or SIGTERM says as it quits (exit 130, SIGTERM 143). */
const QUIT_MESSAGE = 'hoga backtest: interrupted again: quitting at once';

/** What a signal before the first step says. */
export const NOTHING_RUN = 'interrupted before the backtest ran: no bar was downloaded and no run stored';

/** The interrupts of one `hoga backtest`: see the module documentation. */
export interface BacktestInterrupts {
  /** Aborted by the first signal, or by a closed output during the run. */
  readonly signal: AbortSignal;
  /** 130 after SIGINT (or a closed output), 143 after SIGTERM. */
  readonly exitCode: ExitCode;
  /** Whether the run was stopped by its output closing (`… 2>&1 | head`), not by a signal. */
  readonly outputClosed: boolean;
  /** Throws the interrupted error saying `message` when a signal came. */
  check(message: string): void;
  /**
   * Runs a step before the run, stopped by the signal: when it was (before it began, or it fails
   * once stopped), the interrupted error saying `message` (what was kept, where).
   */
  step<T>(step: (signal: AbortSignal) => Promise<T>, message: string): Promise<T>;
  /**
   * From here the run: the first signal says it stops after the current bar (the strategies'
   * `onStop` run, the run stored as `stopped`), and a closed stdout or stderr stops it too.
   */
  running(): void;
  /**
   * The run is over: a closed output ends the process quietly again, and a signal while the report
   * prints changes nothing (the listener stays until {@link BacktestInterrupts.release}).
   */
  ran(): void;
  /** Gives the signals back (idempotent): at the command's end. */
  release(): void;
}

/** Listens for SIGINT and SIGTERM until {@link BacktestInterrupts.release}. */
export function listenForBacktestInterrupts(): BacktestInterrupts {
  let running = false;
  let outputClosed = false;
  const interrupts = listenForInterrupts({
    quitMessage: QUIT_MESSAGE,
    onFirst: () => {
      if (running) {
        process.stderr.write(
          'hoga: stopping the backtest after the current bar (Ctrl-C again quits at once)\n',
        );
      }
    },
  });
  const ran = (): void => {
    if (!running) return;
    running = false;
    cliRuntime.onStdoutClosed = undefined;
  };
  const exitCode = () => interruptedExitCode(interrupts.received ?? 'SIGINT');
  const check = (message: string): void => {
    if (interrupts.signal.aborted) throw new CliError(message, exitCode());
  };
  return {
    signal: interrupts.signal,
    get exitCode() {
      return exitCode();
    },
    get outputClosed() {
      return outputClosed;
    },
    check,
    step: async (step, message) => {
      check(message);
      try {
        return await step(interrupts.signal);
      } catch (error) {
        if (!interrupts.signal.aborted) throw error;
        throw new CliError(message, exitCode(), { cause: error });
      }
    },
    running: () => {
      running = true;
      cliRuntime.onStdoutClosed = () => {
        outputClosed = true;
        interrupts.abort();
      };
    },
    ran,
    release: () => {
      interrupts.release();
      ran();
    },
  };
}
