/**
 * The one place a failure is printed: as `hoga: <sentence>` lines on stderr, or, when the command
 * was asked for `--json`, as one line of JSON on stderr,
 * `{"error":{"code":"…","message":"…","exitCode":2,"hint":"see hoga quote --help"}}`. stdout keeps
 * only results (as gh and kubectl do with their JSON output), so a result half written before the
 * failure is never followed by a second JSON document; the error is the last line of stderr (a
 * retry or warning logged before it is a `hoga: …` line). The exit code is the same either way.
 *
 * @module
 */
import type { Command } from 'commander';
import { cliRuntime } from './cli-runtime.js';
import { ExitCode } from './exit-codes.js';

/** A failure to print: a code for scripts, the sentences for people, the exit code. */
export interface Failure {
  /** The broker's or the file system's code when there is one, else one of {@link codeOfExit}. */
  readonly code: string;
  /** The sentence, then hints (`see hoga quote --help`) and details (`request id: …`). */
  readonly lines: readonly string[];
  readonly exitCode: number;
}

/** The code of a failure that has none of its own, from its exit code. */
export function codeOfExit(exitCode: number): string {
  switch (exitCode) {
    case ExitCode.USAGE:
      return 'usage';
    case ExitCode.DENIED:
      return 'denied';
    case ExitCode.INTERRUPTED:
    case ExitCode.TERMINATED:
      return 'interrupted';
    default:
      return 'failed';
  }
}

/** Whether `command` takes `--json` (a hidden one, refused as `hoga run`'s, does not count). */
export function acceptsJson(command: Command): boolean {
  return command.options.some((o) => o.long === '--json' && o.hidden !== true);
}

/** Whether the arguments ask for `--json` (before a `--`). */
export function asksJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/**
 * The command `args` name (`hoga db runs …` → `db runs`): the deepest subcommand reached by the
 * words before the first that names none.
 */
export function commandOfArgs(program: Command, args: readonly string[]): Command {
  let command = program;
  for (const word of args) {
    if (word === '--') break;
    if (word.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) break;
    command = sub;
  }
  return command;
}

/** The JSON of a failure, one line. */
export function failureJson(failure: Failure, stack?: string): string {
  const [message = '', ...rest] = failure.lines;
  const hint = rest.find((line) => line.startsWith('see hoga '));
  const details = rest.filter((line) => line !== hint);
  return JSON.stringify({
    error: {
      code: failure.code,
      message,
      exitCode: failure.exitCode,
      ...(hint === undefined ? {} : { hint }),
      ...(details.length === 0 ? {} : { details }),
      ...(stack === undefined ? {} : { stack }),
    },
  });
}

/**
 * Prints a failure on stderr: JSON when the command runs with `--json` ({@link cliRuntime}.json),
 * else `<prefix>: <first line>` and the other lines as they are (or prefixed too); the stack under
 * `--verbose`.
 *
 * @param failure - what to print
 * @param options - the text's prefix (default `hoga`), the error whose stack `--verbose` shows
 * @returns the exit code
 */
export function writeFailure(
  failure: Failure,
  options: {
    readonly prefix?: string;
    /** Every line of the text gets the prefix (the `hoga db` commands' reasons), not the first alone. */
    readonly prefixEvery?: boolean;
    readonly error?: unknown;
    readonly write?: (text: string) => void;
  } = {},
): number {
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const error = options.error;
  const stack = cliRuntime.verbose && error instanceof Error ? error.stack : undefined;
  if (cliRuntime.json) {
    write(`${failureJson(failure, stack)}\n`);
    return failure.exitCode;
  }
  const prefix = options.prefix ?? 'hoga';
  const [first, ...rest] = failure.lines;
  const more = rest.map((line) => (options.prefixEvery === true ? `${prefix}: ${line}\n` : `${line}\n`));
  write(`${prefix}: ${first}\n${more.join('')}`);
  if (stack !== undefined) write(`${stack}\n`);
  return failure.exitCode;
}
