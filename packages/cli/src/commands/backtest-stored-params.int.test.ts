/**
 * What a stored backtest keeps to be rerun and checked: every parameter that changes its numbers,
 * and an equity curve that counts the whole account's starting cash.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest, SMA } from './backtest-runs.test-helper.js';

let sim: SimulatorHandle;
let dir: string;
let db: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-params-'));
  db = join(dir, 'hoga.sqlite');
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const RANGE = ['--interval', '1d', '--from', '2026-03-02', '--to', '2026-04-30'];

async function backtest(args: readonly string[]): Promise<BacktestJson> {
  const run = await hogaBacktest([...args, ...RANGE, '--json', ...simFlags(sim.url), '--db', db]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as BacktestJson;
}

describe('a stored backtest', () => {
  it("counts the won and cent the strategies' equal shares leave over in the equity curve (before: three strategies started at 239,999,985 KRW of an account of 240,000,000)", async () => {
    const printed = await backtest([
      `${SMA}:a`,
      `${SMA}:b`,
      `${SMA}:c`,
      '--symbols',
      '005930',
      '--usd-krw',
      '1400',
    ]);
    // 100,000,000 KRW + 100,000 USD × 1,400: 33,333,333 KRW and 33,333.33 USD each, 1 KRW and 0.01 USD the account's
    expect(printed.stats.startEquity).toBe('240000000');
    expect(printed.equity[0]?.equity).toBe('240000000');
  }, 60_000);
});
