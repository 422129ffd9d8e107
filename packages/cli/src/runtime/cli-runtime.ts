/**
 * What every command shares at run time: the `-v/--verbose` and `--log-file` settings and the
 * logger built from them, which shows retries, and with `--verbose` rate-limit waits and token
 * refreshes too (never a secret: the core logger redacts tokens and secrets).
 *
 * @module
 */

/** Settings taken from the common flags before a command runs. */
export interface CliRuntime {
  verbose: boolean;
  logFile: string | undefined;
  /**
   * What a long-running command does when its stdout or stderr closes (`hoga run … | head`,
   * `hoga backtest … 2>&1 | head`): stop as on Ctrl-C. Without one, a closed stdout or stderr
   * ends the process quietly with exit 0.
   */
  onStdoutClosed?: (() => void) | undefined;
  /**
   * Whether the process ends when the command is done (commands that run strategy code: a timer or
   * an interval a strategy left running would otherwise keep the process alive after the
   * backtest's report, or after `hoga run` stopped). Other commands end when nothing is left to do
   * (`hoga sim` keeps serving after its action returns).
   */
  endWhenDone: boolean;
  /**
   * Whether failures print as JSON: the command takes `--json` and was given it (see
   * `failure-output.ts`). Set from the arguments before parsing, and again before the action.
   */
  json: boolean;
}

/** The commands that run strategy code (see {@link CliRuntime.endWhenDone}). */
export const STRATEGY_COMMANDS: ReadonlySet<string> = new Set(['backtest', 'run', 'start']);

/** The settings of this run (set by the program's pre-action hook). */
export const cliRuntime: CliRuntime = {
  verbose: false,
  logFile: undefined,
  endWhenDone: false,
  json: false,
};

/** pino level numbers and their names. */
export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * One log record as a line for people: `retrying in 2 s (attempt 2 of 4)…` for retries, the
 * message and its fields otherwise.
 *
 * @param record - a pino record
 */
export function humanLine(record: Record<string, unknown>): string {
  const msg = String(record.msg ?? '');
  const endpoint = typeof record.endpoint === 'string' ? `${record.endpoint}: ` : '';
  if (msg === 'retrying' && typeof record.delayMs === 'number') {
    const seconds =
      record.delayMs >= 1000 ? `${Math.round(record.delayMs / 1000)} s` : `${record.delayMs} ms`;
    const of = typeof record.of === 'number' ? ` of ${record.of}` : '';
    const why = typeof record.code === 'string' ? ` after ${record.code}` : '';
    return `${endpoint}retrying in ${seconds} (attempt ${Number(record.attempt) + 1}${of})${why}…`;
  }
  const skip = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'component', 'endpoint', 'name']);
  const fields = Object.entries(record)
    .filter(([key]) => !skip.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${endpoint}${msg}${fields.length === 0 ? '' : ` (${fields.join(', ')})`}`;
}

/**
 * The logger of this run (see `cli-logger.ts`), loaded lazily so the light start-up path stays
 * free of pino.
 */
export async function createCliLogger(): Promise<import('@hoga/core').Logger> {
  return (await import('./cli-logger.js')).createCliLogger();
}
