/**
 * Two `hoga data download` processes filling the same range of one database file at once (two
 * terminals, or a download beside a backtest that fills its own gaps): both finish, and the file
 * holds what one download alone stores — each candle once, each series covered by one range.
 * Simulator over HTTP, the CLI as child processes, a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-25T12:00:00.000+09:00', speed: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-concurrent-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const RANGE = '--symbols 005930,AAPL --interval 1m --from 2026-11-19 --to 2026-11-20'.split(' ');

function download(db: string) {
  return hoga(['data', 'download', ...RANGE, '--db', db, ...simFlags(sim.url)], {
    env: { HOME: tempHome() },
    cwd: dir,
    killAfterMs: 120_000,
  });
}

/** Every candle row and covered range of a file, in order. */
function contents(file: string) {
  const db = HogaDatabase.open(file);
  try {
    return {
      candles: db.connection
        .prepare(
          'SELECT symbol, interval, adjusted, ts, open, high, low, close, volume FROM candles ORDER BY 1, 2, 3, 4',
        )
        .all(),
      ranges: db.connection.prepare('SELECT * FROM candle_ranges ORDER BY 1, 2, 3, 4').all(),
    };
  } finally {
    db.close();
  }
}

describe('two hoga data download processes on one database file', () => {
  it('both finish, and the file holds each candle once and the range covered once', async () => {
    const alone = join(dir, 'alone.sqlite');
    const first = await download(alone);
    expect(first.code, first.err).toBe(0);
    const shared = join(dir, 'shared.sqlite');
    const [a, b] = await Promise.all([download(shared), download(shared)]);
    expect(a.code, a.err).toBe(0);
    expect(b.code, b.err).toBe(0);
    const want = contents(alone);
    expect(want.candles.length).toBeGreaterThan(1000);
    expect(want.ranges).toHaveLength(2);
    expect(contents(shared)).toEqual(want);
  }, 240_000);
});
