/**
 * `hoga db runs|orders|fills --limit N` with an N past what SQLite's LIMIT takes (a 64-bit integer,
 * bound from a JavaScript number: exact only up to 2^53 − 1): "no limit" in effect, so the listing
 * is the whole table, as with any N above its rows. Before, `--limit 99999999999999999999` (or
 * 9223372036854775807) passed the flag's check and failed in the query: `hoga: unexpected error:
 * datatype mismatch`, exit 1. A real backtest (embedded simulator, a fixed USD/KRW rate) stores a
 * run and its orders; every `hoga` a child process.
 */
import { describe, expect, it } from 'vitest';
import { useStoredBacktest } from './stored-backtest.test-helper.js';

const stored = useStoredBacktest('hoga-db-limit-large-', '--from 2025-01-01 --to 2025-06-30');
const run = (args: string[]) => stored.run(args);

describe('hoga db listings with a --limit past SQLite’s integers', () => {
  it.each([
    ['runs', []],
    ['orders', []],
    ['orders', ['--mode', 'backtest']],
    ['fills', []],
  ] as const)(
    'db %s %j: the whole listing, as with a limit above its rows, exit 0',
    async (command, extra) => {
      const all = await run(['db', command, '--db', stored.file, ...extra, '--limit', '100000', '--json']);
      expect(all.code, all.err).toBe(0);
      // the run and its orders (a backtest's fills are its trades: db fills lists paper and live ones)
      if (command === 'runs' || extra.length > 0) {
        expect((JSON.parse(all.out) as unknown[]).length).toBeGreaterThan(0);
      }
      for (const limit of ['9007199254740991', '9223372036854775807', '99999999999999999999']) {
        const huge = await run(['db', command, '--db', stored.file, ...extra, '--limit', limit, '--json']);
        expect([huge.code, huge.err], limit).toEqual([0, '']);
        expect(huge.out, limit).toBe(all.out);
      }
    },
    60_000,
  );
});
