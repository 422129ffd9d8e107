/**
 * Turns any failure into one or two sentences and an exit code. No stack traces unless `--verbose`.
 *
 * @module
 */
import { BrokerApiError, ConnectorConfigError, NetworkError } from '@hoga/connector';
import { HogaError } from '@hoga/core';
import { CliError, ExitCode } from './exit-codes.js';
import { codeOfExit } from './failure-output.js';

/** `@hoga/store`'s `StoreErrorCode.DATABASE_LOCKED` (not imported here: the store loads SQLite). */
const DATABASE_LOCKED = 'database-locked';

/** What the user is told. */
export interface ErrorReport {
  /** For scripts (`--json`): the broker's, the connector's or the file system's code, else from the exit code. */
  readonly code: string;
  readonly lines: readonly string[];
  readonly exitCode: ExitCode;
}

/**
 * The engine's code of a strategy that threw (`EngineErrorCode.STRATEGY_HOOK_FAILED`; the engine is
 * loaded only by the commands that run one).
 */
const STRATEGY_HOOK_FAILED = 'strategy-hook-failed';

/**
 * The engine's code of a run's unusable options (`EngineErrorCode.INVALID_RUN_OPTIONS`): bad usage,
 * exit 2, as a bad config is. `hoga run` meets it for a strategy id the store keeps the engine's own
 * state under (`__risk__`, `_account` in paper), refused before the run starts; its message names
 * the id and what to do.
 */
const INVALID_RUN_OPTIONS = 'invalid-run-options';

/** Environment variable of each connector setting. */
const ENV_OF: Readonly<Record<string, string>> = {
  baseUrl: 'HOGA_BASE_URL',
  clientId: 'HOGA_CLIENT_ID',
  clientSecret: 'HOGA_CLIENT_SECRET',
  accountSeq: 'HOGA_ACCOUNT_SEQ',
};

/** Flag of each connector setting. */
const FLAG_OF: Readonly<Record<string, string>> = {
  baseUrl: '--base-url',
  clientId: '--client-id',
  clientSecret: '--client-secret',
  accountSeq: '--account-seq',
};

/**
 * Describes a failure.
 *
 * @param error - what was thrown
 * @param context - the broker address, for network failures
 */
export function describeError(error: unknown, context: { readonly baseUrl?: string } = {}): ErrorReport {
  if (error instanceof CliError) {
    const hint = error.options.helpFor === undefined ? [] : [`see hoga ${error.options.helpFor} --help`];
    return { code: codeOfExit(error.exitCode), lines: [error.message, ...hint], exitCode: error.exitCode };
  }
  if (error instanceof ConnectorConfigError) return configReport(error);
  if (error instanceof NetworkError) {
    return { code: networkCode(error), lines: [networkSentence(error, context.baseUrl)], exitCode: 1 };
  }
  if (error instanceof BrokerApiError) {
    const status = error.status === 0 ? '' : ` (HTTP ${error.status})`;
    const id = error.requestId === null ? [] : [`request id: ${error.requestId}`];
    return {
      code: error.code,
      lines: [`${error.code}${status} from ${error.endpoint}: ${error.brokerMessage}`, ...id],
      exitCode: ExitCode.FAILURE,
    };
  }
  const fs = fileReport(error);
  if (fs !== null) return fs;
  const sqlite = sqliteReport(error);
  if (sqlite !== null) return sqlite;
  if (error instanceof HogaError) {
    // a strategy's failure already says which strategy, where and what (as a hook's does)
    if (error.code === STRATEGY_HOOK_FAILED) {
      return { code: error.code, lines: [error.message], exitCode: ExitCode.FAILURE };
    }
    // a locked file's message names the file, the lock and the way out: its code is for scripts
    if (error.code === DATABASE_LOCKED) {
      return { code: error.code, lines: [error.message], exitCode: ExitCode.FAILURE };
    }
    if (error.code === INVALID_RUN_OPTIONS) {
      return { code: error.code, lines: [error.message], exitCode: ExitCode.USAGE };
    }
    return { code: error.code, lines: [`${error.code}: ${error.message}`], exitCode: ExitCode.FAILURE };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'unexpected',
    lines: [`unexpected error: ${message}`, 'run again with --verbose to see where it happened'],
    exitCode: ExitCode.FAILURE,
  };
}

function configReport(error: ConnectorConfigError): ErrorReport {
  const lines = error.issues.map((issue) => {
    const [field = '', ...rest] = issue.split(': ');
    const env = ENV_OF[field];
    const flag = FLAG_OF[field];
    const message = rest.join(': ');
    if (env === undefined || flag === undefined) return `invalid setting ${issue}`;
    if (/received undefined|required/i.test(message)) {
      return `${env} is not set: set it in the environment or a .env file, give ${flag}, or use --profile (see hoga init)`;
    }
    return `${field} is invalid (${env} or ${flag}): ${message}`;
  });
  return { code: error.code, lines, exitCode: ExitCode.USAGE };
}

