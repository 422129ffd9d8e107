/**
 * Profiles: `hoga.config.json` (JSON with `//` comment lines, written by `hoga init`) holds named
 * profiles; a `.env` file beside it (or in the working directory) holds secrets. Choosing a profile
 * fills the `HOGA_*` variables that are not already set: the environment always wins.
 *
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CliError, ExitCode } from '../runtime/exit-codes.js';

/** The config file's name. */
export const CONFIG_FILE = 'hoga.config.json';

/** One profile as the file holds it. */
export interface Profile {
  readonly baseUrl?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** A file whose first line is the client secret (relative to the config file). */
  readonly clientSecretFile?: string;
  readonly accountSeq?: string | number;
  readonly db?: string;
  readonly tokenFile?: string;
}

/** The environment variable each profile key fills. */
export const PROFILE_ENV: Readonly<Record<keyof Profile, string>> = {
  baseUrl: 'HOGA_BASE_URL',
  clientId: 'HOGA_CLIENT_ID',
  clientSecret: 'HOGA_CLIENT_SECRET',
  clientSecretFile: 'HOGA_CLIENT_SECRET_FILE',
  accountSeq: 'HOGA_ACCOUNT_SEQ',
  db: 'HOGA_DB',
  tokenFile: 'HOGA_TOKEN_FILE',
};

/** Keys holding paths, resolved against the config file's directory. */
const PATH_KEYS = new Set<keyof Profile>(['db', 'tokenFile', 'clientSecretFile']);

/**
 * Finds the config file: `HOGA_CONFIG`, else `hoga.config.json` in the working directory or the
 * nearest parent.
 *
 * @param cwd - where to start
 * @param env - the environment
 */
export function findConfigFile(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  if ((env.HOGA_CONFIG ?? '') !== '') return resolve(cwd, env.HOGA_CONFIG!);
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The text of a config or `.env` file; one that cannot be read (a directory, no permission) is a
 * usage error naming it, where Node's own `EISDIR` ended the command as an unexpected error.
 */
function readSettingsFile(file: string, hint: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new CliError(
      `cannot read ${file}${typeof code === 'string' ? ` (${code})` : ''}${hint === '' ? '' : `: ${hint}`}`,
      ExitCode.USAGE,
    );
  }
}

/**
 * Parses a `.env` file: `NAME=value` lines, `#` comments, optional quotes.
 *
 * @param text - the file's text
 */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (match === null) continue;
    let value = match[2]!.trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    out[match[1]!] = value;
  }
  return out;
}

/**
 * V8's words for a JSON text it cannot parse, without the text it may quote (the file may hold the
 * client secret): `Unexpected token 'L', ..."ntSecret":LIVE-SECRE"... is not valid JSON` becomes
 * `unexpected character at line 4 column 23`; its other words name a position and quote nothing.
 */
function jsonProblem(message: string, json: string): string {
  const quoted = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON$/.exec(
    message,
  );
  if (quoted === null) return message;
  const [, bad = '', lead, snippet = '', trail] = quoted;
  const start = json.indexOf(snippet);
  // V8 quotes the 10 characters before the bad one (fewer at the start) and up to 10 after it
  const at =
    start === -1
      ? -1
      : lead !== undefined
        ? start + 10
        : trail !== undefined
          ? start + snippet.length - 10
          : json.indexOf(bad, start);
  if (at === -1) return 'unexpected character';
  const before = json.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `unexpected character at line ${line} column ${column}`;
}

/**
 * Parses the config file's text (JSON with whole-line `//` comments).
 *
 * @param text - the text
 * @param file - its path, for messages
 */
export function parseConfig(
  text: string,
  file: string,
): { defaultProfile?: string; profiles: Record<string, Profile> } {
  // comment lines left blank, not removed: V8's line numbers are the file's
  const json = text
    .split(/\r?\n/)
    .map((line) => (line.trim().startsWith('//') ? '' : line))
    .join('\n');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new CliError(
      `${file} is not valid JSON (${jsonProblem((error as Error).message, json)}); fix it or write a new one with hoga init --force`,
      ExitCode.USAGE,
    );
  }
  const profiles = (parsed as { profiles?: unknown }).profiles;
  if (typeof profiles !== 'object' || profiles === null) {
    throw new CliError(
      `${file} has no "profiles" object; write a new one with hoga init --force`,
      ExitCode.USAGE,
    );
  }
  const defaultProfile = (parsed as { defaultProfile?: unknown }).defaultProfile;
  if (defaultProfile !== undefined && defaultProfile !== null && typeof defaultProfile !== 'string') {
    throw new CliError(
      `${file}: defaultProfile: expected the name of one of its profiles, found ${shown(defaultProfile)}`,
      ExitCode.USAGE,
    );
  }
  return {
    profiles: profiles as Record<string, Profile>,
    ...(typeof defaultProfile === 'string' ? { defaultProfile } : {}),
  };
}

