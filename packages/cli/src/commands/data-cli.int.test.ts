import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
let dir: string;
let db: string;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-data-int-'));
  db = join(dir, 'hoga.sqlite');
  env = { HOME: tempHome() };
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `hoga data download` of 005930's daily candles from `from` to `to` on the simulator. */
function download(from: string, to: string) {
  return hoga(
    [
      'data',
      'download',
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      from,
      '--to',
      to,
      '--db',
      db,
      ...simFlags(sim.url),
    ],
    { env, cwd: dir },
  );
}

describe('hoga data with --to before --from', () => {
  it('download says so (exit 2), not "before the broker\'s history?"', async () => {
    const run = await download('2025-03-14', '2025-03-03');
    expect(run.err).toContain('--to (2025-03-03) is before --from (2025-03-14)');
    expect(run.code).toBe(2);
  });

  it('export says so (exit 2) instead of printing an empty CSV, and fails on a file it cannot write', async () => {
    const downloaded = await download('2025-03-03', '2025-03-14');
    expect(downloaded.code).toBe(0);
    const ok = await hoga(
      ['data', 'export', '--interval', '1d', '--from', '2025-03-03', '--to', '2025-03-14', '--db', db],
      { env, cwd: dir },
    );
    expect(ok.code).toBe(0);
    expect(ok.out.trim().split('\n')).toHaveLength(1 + 10);
    const reversed = await hoga(
      ['data', 'export', '--interval', '1d', '--from', '2025-03-14', '--to', '2025-03-03', '--db', db],
      { env, cwd: dir },
    );
    expect(reversed.err).toContain('--to (2025-03-03) is before --from (2025-03-14)');
    expect(reversed.code).toBe(2);
    expect(reversed.out).toBe('');
    const nowhere = join(dir, 'missing-dir', 'candles.csv');
    const unwritable = await hoga(['data', 'export', '--interval', '1d', '--out', nowhere, '--db', db], {
      env,
      cwd: dir,
    });
    expect(unwritable.err).toContain(nowhere);
    expect(unwritable.err).not.toContain('wrote');
    expect(unwritable.code).not.toBe(0);
  });
});
