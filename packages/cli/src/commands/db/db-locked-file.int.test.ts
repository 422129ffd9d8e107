/**
 * A database another process holds locked for writing past the busy timeout (5 s): the real `hoga`
 * must say who holds it and what to do, not only SQLite's "database is locked", and every command
 * that meets the lock says so under one code for scripts, `database-locked`. Before, `db migrate`,
 * `backtest` and `data download` said `database-open-failed` (the last two with the code again at
 * the head of the message) and `db runs --delete-backtests` or `--vacuum` said `failed`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure } from '../../hoga-process.test-helper.js';
import { SMA } from '../backtest-runs.test-helper.js';
import { useStoredBacktest, whileLocked } from './stored-backtest.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-locked-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a database another process holds locked', () => {
  it('db migrate says it is locked by another process and to run again, exit 1', async () => {
    HogaDatabase.open(file).close();
    const run = await whileLocked(file, () => hoga(['db', 'migrate', '--db', file, '--json']));
    expect(run.code).toBe(1);
    const failure = jsonFailure(run.err);
    expect(failure.code).toBe('database-locked');
    expect(failure.message).toContain(`${file} is locked by another process writing to it`);
    expect(failure.message).toContain('run the command again');
  });
});

describe('every command meeting the lock', () => {
  const stored = useStoredBacktest('hoga-locked-commands-');

  it.each([
    [['db', 'migrate']],
    [
      [
        'backtest',
        SMA,
        ...'--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-01-31 --usd-krw 1400'.split(' '),
      ],
    ],
    [['data', 'download', ...'--symbols 000660 --interval 1d --from 2025-01-02 --to 2025-01-10'.split(' ')]],
    [['db', 'runs', '--delete-backtests', '--before', '2099-01-01']],
    [['db', 'runs', '--vacuum']],
  ])(
    'hoga %j --json: code database-locked, the file and the way out said once, exit 1',
    async (args) => {
      const r = await whileLocked(stored.file, () => stored.run([...args, '--db', stored.file, '--json']));
      expect(r.code, r.err).toBe(1);
      const failure = jsonFailure(r.err);
      expect(failure.code).toBe('database-locked');
      expect(failure.message).toMatch(
        new RegExp(`^(VACUUM of )?${stored.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
      );
      expect(failure.message).toMatch(/locked/);
      expect(failure.message).toMatch(/again when/);
      expect(JSON.stringify(failure)).not.toContain('SqliteError');
    },
    60_000,
  );
});