/** Socket error codes that mean the address is wrong or nothing listens there. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * The address a socket error names (`127.0.0.1:18080`, or the host name it could not resolve), for
 * a failure reported without the broker's base URL (a backtest's or a run's client).
 */
function causeAddress(
  cause: { address?: unknown; port?: unknown; hostname?: unknown } | undefined,
): string | null {
  if (typeof cause?.address === 'string') {
    return typeof cause.port === 'number' ? `${cause.address}:${cause.port}` : cause.address;
  }
  return typeof cause?.hostname === 'string' ? cause.hostname : null;
}

/** A network failure's code: the socket's (`ECONNREFUSED`) when it has one, else the connector's. */
function networkCode(error: NetworkError): string {
  const cause = error.cause as { code?: unknown } | undefined;
  return typeof cause?.code === 'string' ? cause.code : error.code;
}

function networkSentence(error: NetworkError, baseUrl: string | undefined): string {
  const cause = error.cause as
    | { code?: unknown; message?: unknown; address?: unknown; port?: unknown; hostname?: unknown }
    | undefined;
  const address = baseUrl ?? causeAddress(cause);
  const where = address === null ? 'the broker' : `the broker at ${address}`;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (UNREACHABLE.has(code)) {
    // the address may come from a profile of hoga.config.json (hoga init writes one), not only
    // from the variable or the flag
    return `${where} is not reachable (${code}): check the address (HOGA_BASE_URL, --base-url or the profile's baseUrl in hoga.config.json) and that the broker is running`;
  }
  if (
    code.startsWith('ERR_SSL') ||
    code === 'EPROTO' ||
    /ssl|tls|certificate/i.test(String(cause?.message ?? ''))
  ) {
    return `${where} did not speak TLS (${code || 'TLS error'}): for a plain HTTP server such as the simulator use an http:// address`;
  }
  if (error.code === 'network-timeout') {
    return `${where} did not answer ${error.endpoint} in time: ${error.brokerMessage} (raise --timeout, or check the broker)`;
  }
  if (error.code === 'network-aborted') {
    return `${where} did not answer in time (${error.brokerMessage}); give a longer --timeout to wait longer`;
  }
  return `${where} failed: ${error.brokerMessage} (${error.endpoint})`;
}

const FS_WORDS: Readonly<Record<string, string>> = {
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'is not in a directory (a part of the path is a file)',
  EACCES: 'cannot be accessed: permission denied (check the file and its directory)',
  EPERM: 'cannot be changed: operation not permitted',
  EROFS: 'is on a read-only file system',
  ENOENT: 'does not exist',
  ENOSPC: 'cannot be written: the disk is full',
};

function fileReport(error: unknown): ErrorReport | null {
  const e = error as { code?: unknown; path?: unknown; cause?: unknown } | null;
  if (e === null || typeof e !== 'object') return null;
  const inner = e.cause as { code?: unknown; path?: unknown } | undefined;
  const code =
    typeof e.code === 'string' && FS_WORDS[e.code]
      ? e.code
      : typeof inner?.code === 'string'
        ? inner.code
        : '';
  const path = typeof e.path === 'string' ? e.path : typeof inner?.path === 'string' ? inner.path : undefined;
  const words = FS_WORDS[code];
  if (words === undefined || path === undefined) return null;
  const usage = code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOENT';
  return { code, lines: [`${path} ${words}`], exitCode: usage ? ExitCode.USAGE : ExitCode.FAILURE };
}

/**
 * A SQLite error met while reading or writing the rows of an open database (the store checks the
 * file when it opens it; a page damaged inside a table shows only when read, a full disk only when
 * written): the store's code `corrupt-database`, or the file system's `ENOSPC` / `EIO`, and what to
 * run or check. A failed write is a rolled-back transaction: what was stored before stays.
 */
function sqliteReport(error: unknown): ErrorReport | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof Error) || typeof code !== 'string') return null;
  const failure = (report: string, line: string): ErrorReport => ({
    code: report,
    lines: [line],
    exitCode: ExitCode.FAILURE,
  });
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
    return failure(
      'corrupt-database',
      `the database file is damaged (SQLite: ${error.message}): hoga db info --db <file> runs its integrity ` +
        'check; restore the file from a backup',
    );
  }
  if (code.startsWith('SQLITE_BUSY')) {
    return failure(
      DATABASE_LOCKED,
      `the database is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout (SQLite: ${error.message}): run the command again when it is done`,
    );
  }
  if (code === 'SQLITE_FULL') {
    return failure(
      'ENOSPC',
      `the database could not be written: the disk is full (SQLite: ${error.message}); free some space and ` +
        'run the command again (what was stored before stays)',
    );
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return failure(
      'EIO',
      `the database could not be written: ${error.message} (${code}): is the disk full, or a file-size ` +
        'limit (ulimit -f) reached? What was stored before stays',
    );
  }
  return null;
}
