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
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hoga, jsonFailure, tempHome } from '../../hoga-process.test-helper.js';
import { SMA } from '../backtest-runs.test-helper.js';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-locked-'));
  file = join(dir, 'hoga.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a database another process holds locked', () => {
  it('db migrate says it is locked by another process and to run again, exit 1', async () => {
    const holder = HogaDatabase.open(file);
    holder.connection.exec('BEGIN IMMEDIATE');
    try {
      const run = await hoga(['db', 'migrate', '--db', file, '--json']);
      expect(run.code).toBe(1);
      const failure = jsonFailure(run.err);
      expect(failure.code).toBe('database-locked');
      expect(failure.message).toContain(`${file} is locked by another process writing to it`);
      expect(failure.message).toContain('run the command again');
    } finally {
      holder.connection.exec('ROLLBACK');
      holder.close();
    }
  });
});

describe('every command meeting the lock', () => {
  let cwd: string;
  let home: string;
  let stored: string;
  const run = (args: string[]) => hoga(args, { cwd, env: { HOME: home } });

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'hoga-locked-commands-'));
    home = tempHome();
    stored = join(cwd, 'runs.sqlite');
    const bt = await run([
      'backtest',
      SMA,
      ...`--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-02-28 --usd-krw 1400 --db ${stored}`.split(
        ' ',
      ),
    ]);
    expect(bt.code, bt.err).toBe(0);
  }, 120_000);
  afterAll(() => {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

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
      const holder = HogaDatabase.open(stored, { migrate: false });
      holder.connection.exec('BEGIN IMMEDIATE');
      try {
        const r = await run([...args, '--db', stored, '--json']);
        expect(r.code, r.err).toBe(1);
        const failure = jsonFailure(r.err);
        expect(failure.code).toBe('database-locked');
        expect(failure.message).toMatch(
          new RegExp(`^(VACUUM of )?${stored.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
        );
        expect(failure.message).toMatch(/locked/);
        expect(failure.message).toMatch(/again when/);
        expect(JSON.stringify(failure)).not.toContain('SqliteError');
      } finally {
        holder.connection.exec('ROLLBACK');
        holder.close();
      }
    },
    60_000,
  );
});
