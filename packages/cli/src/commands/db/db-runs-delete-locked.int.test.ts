/**
 * `hoga db runs --delete` on a database another process holds locked for writing past the busy
 * timeout (5 s): the real `hoga` says the file is locked, by whom it may be, that nothing was
 * deleted and to run it again, with exit 1, as `hoga db migrate` does (db-locked-file.int.test.ts).
 * Before, it printed `hoga: unexpected error: database is locked` (`code` `unexpected` under
 * `--json`, with a stack trace): a bug report, not a message. A real backtest stored by a real
 * `hoga backtest` (embedded simulator, a fixed USD/KRW rate), every `hoga` a child process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, jsonFailure, tempHome } from '../../hoga-process.test-helper.js';
import { SMA } from '../backtest-runs.test-helper.js';

let cwd: string;
let home: string;
let file: string;
let runId: string;

const run = (args: string[]) => hoga(args, { cwd, env: { HOME: home } });

/** The stored run's status, or undefined when it is gone. */
function storedStatus(id: string): string | undefined {
  const db = HogaDatabase.open(file, { migrate: false, readonly: true });
  try {
    return db.connection.prepare('SELECT status FROM runs WHERE run_id = ?').pluck().get(id) as
      | string
      | undefined;
  } finally {
    db.close();
  }
}

/** Runs `body` while another connection holds the file's write lock. */
async function whileLocked<T>(body: () => Promise<T>): Promise<T> {
  const holder = HogaDatabase.open(file, { migrate: false });
  holder.connection.exec('BEGIN IMMEDIATE');
  try {
    return await body();
  } finally {
    holder.connection.exec('ROLLBACK');
    holder.close();
  }
}

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-db-runs-delete-locked-'));
  home = tempHome();
  file = join(cwd, 'runs.sqlite');
  const bt = await run([
    'backtest',
    SMA,
    ...`--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-02-28 --usd-krw 1400 --db ${file} --json`.split(
      ' ',
    ),
  ]);
  expect(bt.code, bt.err).toBe(0);
  runId = (JSON.parse(bt.out) as { runId: string }).runId;
}, 120_000);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga db runs --delete on a database locked by another writer', () => {
  it('--json: one typed failure naming the file and the lock, nothing deleted, exit 1', async () => {
    const result = await whileLocked(() => run(['db', 'runs', '--db', file, '--delete', runId, '--json']));
    expect(result.code, result.err).toBe(1);
    expect(result.out).toBe('');
    const failure = jsonFailure(result.err);
    expect(failure.code).toBe('database-locked');
    expect(failure.message).toBe(
      `${file} is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout: nothing was deleted; run the command again when it is done`,
    );
    expect(JSON.stringify(failure)).not.toContain('SqliteError');
    expect(storedStatus(runId)).toBe('completed');
  }, 60_000);

  it('as text: says the same on stderr, no stack; once the lock is gone the same command deletes', async () => {
    const locked = await whileLocked(() => run(['db', 'runs', '--db', file, '--delete', runId]));
    expect(locked.code).toBe(1);
    expect(locked.err).toBe(
      `hoga db: ${file} is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout: nothing was deleted; run the command again when it is done\n`,
    );
    expect(storedStatus(runId)).toBe('completed');

    const again = await run(['db', 'runs', '--db', file, '--delete', runId]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`deleted backtest ${runId}: 1 run`);
    expect(storedStatus(runId)).toBeUndefined();
  }, 60_000);
});
