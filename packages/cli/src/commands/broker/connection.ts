/**
 * How the broker commands connect: flags, else `HOGA_*` environment variables, validated by the
 * connector's zod schema; the token is shared through the user's token file, and with `--db`/`HOGA_DB`
 * through the store's SQLite cache as well (both at once), so a command with or without the database
 * never revokes the token of another hoga process on the same client id. With no `--account-seq`
 * or `HOGA_ACCOUNT_SEQ`, the account the connector picks (the broker's first) is remembered in the
 * token file beside the token, so commands run back to back ask the broker for it once.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  BrokerClient,
  type ConnectorConfig,
  FileTokenCache,
  MirroredTokenCache,
  ProcessRateShare,
  parseConnectorConfig,
} from '@hoga/connector';
import type { Clock, Logger, TokenCache } from '@hoga/core';
import { HogaDatabase, resolveDatabasePath, SqliteTokenCache } from '@hoga/store';
import { createCliLogger } from '../../runtime/cli-logger.js';
import { describeError } from '../../runtime/describe-error.js';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';
import { writeFailure } from '../../runtime/failure-output.js';
import { clientSecretOf } from './client-secret.js';
import { type ConnectionFlags, DEFAULT_TIMEOUT_SECONDS } from './connection-flags.js';

export { type ConnectionFlags, DEFAULT_TIMEOUT_SECONDS, withConnection } from './connection-flags.js';

/** The user's token cache file, used by every command (`HOGA_TOKEN_FILE` overrides it). */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOGA_TOKEN_FILE ?? join(homedir(), '.hoga', 'tokens.json');
}

/**
 * This process's share of the client's rate limits among hoga's processes of the same broker and
 * client id (two `hoga run`s, a `hoga data download` beside one: the broker's limits are per client):
 * its file in the `rate-share` folder beside the token file (connector's `ProcessRateShare`).
 *
 * @param config - the broker's address and the client id
 * @param env - the environment (`HOGA_TOKEN_FILE`)
 */
export function rateShareOf(
  config: { readonly baseUrl: string; readonly clientId: string },
  env: NodeJS.ProcessEnv = process.env,
): ProcessRateShare {
  return new ProcessRateShare({
    dir: join(dirname(defaultTokenFile(env)), 'rate-share'),
    baseUrl: config.baseUrl,
    clientId: config.clientId,
  });
}

