/**
 * Where the database file is.
 *
 * @module
 */
import { resolve } from 'node:path';

/** The file used when nothing else is given, relative to the working directory. */
export const DEFAULT_DATABASE_PATH = './data/hoga.sqlite';

/** Environment variable naming the database file. */
export const DATABASE_ENV_VAR = 'HOGA_DB';

/**
 * Chooses the database file: an explicit path (`--db`, or the config file's value), else `HOGA_DB`,
 * else {@link DEFAULT_DATABASE_PATH}. `:memory:` is passed through.
 *
 * @param explicit - the path given on the command line or in the config, if any
 * @param env - the environment (defaults to `process.env`)
 * @returns an absolute path, or `:memory:`
 */
export function resolveDatabasePath(
  explicit?: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const chosen = nonEmpty(explicit) ?? nonEmpty(env[DATABASE_ENV_VAR]) ?? DEFAULT_DATABASE_PATH;
  return chosen === ':memory:' ? chosen : resolve(chosen);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
