/**
 * What a stored backtest keeps to be rerun and checked: every parameter that changes its numbers,
 * and an equity curve that counts the whole account's starting cash.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga as hogaBin, simFlags } from '../hoga-process.test-helper.js';
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

async function storedParams(runId: string): Promise<Record<string, unknown>> {
  const one = await hogaBin(['db', 'runs', '--db', db, '--id', runId, '--json']);
  expect(one.code, one.err).toBe(0);
  return (JSON.parse(one.out) as { params: Record<string, unknown> }).params;
}

describe('a stored backtest', () => {
  it('keeps --usd-krw and --volume-fraction with its parameters (before: neither was stored, so the stored run could not be rerun to its numbers)', async () => {
    const printed = await backtest([
      SMA,
      '--symbols',
      '005930,AAPL',
      '--usd-krw',
      '1400.5',
      '--volume-fraction',
      '0.25',
    ]);
    const params = await storedParams(printed.runId);
    expect(params.usdKrw).toBe('1400.5');
    expect(params.volumeFraction).toBe('0.25');
  }, 60_000);

  it('stores the default volume fraction and the broker rate history when they are not given', async () => {
    const printed = await backtest([SMA, '--symbols', '005930']);
    const params = await storedParams(printed.runId);
    expect(params.volumeFraction).toBe('0.1');
    expect(params.usdKrw).toBe('broker');
  }, 60_000);

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
