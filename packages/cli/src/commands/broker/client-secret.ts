/**
 * Where the client secret comes from: `--client-secret <secret>` (seen by every user in `ps`),
 * `--client-secret -` (stdin), `--client-secret-file <file>`, else `$HOGA_CLIENT_SECRET`, else
 * `$HOGA_CLIENT_SECRET_FILE`. The secret is only read, never stored or printed, and taken out of
 * the environment once the command starts ({@link holdClientSecret}).
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { CliError, ExitCode } from '../../runtime/exit-codes.js';
import type { ConnectionFlags } from './connection-flags.js';

/** The first line of `text`, without its line ending and surrounding blanks. */
function firstLine(text: string): string {
  return (text.split(/\r?\n/, 1)[0] ?? '').trim();
}

/** Why `text` gave no secret: nothing in it, or a blank first line. */
function blank(text: string): string {
  return text.trim() === ''
    ? 'is empty (expected the client secret on its first line)'
    : 'has a blank first line (expected the client secret there)';
}

function usage(message: string): CliError {
  return new CliError(message, ExitCode.USAGE);
}

/**
 * Reads the secret from the first line of `file`.
 *
 * @param file - the path
 * @param source - the flag or variable that named it, for messages
 * @throws {@link CliError} (exit 2) when the file is missing, unreadable, a directory or empty
 */
function fromFile(file: string, source: string): string {
  let text: string;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw usage(`${source}: ${file} is a directory, not a file`);
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
      process.stderr.write(
        `hoga: warning: ${source}: ${file} may be read by other users (mode ${mode}); chmod 600 it\n`,
      );
    }
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? 'cannot be read' : String(code);
    throw usage(`${source}: ${file} ${why}`);
  }
  const secret = firstLine(text);
  if (secret === '') throw usage(`${source}: ${file} ${blank(text)}`);
  return secret;
}

/** The secret read from stdin: stdin is read once, however many clients a command makes. */
let stdinSecret: string | undefined;

/** Reads the secret from stdin (`--client-secret -`), refusing a terminal: it would echo the secret. */
function fromStdin(): string {
  if (stdinSecret !== undefined) return stdinSecret;
  if (process.stdin.isTTY === true) {
    throw usage(
      '--client-secret -: stdin is a terminal; pipe the secret in (e.g. pass show broker | hoga ... --client-secret -) or use --client-secret-file',
    );
  }
  let text: string;
  try {
    text = readFileSync(0, 'utf8');
  } catch (error) {
    throw usage(`--client-secret -: stdin cannot be read (${(error as { code?: unknown }).code ?? error})`);
  }
  const secret = firstLine(text);
  if (secret === '') throw usage(`--client-secret -: stdin ${blank(text)}`);
  stdinSecret = secret;
  return secret;
}

/** `HOGA_CLIENT_SECRET` as the command started with it (see {@link holdClientSecret}). */
let heldSecret: string | undefined;

/**
 * Takes `HOGA_CLIENT_SECRET` (exported, or loaded from a `.env` file or a profile) out of `env`
 * and keeps it for {@link clientSecretOf}: a process the command starts (a strategy's notifier or
 * model) never inherits it.
 *
 * @param env - the environment (process.env), once `.env` and the profile are loaded into it
 */
export function holdClientSecret(env: NodeJS.ProcessEnv): void {
  heldSecret = env.HOGA_CLIENT_SECRET;
  delete env.HOGA_CLIENT_SECRET;
}

/**
 * The client secret the flags and the environment give, or undefined when none does.
 *
 * @param flags - the command's flags
 * @param env - the environment
 * @throws {@link CliError} (exit 2) when both flags are given, or a file or stdin holds no secret
 */
export function clientSecretOf(flags: ConnectionFlags, env: NodeJS.ProcessEnv): string | undefined {
  if (flags.clientSecret !== undefined && flags.clientSecretFile !== undefined) {
    throw usage('--client-secret and --client-secret-file: give one of them, not both');
  }
  if (flags.clientSecret === '-') return fromStdin();
  if (flags.clientSecret !== undefined) return flags.clientSecret;
  if (flags.clientSecretFile !== undefined) return fromFile(flags.clientSecretFile, '--client-secret-file');
  const fromEnv = env.HOGA_CLIENT_SECRET ?? heldSecret;
  if ((fromEnv ?? '') !== '') return fromEnv;
  const file = env.HOGA_CLIENT_SECRET_FILE ?? '';
  return file === '' ? undefined : fromFile(file, 'HOGA_CLIENT_SECRET_FILE');
}
