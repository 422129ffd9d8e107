/**
 * `hoga db migrate` on a file a run is running on: a migration rewrites tables under the run's
 * prepared statements inside one write transaction, its writes (orders among them) waiting or
 * failing meanwhile. It is refused while a run of this machine is running on the file, as
 * `hoga db runs --vacuum` is (before: it ran under the run). A file already at this hoga's schema
 * has nothing to migrate: said up to date, runs or not (a script's migrate before each start).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase, LATEST_SCHEMA_VERSION, processStart } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../../hoga-process.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-migrate-live-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A file with these runs stored as running under `pid`, its process started at `start`; built at
 * the schema version before this hoga's unless `current` (a run of an older hoga at work on it):
 * a migration that goes on runs this hoga's last step on the tables the step before left (before,
 * a current file marked one version behind, where the last step ran again over its own result).
 */
function withRunningRuns(
  runs: readonly [id: string, kind: string][],
  pid: number,
  start: string | null,
  current = false,
): void {
  const db = HogaDatabase.open(file, current ? {} : { migrate: LATEST_SCHEMA_VERSION - 1 });
  for (const [id, kind] of runs) {
    db.connection
      .prepare(
        `INSERT INTO runs (run_id, kind, strategy_path, strategy_name, params, status, started_at, pid, host, process_start)
         VALUES (?, ?, 'sma.ts', 'sma', '{}', 'running', 1, ?, ?, ?)`,
      )
      .run(id, kind, pid, hostname(), start);
  }
  db.close();
}

describe('hoga db migrate', () => {
  it('refuses while runs of this machine are running on the file (exit 2), naming each, and leaves the file', async () => {
    withRunningRuns(
      [
        ['paper-1', 'paper'],
        ['live-1', 'live'],
      ],
      process.pid,
      processStart(process.pid),
    );
    const before = readFileSync(file);
    const run = await hoga(['db', 'migrate', '--db', file, '--json']);
    expect(run.out).toBe('');
    expect(run.code).toBe(2);
    const failure = jsonFailure(run.err);
    expect(failure.message).toContain(`run paper-1 (paper, process ${process.pid})`);
    expect(failure.message).toContain(`run live-1 (live, process ${process.pid})`);
    expect(failure.message).toContain('are running');
    expect(readFileSync(file).equals(before)).toBe(true);
    const text = await hoga(['db', 'migrate', '--db', file]);
    expect(text.code).toBe(2);
    expect(text.err).toContain(
      `hoga db: did not migrate ${file}: run paper-1 (paper, process ${process.pid})`,
    );
  });

  it('migrates when the running run’s process is gone (interrupted)', async () => {
    withRunningRuns([['paper-1', 'paper']], process.pid, 'another-boot:1');
    const run = await hoga(['db', 'migrate', '--db', file, '--json']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    // the step from the version before ran on that version's tables
    expect(JSON.parse(run.out)).toEqual({ file, from: LATEST_SCHEMA_VERSION - 1, to: LATEST_SCHEMA_VERSION });
    const db = HogaDatabase.open(file, { readonly: true });
    try {
      expect(db.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(db.connection.prepare("SELECT status FROM runs WHERE run_id = 'paper-1'").pluck().get()).toBe(
        'running',
      );
    } finally {
      db.close();
    }
  });

  it('says a file already at this schema is up to date while a run runs on it, touching nothing', async () => {
    withRunningRuns([['paper-1', 'paper']], process.pid, processStart(process.pid), true);
    const before = readFileSync(file);
    const run = await hoga(['db', 'migrate', '--db', file]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toBe(`${file}: schema version ${LATEST_SCHEMA_VERSION}, up to date\n`);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});