/**
 * Warns on stderr when a `.env` file holding the client secret may be read by other users (as
 * `hoga init` writes it, it may not: mode 0600).
 */
function warnIfSecretExposed(envFile: string, values: Readonly<Record<string, string>>): void {
  if ((values.HOGA_CLIENT_SECRET ?? '') === '') return;
  const mode = statSync(envFile).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  process.stderr.write(
    `hoga: warning: ${envFile} holds HOGA_CLIENT_SECRET and may be read by other users (mode ${mode.toString(8).padStart(4, '0')}); chmod 600 it\n`,
  );
}

/**
 * Loads `.env` and the chosen profile into `env`, never overriding a variable that is set.
 *
 * @param profileName - `--profile`, else `HOGA_PROFILE`, else the file's `defaultProfile`
 * @param cwd - the working directory
 * @param env - the environment to fill (process.env)
 * @returns the profile used and the config file, if any
 * @throws CliError (exit 2) when a profile is asked for and cannot be found
 */
export function applyProfile(
  profileName: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { profile?: string; file?: string } {
  const file = findConfigFile(cwd, env);
  const envFiles = [join(cwd, '.env')];
  if (file !== undefined) envFiles.unshift(join(dirname(file), '.env'));
  for (const envFile of new Set(envFiles)) {
    if (!existsSync(envFile)) continue;
    const values = parseDotEnv(readSettingsFile(envFile, ''));
    warnIfSecretExposed(envFile, values);
    for (const [name, value] of Object.entries(values)) {
      if (env[name] === undefined) env[name] = value;
    }
  }
  const asked = profileName ?? (env.HOGA_PROFILE || undefined);
  if (file === undefined || !existsSync(file)) {
    if (asked !== undefined) {
      throw new CliError(
        `profile "${asked}" asked for, but there is no ${CONFIG_FILE} here or above (create one with hoga init)`,
        ExitCode.USAGE,
      );
    }
    return {};
  }
  const config = parseConfig(readSettingsFile(file, `give HOGA_CONFIG or a ${CONFIG_FILE} file`), file);
  const name = asked ?? config.defaultProfile;
  if (name === undefined) return { file };
  const profile = config.profiles[name];
  if (profile === undefined) {
    throw new CliError(
      `${file} has no profile "${name}" (it has ${Object.keys(config.profiles).join(', ') || 'none'})`,
      ExitCode.USAGE,
    );
  }
  checkProfile(profile, name, file);
  for (const [key, variable] of Object.entries(PROFILE_ENV) as [keyof Profile, string][]) {
    const value = profile[key];
    if (value === undefined || value === null || (env[variable] ?? '') !== '') continue;
    env[variable] = PATH_KEYS.has(key) ? resolve(dirname(file), String(value)) : String(value);
  }
  return { profile: name, file };
}

/** A value as a message shows it (text quoted, anything else as JSON writes it). */
function shown(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

/**
 * Refuses a profile that is not an object, a key no profile has (a typo, `baseURL`, would
 * otherwise leave its setting unset without a word) and a value of the wrong type (`"db": 5` was
 * used as the path `5`); null values are taken as unset.
 *
 * @throws CliError (exit 2) naming the file, the profile, the key and what was expected
 */
function checkProfile(profile: unknown, name: string, file: string): asserts profile is Profile {
  const problem = (what: string) => new CliError(`${file}: profile "${name}": ${what}`, ExitCode.USAGE);
  const keys = Object.keys(PROFILE_ENV);
  if (typeof profile !== 'object' || profile === null || Array.isArray(profile)) {
    throw problem(`expected an object (of ${keys.slice(0, 2).join(', ')}, …), found ${shown(profile)}`);
  }
  for (const [key, value] of Object.entries(profile)) {
    if (!keys.includes(key)) throw problem(`unknown key ${key} (a profile has ${keys.join(', ')})`);
    if (value === null || value === undefined || typeof value === 'string') continue;
    if (key === 'accountSeq') {
      if (typeof value === 'number' && Number.isSafeInteger(value)) continue;
      throw problem(`${key}: expected a string or a whole number, found ${shown(value)}`);
    }
    throw problem(`${key}: expected a string, found ${shown(value)}`);
  }
}
