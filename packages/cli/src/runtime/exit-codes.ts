/**
 * The exit codes of `hoga`: one table, printed in the README and docs/cli.md.
 *
 * @module
 */
import { HogaError } from '@hoga/core';

/** Every exit code `hoga` uses. */
export const ExitCode = {
  /** The command did what was asked. */
  OK: 0,
  /** The command ran and failed: the broker refused or was unreachable, a file could not be read. */
  FAILURE: 1,
  /** Bad usage or configuration: an unknown flag, a bad value, a missing variable or file. */
  USAGE: 2,
  /** The risk checks denied an order. */
  DENIED: 3,
  /**
   * Stopped by Ctrl-C: a download (what it stored stays, rerun to resume), a backtest (stored as
   * stopped), a `hoga run` still starting, any command while its code loads (bin/hoga.js). A
   * `hoga run` that is up stops cleanly and exits 0. A second Ctrl-C quits at once (interrupts.ts).
   */
  INTERRUPTED: 130,
  /** Stopped by SIGTERM where Ctrl-C exits 130 (a download, a backtest, a run still starting), or quit by a second one. */
  TERMINATED: 143,
} as const;
/** One of {@link ExitCode}. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit-code table as the README and docs/cli.md show it (generated from here). */
export const EXIT_CODE_TABLE: readonly (readonly [ExitCode, string])[] = [
  [ExitCode.OK, 'success'],
  [ExitCode.FAILURE, 'the command failed: broker error or unreachable, timeout, unreadable file'],
  [ExitCode.USAGE, 'bad usage or configuration: unknown flag, bad value, missing variable or file'],
  [ExitCode.DENIED, 'an order was denied by the risk checks'],
  [
    ExitCode.INTERRUPTED,
    'interrupted by Ctrl-C: `hoga data download` and `hoga backtest` (what a download stored stays; a backtest is stored as stopped), ' +
      '`hoga run` during its start-up (it says whether an order was placed), any command while its code still loads (it says so, before it did anything); ' +
      'a `hoga run` that is up stops cleanly on Ctrl-C and exits 0 (`hoga start`, `hoga sim` too); a second Ctrl-C while these stop quits at once, saying so; other commands end at once',
  ],
  [
    ExitCode.TERMINATED,
    'stopped by SIGTERM, which these commands take as Ctrl-C: where Ctrl-C exits 130, `hoga data download`, `hoga backtest` and `hoga run` during its start-up ' +
      'exit 143, and so does a second signal that quits at once when it is SIGTERM',
  ],
];

/**
 * Base class of every error the CLI raises itself: one or two sentences for the user, an exit code,
 * and optionally the command whose `--help` to point at.
 */
export class CliError extends HogaError {
  /**
   * @param message - what is wrong and what to do, naming the file or value
   * @param exitCode - see {@link ExitCode}
   * @param options - the command for a `see hoga <cmd> --help` hint, and the cause
   */
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.FAILURE,
    readonly options: { readonly helpFor?: string; readonly cause?: unknown } = {},
  ) {
    super('cli-error', message, options.cause === undefined ? {} : { cause: options.cause });
  }
}

/**
 * A bad flag or argument (exit 2).
 *
 * @param message - the one problem
 * @param command - the command (`quote`, `db info`) whose help to point at
 */
export function usageError(message: string, command?: string): CliError {
  return new CliError(message, ExitCode.USAGE, command === undefined ? {} : { helpFor: command });
}
