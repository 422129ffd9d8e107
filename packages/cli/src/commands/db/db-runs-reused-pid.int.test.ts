/**
 * `hoga db runs` and `--delete` against backtests left `running` whose pid now belongs to a living
 * process: a real SQLite file, real child processes (idle `node`s this test starts and kills) and
 * the real `hoga` as a child process. A run records its process's start (Linux: the boot id and
 * field 22 of `/proc/<pid>/stat`); a run whose pid lives but under another start (the system gave
 * the crashed run's pid to an unrelated process) is interrupted and deleted, while one whose pid
 * and start are those of the living process is refused, as is one stored without a start (the
 * pid alone is checked). Linux only: elsewhere a run records no start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../../hoga-process.test-helper.js';

let cwd: string;
let home: string;
let file: string;
/** The idle processes started, killed at the end. */
const started: ChildProcess[] = [];

/** `hoga <args>` in the test's directory. */
const run = (args: string[]) => hoga(args, { cwd, env: { HOME: home } });

/**
 * A process's start as a run records it, read here from `/proc` on its own: `<boot id>:<starttime>`
 * (the fields after the last `)`: the command name may hold spaces and parentheses).
 */
function startOf(pid: number | 'self'): string {
  const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): field 22 is fields[19]
  return `${boot}:${fields[19]}`;
}

/** Starts an idle `node` named `title`; resolves once it has taken that name. */
async function idleProcess(title: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['-e', `process.title = ${JSON.stringify(title)}; console.log('ready'); setInterval(() => {}, 1000)`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the idle process ended (${code})`)));
  });
  return child;
}

/** Stores a backtest as started (status `running`) by the given process. */
function storeRunning(runId: string, pid: number, start: string | null): void {
  const db = HogaDatabase.open(file);
  try {
    new RunRepository(db.connection).start({
      runId,
      kind: 'backtest',
      strategyPath: null,
      strategyName: 'Crashed',
      params: {},
      startedAt: Date.parse('2026-11-23T09:00:00+09:00'),
      process: { pid, host: hostname(), start },
    });
  } finally {
    db.close();
  }
}

interface Listed {
  readonly runId: string;
  readonly status: string;
  readonly process: { readonly pid: number; readonly alive: boolean | null } | null;
}

/** The stored runs, as `hoga db runs --json` lists them, by run id. */
async function listed(): Promise<Map<string, Listed>> {
  const list = await run(['db', 'runs', '--db', file, '--json']);
  expect(list.code, list.err).toBe(0);
  return new Map((JSON.parse(list.out) as Listed[]).map((r) => [r.runId, r]));
}

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-db-runs-reused-pid-'));
  home = tempHome();
  file = join(cwd, 'hoga.sqlite');
});
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe.runIf(existsSync('/proc/self/stat'))('hoga db runs of a backtest whose pid was given again', () => {
  it('lists a run whose pid now belongs to another process as interrupted, and deletes it', async () => {
    const other = await idleProcess('unrelated');
    const pid = other.pid as number;
    // the crashed run's process started at another time than the one holding its pid now
    // (this test's process: its start is a real one, and not the idle process's)
    const crashed = startOf('self');
    expect(crashed).not.toBe(startOf(pid));
    storeRunning('reused-pid-run', pid, crashed);

    const shown = (await listed()).get('reused-pid-run');
    expect(shown).toMatchObject({ status: 'running', process: { pid, alive: false } });
    const table = await run(['db', 'runs', '--db', file]);
    expect(table.out).toMatch(/reused-pid-run\s+backtest\s+Crashed\s+interrupted\b/);
    const one = await run(['db', 'runs', '--db', file, '--id', 'reused-pid-run']);
    expect(one.out).toMatch(
      new RegExp(
        `^status +interrupted \\(stored as running; its process ${pid} on this machine is gone\\)$`,
        'm',
      ),
    );

    const del = await run(['db', 'runs', '--db', file, '--delete', 'reused-pid-run']);
    expect(del.code, del.err).toBe(0);
    expect(del.out).toContain('deleted backtest reused-pid-run: 1 run');
    expect((await listed()).has('reused-pid-run')).toBe(false);
    // the unrelated process is left alone
    expect(other.exitCode).toBeNull();
    expect(other.signalCode).toBeNull();
  }, 120_000);

  it('refuses to delete a run whose pid and start are those of a living process (its name holding spaces and parentheses)', async () => {
    const owner = await idleProcess('hoga) 1 (x y');
    const pid = owner.pid as number;
    storeRunning('live-run', pid, startOf(pid));

    expect((await listed()).get('live-run')).toMatchObject({
      status: 'running',
      process: { pid, alive: true },
    });
    const del = await run(['db', 'runs', '--db', file, '--delete', 'live-run']);
    expect(del.code).toBe(2);
    expect(del.err).toContain(`backtest live-run is still running (process ${pid} on this machine)`);
    expect(del.err).toContain('nothing was deleted');
    expect((await listed()).has('live-run')).toBe(true);

    // once that process is gone, the run goes
    owner.kill('SIGKILL');
    await new Promise((resolve) => owner.once('exit', resolve));
    const later = await run(['db', 'runs', '--db', file, '--delete', 'live-run']);
    expect(later.code, later.err).toBe(0);
  }, 120_000);

  it('refuses a run stored without its process start (before migration 12) while its pid lives', async () => {
    const owner = await idleProcess('old-row');
    const pid = owner.pid as number;
    storeRunning('old-run', pid, null);

    expect((await listed()).get('old-run')).toMatchObject({
      status: 'running',
      process: { pid, alive: true },
    });
    const del = await run(['db', 'runs', '--db', file, '--delete', 'old-run']);
    expect(del.code).toBe(2);
    expect(del.err).toContain(`backtest old-run is still running (process ${pid} on this machine)`);
    expect((await listed()).has('old-run')).toBe(true);
  }, 120_000);
});
