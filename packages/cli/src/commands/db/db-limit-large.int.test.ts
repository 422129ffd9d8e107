/**
 * `hoga db runs|orders|fills --limit N` with an N past what SQLite's LIMIT takes (a 64-bit integer,
 * bound from a JavaScript number: exact only up to 2^53 − 1): "no limit" in effect, so the listing
 * is the whole table, as with any N above its rows. Before, `--limit 99999999999999999999` (or
 * 9223372036854775807) passed the flag's check and failed in the query: `hoga: unexpected error:
 * datatype mismatch`, exit 1. A real backtest (embedded simulator, a fixed USD/KRW rate) stores a
 * run and its orders; every `hoga` a child process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../../hoga-process.test-helper.js';
import { SMA } from '../backtest-runs.test-helper.js';

let cwd: string;
let home: string;
let file: string;

const run = (args: string[]) => hoga(args, { cwd, env: { HOME: home } });

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-db-limit-large-'));
  home = tempHome();
  file = join(cwd, 'runs.sqlite');
  const bt = await run([
    'backtest',
    SMA,
    ...`--symbols 005930 --interval 1d --from 2025-01-01 --to 2025-06-30 --usd-krw 1400 --db ${file}`.split(
      ' ',
    ),
  ]);
  expect(bt.code, bt.err).toBe(0);
}, 120_000);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga db listings with a --limit past SQLite’s integers', () => {
  it.each([
    ['runs', []],
    ['orders', []],
    ['orders', ['--mode', 'backtest']],
    ['fills', []],
  ] as const)(
    'db %s %j: the whole listing, as with a limit above its rows, exit 0',
    async (command, extra) => {
      const all = await run(['db', command, '--db', file, ...extra, '--limit', '100000', '--json']);
      expect(all.code, all.err).toBe(0);
      // the run and its orders (a backtest's fills are its trades: db fills lists paper and live ones)
      if (command === 'runs' || extra.length > 0) {
        expect((JSON.parse(all.out) as unknown[]).length).toBeGreaterThan(0);
      }
      for (const limit of ['9007199254740991', '9223372036854775807', '99999999999999999999']) {
        const huge = await run(['db', command, '--db', file, ...extra, '--limit', limit, '--json']);
        expect([huge.code, huge.err], limit).toEqual([0, '']);
        expect(huge.out, limit).toBe(all.out);
      }
    },
    60_000,
  );
});
