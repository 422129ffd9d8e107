/**
 * Runs the program once and turns every failure into a short message and an exit code from the
 * one table in {@link ExitCode}. A closed stdout or stderr (`hoga candles … | head`) ends quietly
 * with 0; a long-running command (`hoga run`, `hoga backtest`) that registered
 * `cliRuntime.onStdoutClosed` stops as on Ctrl-C instead.
 *
 * @module
 */
import { CommanderError } from 'commander';
import { createProgram } from './program.js';
import { cliRuntime } from './runtime/cli-runtime.js';
import { ExitCode } from './runtime/exit-codes.js';
import { acceptsJson, asksJson, commandOfArgs, writeFailure } from './runtime/failure-output.js';

/**
 * Parses `argv` and runs the command.
 *
 * @param argv - `process.argv`
 * @returns the exit code
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  let closed = false;
  // stdout, or stderr (where a backtest's strategy log lines go: `hoga backtest … 2>&1 | head`;
  // before, its close threw EPIPE there, exit 1, and the stored run was left `running`)
  const onOutputError = (error: NodeJS.ErrnoException): void => {
    // once closed, later writes to it fail too: their lines go nowhere
    if (closed) return;
    if (error.code !== 'EPIPE') throw error;
    closed = true;
    // a long-running command stops as on Ctrl-C; the others end here, with the code of a failure
    // already said (its message met the closed stderr: before, exit 0 read it as done)
    const stop = cliRuntime.onStdoutClosed;
    if (stop === undefined) process.exit(process.exitCode ?? ExitCode.OK);
    stop();
  };
  process.stdout.on('error', onOutputError);
  process.stderr.on('error', onOutputError);
  try {
    const program = createProgram();
    // a failure found while parsing, before the action, prints as JSON too when asked for
    const args = argv.slice(2);
    cliRuntime.json = asksJson(args) && acceptsJson(commandOfArgs(program, args));
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    return reportFailure(error);
  }
}

/**
 * Prints a failure on stderr as `hoga: <sentence>` (with the stack under `--verbose`), or as one
 * line of JSON under `--json` (see `runtime/failure-output.ts`).
 *
 * @param error - what was thrown
 * @param context - the broker address, for network failures
 * @returns the exit code
 */
export async function reportFailure(error: unknown, context: { baseUrl?: string } = {}): Promise<number> {
  const { describeError } = await import('./runtime/describe-error.js');
  return writeFailure(describeError(error, context), { error });
}
