/**
 * The logger of a command run: see {@link createCliLogger}.
 *
 * @module
 */
import { appendFileSync, chmodSync, statSync } from 'node:fs';
import { type Clock, createLogger, formatKst, type Logger, toKst } from '@hoga/core';
import { cliRuntime, humanLine, LEVEL_NAMES } from './cli-runtime.js';

/**
 * A logger whose records go to `show` (a record and its pino level number), and every record as a
 * JSON line to `--log-file`; debug and up are recorded with `--verbose` or `--log-file`, else
 * from `quietLevel` up. With `engineTime`, each file record also holds the engine's time then
 * (`engineTime`, ISO 8601): a backtest's records are written long after the instants they are about.
 */
function cliLogger(
  quietLevel: 'info' | 'warn',
  show: (record: Record<string, unknown>, level: number) => void,
  engineTime?: () => string,
): Logger {
  const { verbose, logFile } = cliRuntime;
  let fileBroken = false;
  let fileChecked = false;
  const destination = {
    write(line: string): void {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      const level = typeof record.level === 'number' ? record.level : 30;
      show(record, level);
      if (logFile !== undefined && !fileBroken) {
        const stamped: Record<string, unknown> = { ...record, level: LEVEL_NAMES[level] ?? level };
        if (engineTime !== undefined) stamped.engineTime = engineTime();
        if (!fileChecked) {
          fileChecked = true;
          keepLogFilePrivate(logFile);
        }
        try {
          // Created readable by its owner only: it holds the account's orders, fills and positions.
          appendFileSync(logFile, `${JSON.stringify(stamped)}\n`, { mode: 0o600 });
        } catch (error) {
          // A log call must not throw into its caller (a strategy's hook, an order's path): the
          // run goes on without the file, and says so once.
          fileBroken = true;
          process.stderr.write(
            `hoga: --log-file ${logFile} cannot be written (${fileFailure(error)}); records are no longer written to it\n`,
          );
        }
      }
    },
  };
  return createLogger({ level: verbose || logFile !== undefined ? 'debug' : quietLevel, destination });
}

/**
 * An existing log file group or others can read is made 0600 before the first record goes to it
 * when it is the user's (the records hold the account's orders, fills and positions); one that is
 * not the user's is left as it is and named on stderr with its mode. A new file is made 0600 by
 * the append itself.
 */
function keepLogFilePrivate(file: string): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(file);
  } catch {
    return;
  }
  if (!stat.isFile() || (stat.mode & 0o077) === 0) return;
  if (stat.uid === process.getuid?.()) {
    try {
      chmodSync(file, 0o600);
      return;
    } catch {
      // told below, as for a file of another user
    }
  }
  const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
  process.stderr.write(
    `hoga: --log-file ${file} can be read by other users (mode ${mode}) and hoga may not change that: its records hold the account's orders and positions; chmod 600 it or give another file\n`,
  );
}

/** Words for the usual reasons a log file stops taking records. */
const FILE_FAILURES: Readonly<Record<string, string>> = {
  EISDIR: 'is a directory',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EROFS: 'read-only file system',
  ENOENT: 'its directory is gone',
  EIO: 'input/output error',
};

/** `CODE: words` of a failed append (or its message when it has no code). */
function fileFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error instanceof Error ? error.message : String(error);
  const words = FILE_FAILURES[code];
  return words === undefined ? code : `${code}: ${words}`;
}

/**
 * The logger the connector gets: warnings (retries) always on stderr, everything from debug up with
 * `--verbose`, and every record as a JSON line in `--log-file`.
 */
export function createCliLogger(): Logger {
  return cliLogger('warn', (record, level) => {
    if (cliRuntime.verbose || level >= 40) process.stderr.write(`hoga: ${humanLine(record)}\n`);
  });
}

/**
 * The engine's logger in `hoga run` and `hoga start`: a strategy's own records (its `ctx.log`) from
 * info up as lines of the run's output (`10:02:08 log    Chase: chasing (price=70300)`), the
 * engine's records from info up on stderr, everything from debug up on stderr with `--verbose`, and
 * every record as a JSON line in `--log-file`.
 *
 * @param print - writes one line of the run's output
 * @param at - the engine time of a line (`HH:mm:ss`)
 */
export function createRunLogger(print: (line: string) => void, at: () => string): Logger {
  return cliLogger('info', (record, level) => {
    if (record.component === 'strategy' && level >= 30) print(strategyLine(record, level, at()));
    else if (cliRuntime.verbose || level >= 30) process.stderr.write(`hoga: ${humanLine(record)}\n`);
  });
}

/**
 * The engine's logger in `hoga backtest`: a strategy's own records from info up on stderr, stamped
 * with the backtest's time (`hoga: 2025-01-06 15:30:00 KST log    Sma: crossed (price=70300)`;
 * stdout holds the results), the engine's as {@link createCliLogger} shows them, and every record
 * as a JSON line in `--log-file` with the backtest's time as `engineTime`.
 *
 * @param clock - the backtest's virtual clock
 */
export function createBacktestLogger(clock: Clock): Logger {
  const at = () => `${toKst(clock.now()).toFormat('yyyy-MM-dd HH:mm:ss')} KST`;
  return cliLogger(
    'info',
    (record, level) => {
      if (record.component === 'strategy' && level >= 30) {
        process.stderr.write(`hoga: ${strategyLine(record, level, at())}\n`);
      } else if (cliRuntime.verbose || level >= 40) process.stderr.write(`hoga: ${humanLine(record)}\n`);
    },
    () => formatKst(clock.now()),
  );
}

/** One line of a strategy's record: `<at> log    <strategyId>: <message> (<fields>)`. */
function strategyLine(record: Record<string, unknown>, level: number, at: string): string {
  const { strategyId, ...rest } = record;
  const tag = level >= 50 ? 'error' : level >= 40 ? 'warn ' : 'log  ';
  return `${at} ${tag}  ${String(strategyId)}: ${humanLine(rest)}`;
}
