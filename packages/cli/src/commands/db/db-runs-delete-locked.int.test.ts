/**
 * `hoga db runs --delete` on a database another process holds locked for writing past the busy
 * timeout (5 s): the real `hoga` says the file is locked, by whom it may be, that nothing was
 * deleted and to run it again, with exit 1, as `hoga db migrate` does (db-locked-file.int.test.ts).
 * Before, it printed `hoga: unexpected error: database is locked` (`code` `unexpected` under
 * `--json`, with a stack trace): a bug report, not a message. A real backtest stored by a real
 * `hoga backtest` (embedded simulator, a fixed USD/KRW rate), every `hoga` a child process.
 */
import { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { jsonFailure } from '../../hoga-process.test-helper.js';
import { useStoredBacktest, whileLocked } from './stored-backtest.test-helper.js';

const stored = useStoredBacktest('hoga-db-runs-delete-locked-');
const run = (args: string[]) => stored.run(args);

/** The stored run's status, or undefined when it is gone. */
function storedStatus(id: string): string | undefined {
  const db = HogaDatabase.open(stored.file, { migrate: false, readonly: true });
  try {
    return db.connection.prepare('SELECT status FROM runs WHERE run_id = ?').pluck().get(id) as
      | string
      | undefined;
  } finally {
    db.close();
  }
}

describe('hoga db runs --delete on a database locked by another writer', () => {
  it('--json: one typed failure naming the stored.file and the lock, nothing deleted, exit 1', async () => {
    const result = await whileLocked(stored.file, () =>
      run(['db', 'runs', '--db', stored.file, '--delete', stored.runId, '--json']),
    );
    expect(result.code, result.err).toBe(1);
    expect(result.out).toBe('');
    const failure = jsonFailure(result.err);
    expect(failure.code).toBe('database-locked');
    expect(failure.message).toBe(
      `${stored.file} is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout: nothing was deleted; run the command again when it is done`,
    );
    expect(JSON.stringify(failure)).not.toContain('SqliteError');
    expect(storedStatus(stored.runId)).toBe('completed');
  }, 60_000);

  it('as text: says the same on stderr, no stack; once the lock is gone the same command deletes', async () => {
    const locked = await whileLocked(stored.file, () =>
      run(['db', 'runs', '--db', stored.file, '--delete', stored.runId]),
    );
    expect(locked.code).toBe(1);
    expect(locked.err).toBe(
      `hoga db: ${stored.file} is locked by another process writing to it (a hoga run, a download, another command) past the busy timeout: nothing was deleted; run the command again when it is done\n`,
    );
    expect(storedStatus(stored.runId)).toBe('completed');

    const again = await run(['db', 'runs', '--db', stored.file, '--delete', stored.runId]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`deleted backtest ${stored.runId}: 1 run`);
    expect(storedStatus(stored.runId)).toBeUndefined();
  }, 60_000);
});
