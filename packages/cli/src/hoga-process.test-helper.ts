/**
 * Runs the real `hoga` (bin/hoga.js) as a child process, the way a user does, with a clean
 * environment: no inherited `HOGA_*`, `HOME` in a temporary directory (so the token cache never
 * touches the real one), no colour unless asked.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The `hoga` executable. */
export const HOGA_BIN = join(import.meta.dirname, '..', 'bin', 'hoga.js');

/** The repository root. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/** What a run printed and how it ended. */
export interface HogaRun {
  readonly out: string;
  readonly err: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Options of {@link hoga}. */
export interface HogaOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** Run as this uid/gid (root only: to test files the user may not write). */
  readonly uid?: number;
  readonly gid?: number;
  /** The Node binary (default this process's). */
  readonly node?: string;
  /** Kill after this many ms (default 60 s). */
  readonly killAfterMs?: number;
  /** Written to the child's stdin, which is then closed (default: no stdin). */
  readonly input?: string;
  /** Called with the child once it runs (to send signals, close pipes). */
  readonly onSpawn?: (child: import('node:child_process').ChildProcess) => void;
}

/** An `onSpawn` that sends `signal` to the child once its stderr has shown `text` (again after each signal). */
export function signalWhenStderrShows(
  text: string,
  signal: NodeJS.Signals,
): (child: import('node:child_process').ChildProcess) => void {
  return (child) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      if (seen.includes(text)) {
        seen = '';
        child.kill(signal);
      }
    });
  };
}

/**
 * A copy of this Node binary that any user may run (the original may sit under /root), for tests
 * that run hoga as another user. Made once per machine and reused.
 */
export function nodeForAnyUser(): string {
  const dir = join(tmpdir(), 'hoga-node-any-user');
  const target = join(dir, 'node');
  if (existsSync(target) && statSync(target).size === statSync(process.execPath).size) return target;
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const partial = `${target}.${process.pid}`;
  copyFileSync(process.execPath, partial);
  renameSync(partial, target);
  return target;
}

/**
 * This process's environment without any `HOGA_*` variable, for a child `hoga` whose settings a
 * test gives itself: a `HOGA_PROFILE`, `HOGA_TOKEN_FILE` or `HOGA_DB` exported in the developer's
 * shell must not reach it.
 */
export function envWithoutHoga(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('HOGA_')) env[name] = value;
  return env;
}

/** A fresh HOME for one test file. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'hoga-home-'));
}

/**
 * Runs `hoga <args>`.
 *
 * @param args - arguments
 * @param options - environment, directory, user
 */
export function hoga(args: readonly string[], options: HogaOptions = {}): Promise<HogaRun> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('HOGA_') && !name.startsWith('npm_') && name !== 'INIT_CWD') {
      env[name] = value;
    }
  }
  env.NO_COLOR = '1';
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  env.HOME ??= tempHome();
  return new Promise((resolve, reject) => {
    const child = spawn(options.node ?? process.execPath, [HOGA_BIN, ...args], {
      cwd: options.cwd ?? tmpdir(),
      env,
      stdio: [(options.input === undefined ? 'ignore' : 'pipe') as 'pipe', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.stdout.on('error', () => {});
    if (options.input !== undefined) {
      child.stdin?.on('error', () => {});
      child.stdin?.end(options.input);
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        out: Buffer.concat(out).toString('utf8'),
        err: Buffer.concat(err).toString('utf8'),
        code,
        signal,
      });
    });
    options.onSpawn?.(child);
  });
}

/** The connection flags of a simulator. */
export function simFlags(url: string): string[] {
  return ['--base-url', url, '--client-id', 'sim-client', '--client-secret', 'sim-secret'];
}

/** A failure as `--json` prints it (docs/cli.md, "Exit codes and errors"). */
export interface JsonFailure {
  readonly code: string;
  readonly message: string;
  readonly exitCode: number;
  readonly hint?: string;
  readonly details?: readonly string[];
}

/** The failure a `--json` run printed: the last line of its stderr, parsed (throws when it is not JSON). */
export function jsonFailure(stderr: string): JsonFailure {
  return (JSON.parse(stderr.trimEnd().split('\n').at(-1) ?? '') as { error: JsonFailure }).error;
}

/** A `--json` run's failure as its text form would say it: the message, then its details, a line each. */
export function failureText(stderr: string): string {
  const failure = jsonFailure(stderr);
  return [failure.message, ...(failure.details ?? []), ...(failure.hint === undefined ? [] : [failure.hint])]
    .map((line) => `${line}\n`)
    .join('');
}