/** What {@link brokerClientOf} builds a client with beside its configuration. */
export interface BrokerClientSettings {
  /** The environment (`HOGA_TOKEN_FILE`); default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** The store whose token cache mirrors the token file's. */
  readonly database?: HogaDatabase;
  /** The client's clock (`hoga run`: the engine's); default the machine's. */
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/**
 * The broker client of every hoga command and of `hoga run`: its token shared through the user's
 * token file and, given the store, the store's token cache as well (the file first: every hoga
 * process takes its lock, with or without a database), so no process revokes another's token; and
 * this process's share of the client's rate limits ({@link rateShareOf}).
 *
 * @param config - the validated connection settings
 * @param settings - the environment, the store, the clock and the logger
 */
export function brokerClientOf(config: ConnectorConfig, settings: BrokerClientSettings = {}): BrokerClient {
  const env = settings.env ?? process.env;
  const file = new FileTokenCache(defaultTokenFile(env));
  const tokenCache: TokenCache =
    settings.database === undefined
      ? file
      : new MirroredTokenCache([file, new SqliteTokenCache(settings.database)]);
  return new BrokerClient({
    config,
    tokenCache,
    rateShare: rateShareOf(config, env),
    ...(settings.clock === undefined ? {} : { clock: settings.clock }),
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
  });
}

/** A client with what must be closed after it. */
export interface Connection {
  readonly client: BrokerClient;
  close(): void;
}

/**
 * The broker's address and credentials from flags, else `HOGA_*` variables.
 *
 * @throws {@link CliError} (exit 2) naming each one missing
 */
export function connectionSettings(
  flags: ConnectionFlags,
  env: NodeJS.ProcessEnv = process.env,
): { baseUrl: string; clientId: string; clientSecret: string } {
  const settings = {
    baseUrl: flags.baseUrl ?? env.HOGA_BASE_URL,
    clientId: flags.clientId ?? env.HOGA_CLIENT_ID,
    clientSecret: clientSecretOf(flags, env),
  };
  const missing = (
    [
      ['HOGA_BASE_URL', '--base-url', settings.baseUrl],
      ['HOGA_CLIENT_ID', '--client-id', settings.clientId],
      ['HOGA_CLIENT_SECRET', '--client-secret', settings.clientSecret],
    ] as const
  ).filter(([, , value]) => (value ?? '') === '');
  if (missing.length > 0) {
    throw new CliError(
      `${missing.map(([name]) => name).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set: set ${missing.length === 1 ? 'it' : 'them'} in the environment or a .env file, give ${missing.map(([, flag]) => flag).join(', ')}, or use a profile (hoga init, then --profile sim)`,
      ExitCode.USAGE,
    );
  }
  return settings as { baseUrl: string; clientId: string; clientSecret: string };
}

/**
 * Builds a client from flags and environment.
 *
 * @param flags - the command's flags
 * @param env - the environment
 * @throws ConnectorConfigError when the configuration is invalid
 */
export function connect(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Connection {
  const accountSeq = flags.accountSeq ?? flags.account ?? env.HOGA_ACCOUNT_SEQ;
  const timeoutMs = Math.round((flags.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
  const settings = connectionSettings(flags, env);
  const backoffBaseMs = backoffBaseOf(env);
  const config = parseConnectorConfig({
    ...settings,
    ...(accountSeq ? { accountSeq } : {}),
    ...(backoffBaseMs === undefined ? {} : { backoffBaseMs }),
    requestTimeoutMs: Math.max(1, Math.min(10_000, timeoutMs)),
    retryUnreachable: false,
  });
  const dbFile = databaseToShare(flags, env);
  const database = dbFile === undefined ? undefined : HogaDatabase.open(dbFile, { migrate: false });
  const client = brokerClientOf(config, {
    env,
    logger: createCliLogger(),
    ...(database === undefined ? {} : { database }),
  });
  return {
    client,
    close() {
      client.close();
      database?.close();
    },
  };
}

/**
 * `HOGA_BACKOFF_BASE_MS`: the first step of the retry back-off (the connector's 1 s, then 2 s, 4 s,
 * ..., unless set); a test sets it small so that retries it waits out take milliseconds.
 *
 * @throws {@link CliError} (exit 2) when it is not a whole number of milliseconds above 0
 */
export function backoffBaseOf(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.HOGA_BACKOFF_BASE_MS ?? '';
  if (raw === '') return undefined;
  if (!/^[1-9]\d{0,6}$/.test(raw)) {
    throw new CliError(
      `HOGA_BACKOFF_BASE_MS is ${JSON.stringify(raw)}: expected a whole number of milliseconds from 1 to 9999999 (or leave it unset for 1000)`,
      ExitCode.USAGE,
    );
  }
  return Number(raw);
}

/**
 * The database a broker command shares its token through: `--db` must name an existing file (a
 * broker command never creates one: `hoga db migrate` does); `HOGA_DB` is used when its file exists.
 */
function databaseToShare(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.db !== undefined) {
    const file = resolveDatabasePath(flags.db, env);
    if (file !== ':memory:' && !existsSync(file)) {
      throw new CliError(
        `no database at ${file}: create it with hoga db migrate --db ${flags.db}, or leave out --db`,
        ExitCode.USAGE,
      );
    }
    return file;
  }
  if ((env.HOGA_DB ?? '') === '') return undefined;
  const file = resolveDatabasePath(undefined, env);
  return file === ':memory:' || existsSync(file) ? file : undefined;
}

/**
 * Runs a command body with a connection under the `--timeout` deadline, and turns failures into one
 * or two sentences and an exit code (see {@link ExitCode}). Secrets never reach the output.
 *
 * @param flags - the command's flags
 * @param body - what to do with the client; returns the text to print (or nothing when it wrote
 *   its output itself)
 */
export async function runWithClient(
  flags: ConnectionFlags,
  body: (client: BrokerClient, touch: () => void) => Promise<string | undefined>,
): Promise<void> {
  let connection: Connection | null = null;
  let timer: NodeJS.Timeout | undefined;
  const seconds = flags.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  const baseUrl = flags.baseUrl ?? process.env.HOGA_BASE_URL;
  try {
    connection = connect(flags);
    const client = connection.client;
    let expire: () => void = () => undefined;
    const deadline = new Promise<never>((_, reject) => {
      expire = () =>
        reject(
          new CliError(
            `${baseUrl === undefined ? 'the broker' : `the broker at ${baseUrl}`} did not answer within ${seconds} s (--timeout ${seconds}); check the address or give a longer --timeout`,
            ExitCode.FAILURE,
          ),
        );
    });
    // The deadline runs from the start, and again from each sign of progress of a long read.
    const touch = (): void => {
      clearTimeout(timer);
      timer = setTimeout(expire, seconds * 1000);
    };
    touch();
    const output = await Promise.race([body(client, touch), deadline]);
    if (output !== undefined) console.log(output);
  } catch (error) {
    reportError(error, baseUrl === undefined ? {} : { baseUrl });
    if (error instanceof CliError && /did not answer within/.test(error.message)) {
      connection?.close();
      process.exit(process.exitCode);
    }
  } finally {
    clearTimeout(timer);
    connection?.close();
  }
}

/**
 * Prints an error as one or two sentences on stderr (`hoga: …`; one line of JSON under `--json`)
 * and sets the exit code.
 *
 * @param error - what went wrong
 * @param context - the broker address, for network failures
 */
export function reportError(error: unknown, context: { readonly baseUrl?: string } = {}): void {
  process.exitCode = writeFailure(describeError(error, context), { error });
}
