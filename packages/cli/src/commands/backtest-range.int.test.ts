import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { hogaBacktest as hoga, SMA } from './backtest-runs.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-range-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hoga backtest over a range in the future', () => {
  it('says there are no bars (exit 1), not that the broker has no USD/KRW rate (exit 2)', async () => {
    const result = await hoga([
      SMA,
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2099-06-01',
      '--to',
      '2099-06-05',
      ...simFlags(sim.url),
      '--db',
      join(dir, 'hoga.sqlite'),
    ]);
    expect(result.stderr).toContain('no 1d bars for 005930 from 2099-06-01 to 2099-06-05');
    expect(result.stderr).not.toContain('USD/KRW');
    expect(result.code).toBe(1);
  });
});
