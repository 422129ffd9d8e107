/**
 * The logger of a command run: see {@link createCliLogger}.
 *
 * @module
 */
import { appendFileSync } from 'node:fs';
import { createLogger, type Logger } from '@hoga/core';
import { cliRuntime, humanLine, LEVEL_NAMES } from './cli-runtime.js';

/**
 * The logger the connector gets: warnings (retries) always on stderr, everything from debug up with
 * `--verbose`, and every record as a JSON line in `--log-file`.
 */
export function createCliLogger(): Logger {
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
      if (verbose || level >= 40) process.stderr.write(`hoga: ${humanLine(record)}\n`);
      if (logFile !== undefined) {
        appendFileSync(logFile, `${JSON.stringify({ ...record, level: LEVEL_NAMES[level] ?? level })}\n`);
      }
    },
  };
  return createLogger({ level: verbose || logFile !== undefined ? 'debug' : 'warn', destination });
}
