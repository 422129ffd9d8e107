/**
 * `hoga init`: writes a commented `hoga.config.json` with the profiles `sim` and `live`, a `.env`
 * template for the live credentials, and a `.gitignore` entry so the secrets never reach git.
 *
 * @module
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE } from '../config/profile.js';
import { CliError, ExitCode } from '../runtime/exit-codes.js';

/** The config file `hoga init` writes. */
export const CONFIG_TEMPLATE = `// hoga configuration, written by \`hoga init\`. Lines starting with // are comments.
// Pick a profile with --profile NAME (or HOGA_PROFILE); without one, "defaultProfile" is used.
// Environment variables (HOGA_BASE_URL, HOGA_CLIENT_ID, HOGA_CLIENT_SECRET, HOGA_CLIENT_SECRET_FILE,
// HOGA_ACCOUNT_SEQ, HOGA_DB, HOGA_TOKEN_FILE) override these values. Keep real secrets out of this file: put them in
// .env (hoga loads it; git ignores it) or in the environment.
{
  "defaultProfile": "sim",
  "profiles": {
    // The built-in simulator: start it with \`hoga sim\` (it listens on 127.0.0.1:18080 and accepts
    // these demo credentials). Paths are relative to this file.
    "sim": {
      "baseUrl": "http://127.0.0.1:18080",
      "clientId": "sim-client",
      "clientSecret": "sim-secret",
      "db": "./data/sim.sqlite"
    },
    // The real broker. HOGA_CLIENT_ID and HOGA_CLIENT_SECRET come from .env or the environment
    // (or "clientSecretFile": "<file>", a file whose first line is the secret, kept out of git);
    // set baseUrl to the address your broker gave you.
    "live": {
      "baseUrl": "https://openapi.example.com",
      "db": "./data/live.sqlite"
    }
  }
}
`;

/** The `.env` template (values left empty). */
export const DOTENV_TEMPLATE = `# Secrets for the "live" profile of hoga.config.json. hoga loads this file; git ignores it.
HOGA_CLIENT_ID=
HOGA_CLIENT_SECRET=
# HOGA_ACCOUNT_SEQ=1
`;

/** What `hoga init` adds to `.gitignore`. */
const IGNORED = ['.env', 'data/'];

/**
 * Writes the files in `dir`.
 *
 * @param dir - target directory (made when missing)
 * @param force - overwrite an existing config file
 * @returns one line per file written or left alone
 */
export function initProject(dir: string, force: boolean): string[] {
  const lines: string[] = [];
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new CliError(`--dir ${dir} is a file, not a directory`, ExitCode.USAGE);
  }
  // a new project's directory (before: '…/hoga.config.json does not exist')
  mkdirSync(dir, { recursive: true });
  const config = join(dir, CONFIG_FILE);
  if (existsSync(config) && !force) {
    throw new CliError(`${config} already exists; give --force to overwrite it`, ExitCode.USAGE, {
      helpFor: 'init',
    });
  }
  writeFileSync(config, CONFIG_TEMPLATE);
  lines.push(`wrote ${config} (profiles: sim, live; default sim)`);
  const dotenv = join(dir, '.env');
  if (existsSync(dotenv)) lines.push(`kept ${dotenv}`);
  else {
    writeFileSync(dotenv, DOTENV_TEMPLATE, { mode: 0o600 });
    lines.push(`wrote ${dotenv} (fill in HOGA_CLIENT_ID and HOGA_CLIENT_SECRET for the live profile)`);
  }
  const gitignore = join(dir, '.gitignore');
  const present = existsSync(gitignore)
    ? readFileSync(gitignore, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim())
    : [];
  const missing = IGNORED.filter((entry) => !present.includes(entry));
  if (missing.length > 0) {
    const text = existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '';
    const sep = text === '' || text.endsWith('\n') ? '' : '\n';
    appendFileSync(gitignore, `${sep}# hoga: secrets and local data\n${missing.join('\n')}\n`);
    lines.push(`added ${missing.join(', ')} to ${gitignore}`);
  }
  // hoga reads hoga.config.json from the working directory: a project made elsewhere is gone into first
  const where = relative(process.cwd(), dir);
  const cd = where === '' ? '' : `cd ${where.includes(' ') ? JSON.stringify(where) : where}, then: `;
  lines.push(`next: ${cd}hoga sim   (in another terminal), then: hoga quote 005930`);
  return lines;
}

/** Registers `hoga init`. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('write hoga.config.json (profiles sim and live), a .env template and .gitignore entries')
    .option('--dir <dir>', 'where to write, made when missing (default: the working directory)')
    .option('--force', 'overwrite an existing hoga.config.json', false)
    .action((flags: { dir?: string; force: boolean }) => {
      for (const line of initProject(resolve(flags.dir ?? '.'), flags.force)) console.log(line);
    });
}
