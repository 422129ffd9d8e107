/**
 * `hoga data list|export` of a database an older hoga wrote (its schema not migrated yet). Before:
 * export printed the CSV header (into `--out`, replacing a previous export) and only then failed
 * with `schema-too-old`; a file from before the candle cache gave `unexpected error: no such table:
 * candle_ranges` from both. Now both say which version the file has and to run `hoga db migrate`,
 * before writing anything. The CLI as a child process, real SQLite files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';

let dir: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-old-'));
  env = { HOME: tempHome() };
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const NOV_2 = Date.parse('2026-11-02T00:00:00+09:00');

/** A database with one cached daily candle of 005930, its schema version set back to `version`. */
function olderFile(name: string, version: number, dropCandleCache: boolean): string {
  const file = join(dir, name);
  const db = HogaDatabase.open(file);
  const price = new Decimal('70000');
  db.candles.store(
    { symbol: '005930', interval: '1d', adjusted: true },
    { start: NOV_2, end: NOV_2 + 86_400_000 },
    [{ ts: NOV_2, open: price, high: price, low: price, close: price, volume: new Decimal('1000') }],
  );
  // as a hoga before the candle cache (schema 3) left it
  if (dropCandleCache)
    db.connection.exec('DROP TABLE candle_blocks; DROP TABLE candles; DROP TABLE candle_ranges');
  db.connection.pragma(`user_version = ${version}`);
  db.close();
  return file;
}

describe('hoga data export of a database an older hoga wrote', () => {
  it('says to run hoga db migrate before writing anything, leaving a previous --out as it was', async () => {
    for (const [file, version] of [
      [olderFile('v7.sqlite', 7, false), 7],
      [olderFile('v2.sqlite', 2, true), 2],
    ] as const) {
      const out = join(dir, `previous-${version}.csv`);
      writeFileSync(out, 'the previous export\n');
      const run = await hoga(['data', 'export', '--interval', '1d', '--db', file, '--out', out], {
        env,
        cwd: dir,
      });
      expect(run.code).toBe(1);
      expect(run.err).toContain(`schema version ${version}`);
      expect(run.err).toContain('hoga db migrate');
      expect(readFileSync(out, 'utf8')).toBe('the previous export\n');
      const stdout = await hoga(['data', 'export', '--interval', '1d', '--db', file], { env, cwd: dir });
      expect(stdout.code).toBe(1);
      expect(stdout.out).toBe('');
      expect(stdout.err).toContain('hoga db migrate');
    }
  });
});

describe('hoga data list of a database from before the candle cache', () => {
  it('says to run hoga db migrate, not "unexpected error: no such table"', async () => {
    const file = olderFile('list-v2.sqlite', 2, true);
    const run = await hoga(['data', 'list', '--db', file], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.err).toContain('schema version 2');
    expect(run.err).toContain('hoga db migrate');
    expect(run.err).not.toContain('unexpected error');
  });

  it('still lists the cache of a file with one, not migrated yet', async () => {
    const run = await hoga(['data', 'list', '--db', olderFile('list-v7.sqlite', 7, false)], {
      env,
      cwd: dir,
    });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/005930 +1d +yes +1 +2026-11-02 00:00 \+09:00/);
  });
});
