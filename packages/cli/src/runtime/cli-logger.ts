/**
 * The logger of a command run: see {@link createCliLogger}.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { createLogger, type Logger } from '@hoga/core';
import { cliRuntime, humanLine, LEVEL_NAMES } from './cli-runtime.js';

/**
 * A logger whose records go to `show` (a record and its pino level number), and every record as a
 * JSON line to `--log-file`; debug and up are recorded with `--verbose` or `--log-file`, else
 * from `quietLevel` up.
 */
function cliLogger(
  quietLevel: 'info' | 'warn',
  show: (record: Record<string, unknown>, level: number) => void,
): Logger {
  const { verbose, logFile } = cliRuntime;
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
      if (logFile !== undefined) {
        appendFileSync(logFile, `${JSON.stringify({ ...record, level: LEVEL_NAMES[level] ?? level })}\n`);
      }
    },
  };
  return createLogger({ level: verbose || logFile !== undefined ? 'debug' : quietLevel, destination });
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
    if (record.component === 'strategy' && level >= 30) {
      const { strategyId, ...rest } = record;
      const tag = level >= 50 ? 'error' : level >= 40 ? 'warn ' : 'log  ';
      print(`${at()} ${tag}  ${String(strategyId)}: ${humanLine(rest)}`);
    } else if (cliRuntime.verbose || level >= 30) {
      process.stderr.write(`hoga: ${humanLine(record)}\n`);
    }
  });
}
