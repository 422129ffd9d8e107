/**
 * The connection flags of the broker commands, as a command declares them: a module of its own,
 * which loads nothing but commander, so that declaring the commands at start-up does not load the
 * connector (see `connection.ts`, imported when a command runs).
 *
 * @module
 */
import { type Command, Option } from 'commander';
import { decimalFlag } from '../number-flags.js';

/** Connection flags shared by every broker command. */
export interface ConnectionFlags {
  readonly baseUrl?: string;
  readonly clientId?: string;
  /** `-` reads it from stdin. */
  readonly clientSecret?: string;
  /** File whose first line is the client secret. */
  readonly clientSecretFile?: string;
  readonly accountSeq?: string;
  /** Older spelling of `accountSeq` (`--account`), still accepted. */
  readonly account?: string;
  readonly db?: string;
  readonly json?: boolean;
  /** `--csv`: comma-separated values instead of a table. */
  readonly csv?: boolean;
  /** `--timeout`: overall deadline of the command in seconds (default 30). */
  readonly timeout?: number;
}

/** Default of `--timeout` in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

const seconds = decimalFlag(0.1, 86_400, { what: 'seconds' });

/**
 * Adds the connection flags and `--json` to a command.
 *
 * @param command - the command
 */
export function withConnection(command: Command): Command {
  return command
    .option('--base-url <url>', 'broker base URL (default $HOGA_BASE_URL)')
    .option('--client-id <id>', 'OAuth client id (default $HOGA_CLIENT_ID)')
    .option(
      '--client-secret-file <file>',
      'read the OAuth client secret from the first line of this file (default $HOGA_CLIENT_SECRET_FILE)',
    )
    .option(
      '--client-secret <secret>',
      'OAuth client secret, "-" to read it from stdin (default $HOGA_CLIENT_SECRET); prefer stdin, --client-secret-file or the environment: a secret given here is visible to other users in ps',
    )
    .option(
      '--account-seq <seq>',
      'accountSeq for account-bound calls (default $HOGA_ACCOUNT_SEQ, else the first account)',
    )
    .addOption(new Option('--account <seq>', 'older spelling of --account-seq').hideHelp())
    .option('--db <file>', 'also share the token through this existing hoga database (default $HOGA_DB)')
    .option(
      '--timeout <seconds>',
      'give up when the broker has not answered by then',
      seconds,
      DEFAULT_TIMEOUT_SECONDS,
    )
    .option('--json', 'print JSON instead of a table', false)
    .option('--csv', 'print CSV instead of a table', false);
}

/**
 * Describes `--db` of a command that keeps what it does in the database (and makes it when
 * missing), instead of the read-only broker commands' "also share the token" description.
 *
 * @param command - a command given the connection flags by {@link withConnection}
 * @param holds - what the command keeps there, e.g. "the run's orders, fills and runs"
 */
export function describeStoreDb(command: Command, holds: string): Command {
  for (const option of command.options) {
    if (option.long === '--db') {
      option.description = `database of ${holds}, made when missing (default $HOGA_DB, else the profile's db, else ./data/hoga.sqlite)`;
    }
  }
  return command;
}
