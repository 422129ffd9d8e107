/**
 * What every command that opens the store says of a `--db` (or `HOGA_DB`) that names a directory:
 * one message, each command raising it through its own error channel as a usage error (exit 2).
 * SQLite's own `EISDIR` would end the command as an unexpected error (exit 1).
 *
 * @module
 */
import { existsSync, statSync } from 'node:fs';

/**
 * `<file> is a directory: give --db the path of a database file` when the database path names a
 * directory; undefined otherwise (a file, nothing there yet, or `:memory:`).
 *
 * @param file - the resolved database path
 */
export function directoryDatabase(file: string): string | undefined {
  if (file === ':memory:' || !existsSync(file) || !statSync(file).isDirectory()) return undefined;
  return `${file} is a directory: give --db the path of a database file`;
}
