/**
 * `hoga db runs --delete` and `--delete-backtests --before` against a backtest that is still
 * running: a real `hoga backtest` child process held at a bar (its strategy waits for a file) in
 * the same SQLite file. Its rows are kept while its process lives (exit 2, the message names the run
 * and its pid), and it finishes and stores its run whole; a backtest whose process was killed
 * (still `running` in the store) is listed as interrupted and deleted.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatKst } from '@hoga/core';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HogaRun, hoga, tempHome } from '../../hoga-process.test-helper.js';
import { ROOT } from '../backtest-runs.test-helper.js';

const WAITS = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'waits-for-file.ts');

let cwd: string;
let home: string;
let file: string;
/** The backtests started, stopped at the end if a failed test left one waiting. */
const started: ChildProcess[] = [];

/** `hoga <args>` in the test's directory. */
const run = (args: string[], onSpawn?: (child: ChildProcess) => void) =>
  hoga(args, {
    cwd,
    env: { HOME: home },
    killAfterMs: 120_000,
    ...(onSpawn === undefined ? {} : { onSpawn }),
  });

interface Listed {
  readonly runId: string;
  readonly status: string;
  readonly process: { readonly pid: number; readonly host: string; readonly alive: boolean | null } | null;
}

/** The stored runs, as `hoga db runs --json` lists them. */
async function listed(): Promise<Listed[]> {
  const list = await run(['db', 'runs', '--db', file, '--json']);
  expect(list.code, list.err).toBe(0);
  return JSON.parse(list.out) as Listed[];
}

/**
 * Starts `hoga backtest` with the waiting strategy; resolves once it waits (its run stored as
 * `running`) with the child and the promise of its end. `release` is the file that lets it go on.
 */
async function waitingBacktest(release: string): Promise<{ child: ChildProcess; ended: Promise<HogaRun> }> {
  const config = join(cwd, `${release}.json`);
  writeFileSync(config, JSON.stringify({ file: join(cwd, release) }));
  let child: ChildProcess | undefined;
  let waiting: () => void = () => undefined;
  const waits = new Promise<void>((resolve) => {
    waiting = resolve;
  });
  const ended = run(
    [
      'backtest',
      WAITS,
      ...`--config ${config} --symbols 005930 --interval 1d --from 2025-01-01 --to 2025-03-31 --json`.split(
        ' ',
      ),
    ],
    (c) => {
      child = c;
      started.push(c);
      let seen = '';
      c.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8');
        if (seen.includes('waiting for')) waiting();
      });
    },
  );
  await Promise.race([waits, ended.then((r) => expect.fail(`the backtest ended before waiting: ${r.err}`))]);
  return { child: child as ChildProcess, ended };
}

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-db-runs-running-'));
  home = tempHome();
  file = join(cwd, 'data', 'hoga-sim.sqlite');
});
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga db runs --delete of a running backtest', () => {
  it('keeps a running backtest whose process lives (exit 2, naming its pid), and the backtest stores its run whole', async () => {
    const { child, ended } = await waitingBacktest('go-1');
    const [running] = await listed();
    expect(running).toMatchObject({ status: 'running', process: { pid: child.pid, alive: true } });
    const runId = running?.runId as string;

    const del = await run(['db', 'runs', '--db', file, '--delete', runId]);
    expect(del.code).toBe(2);
    expect(del.err).toContain(`backtest ${runId} is still running (process ${child.pid} on this machine)`);
    expect(del.err).toContain('nothing was deleted');
    const tomorrow = formatKst(DateTime.now().plus({ days: 1 })).slice(0, 10);
    const prune = await run(['db', 'runs', '--db', file, '--delete-backtests', '--before', tomorrow]);
    expect(prune.code).toBe(2);
    expect(prune.err).toContain(`backtest ${runId} is still running (process ${child.pid} on this machine)`);
    expect((await listed()).map((r) => r.runId)).toEqual([runId]);

    writeFileSync(join(cwd, 'go-1'), '');
    const done = await ended;
    expect(done.code, done.err).toBe(0);
    const report = JSON.parse(done.out) as { runId: string; trades: unknown[] };
    expect(report.runId).toBe(runId);
    const shown = await run(['db', 'runs', '--db', file, '--id', runId, '--json']);
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({ status: 'completed', trades: report.trades });

    // finished, it goes
    const later = await run(['db', 'runs', '--db', file, '--delete', runId]);
    expect(later.code, later.err).toBe(0);
    expect(await listed()).toEqual([]);
  }, 240_000);

  it('lists a backtest whose process was killed as interrupted, and deletes it', async () => {
    const { child, ended } = await waitingBacktest('go-2');
    child.kill('SIGKILL');
    expect((await ended).signal).toBe('SIGKILL');
    const [left] = await listed();
    expect(left).toMatchObject({ status: 'running', process: { pid: child.pid, alive: false } });
    const runId = left?.runId as string;
    const table = await run(['db', 'runs', '--db', file]);
    expect(table.out).toMatch(new RegExp(`${runId}\\s+backtest\\s+WaitsForFile\\s+interrupted\\b`));
    const one = await run(['db', 'runs', '--db', file, '--id', runId]);
    expect(one.out).toMatch(
      new RegExp(
        `^status +interrupted \\(stored as running; its process ${child.pid} on this machine is gone\\)$`,
        'm',
      ),
    );

    const del = await run(['db', 'runs', '--db', file, '--delete', runId]);
    expect(del.code, del.err).toBe(0);
    expect(del.out).toContain(`deleted backtest ${runId}: 1 run`);
    expect(await listed()).toEqual([]);
  }, 240_000);
});
