/**
 * How the broker commands connect: flags, else `HOGA_*` environment variables, validated by the
 * connector's zod schema; the token is shared through the store's SQLite cache (`--db`/`HOGA_DB`)
 * or a private file cache, so a command never revokes the token of a running engine.
 *
 * @module
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  BrokerApiError,
  BrokerClient,
  ConnectorConfigError,
  ConnectorError,
  FileTokenCache,
  parseConnectorConfig,
} from '@hoga/connector';
import { HogaError, type TokenCache } from '@hoga/core';
import { HogaDatabase, resolveDatabasePath, SqliteTokenCache } from '@hoga/store';
import { type Command, Option } from 'commander';

/** Connection flags shared by every broker command. */
export interface ConnectionFlags {
  readonly baseUrl?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly accountSeq?: string;
  /** Older spelling of `accountSeq` (`--account`), still accepted. */
  readonly account?: string;
  readonly db?: string;
  readonly json?: boolean;
}

/**
 * Adds the connection flags and `--json` to a command.
 *
 * @param command - the command
 */
export function withConnection(command: Command): Command {
  return command
    .option('--base-url <url>', 'broker base URL (default $HOGA_BASE_URL)')
    .option('--client-id <id>', 'OAuth client id (default $HOGA_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth client secret (default $HOGA_CLIENT_SECRET)')
    .option(
      '--account-seq <seq>',
      'accountSeq for account-bound calls (default $HOGA_ACCOUNT_SEQ, else the first account)',
    )
    .addOption(new Option('--account <seq>', 'older spelling of --account-seq').hideHelp())
    .option('--db <file>', 'share the token through this hoga database (default $HOGA_DB)')
    .option('--json', 'print JSON instead of a table', false);
}

/** The default token cache file when no database is given (`HOGA_TOKEN_FILE` overrides it). */
export function defaultTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.HOGA_TOKEN_FILE ?? join(homedir(), '.hoga', 'tokens.json');
}

/** A client with what must be closed after it. */
export interface Connection {
  readonly client: BrokerClient;
  close(): void;
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
  const config = parseConnectorConfig({
    baseUrl: flags.baseUrl ?? env.HOGA_BASE_URL,
    clientId: flags.clientId ?? env.HOGA_CLIENT_ID,
    clientSecret: flags.clientSecret ?? env.HOGA_CLIENT_SECRET,
    ...(accountSeq ? { accountSeq } : {}),
  });
  let database: HogaDatabase | null = null;
  let tokenCache: TokenCache;
  if (flags.db !== undefined || (env.HOGA_DB ?? '') !== '') {
    database = HogaDatabase.open(resolveDatabasePath(flags.db, env));
    tokenCache = new SqliteTokenCache(database);
  } else {
    tokenCache = new FileTokenCache(defaultTokenFile(env));
  }
  const client = new BrokerClient({ config, tokenCache });
  return {
    client,
    close() {
      client.close();
      database?.close();
    },
  };
}

/**
 * Runs a command body with a connection and turns failures into readable output and an exit
 * code: 2 for bad configuration, 1 for everything else. Secrets never reach the output.
 *
 * @param flags - the command's flags
 * @param body - what to do with the client; returns the text to print
 */
export async function runWithClient(
  flags: ConnectionFlags,
  body: (client: BrokerClient) => Promise<string>,
): Promise<void> {
  let connection: Connection | null = null;
  try {
    connection = connect(flags);
    const output = await body(connection.client);
    console.log(output);
  } catch (error) {
    reportError(error);
  } finally {
    connection?.close();
  }
}

/**
 * Prints an error as `hoga: <code>: <message> (request <id>)` and sets the exit code.
 *
 * @param error - what went wrong
 */
export function reportError(error: unknown): void {
  if (error instanceof ConnectorConfigError) {
    process.stderr.write(`hoga: invalid connection settings\n${error.pretty}\n`);
    process.exitCode = 2;
    return;
  }
  if (error instanceof BrokerApiError) {
    const status = error.status === 0 ? '' : ` (HTTP ${error.status})`;
    const id = error.requestId === null ? '' : `\nrequest id: ${error.requestId}`;
    process.stderr.write(
      `hoga: ${error.code}${status} from ${error.endpoint}: ${error.brokerMessage}${id}\n`,
    );
  } else if (error instanceof ConnectorError || error instanceof HogaError) {
    process.stderr.write(`hoga: ${error.code}: ${error.message}\n`);
  } else {
    process.stderr.write(`hoga: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exitCode = 1;
}
