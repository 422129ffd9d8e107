/**
 * `hoga db runs --vacuum` on a file a run is writing: VACUUM holds the file's write lock for its
 * whole length (minutes on a file of years of candles), and the run's writes, its orders among them,
 * wait for it or fail. It is refused while a run of this machine is running on the file (before: it
 * ran, and the run's writes waited).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase, processStart } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../../hoga-process.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-vacuum-live-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file with a paper run stored as running under `pid`. */
function withRunningPaperRun(pid: number, start: string | null): void {
  const db = HogaDatabase.open(file);
  db.connection
    .prepare(
      `INSERT INTO runs (run_id, kind, strategy_path, strategy_name, params, status, started_at, pid, host, process_start)
       VALUES ('paper-1', 'paper', 'sma.ts', 'sma', '{}', 'running', 1, ?, ?, ?)`,
    )
    .run(pid, hostname(), start);
  db.close();
}

describe('hoga db runs --vacuum', () => {
  it('refuses while a run of this machine is running on the file (exit 2), naming it, and leaves the file', async () => {
    withRunningPaperRun(process.pid, processStart(process.pid));
    const before = readFileSync(file);
    const run = await hoga(['db', 'runs', '--vacuum', '--db', file, '--json']);
    expect(run.code).toBe(2);
    const failure = jsonFailure(run.err);
    expect(failure.message).toContain(`run paper-1 (paper, process ${process.pid})`);
    expect(failure.message).toContain('is running');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('vacuums when the running run’s process is gone (interrupted)', async () => {
    withRunningPaperRun(process.pid, 'another-boot:1');
    const run = await hoga(['db', 'runs', '--vacuum', '--db', file, '--json']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toHaveProperty('vacuum');
  });
});
