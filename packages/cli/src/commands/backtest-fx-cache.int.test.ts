import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RateLimitGroup } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { type BacktestRunResult, hogaBacktest, SMA } from './backtest-runs.test-helper.js';

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-fx-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The simulator's MARKET_INFO requests so far: the exchange rate is the only endpoint of that group
 * a backtest calls (the market calendars are the others).
 */
function marketInfoRequests(): number {
  return sim.counters().requestsByGroup[RateLimitGroup.MARKET_INFO] ?? 0;
}

/** Runs `hoga backtest` over `args`, and counts the MARKET_INFO requests it made. */
async function backtest(args: readonly string[]): Promise<{ result: BacktestRunResult; fxRequests: number }> {
  const before = marketInfoRequests();
  const result = await hogaBacktest(args);
  return { result, fxRequests: marketInfoRequests() - before };
}

/** The warnings about missing USD/KRW rates a run printed. */
function rateWarnings(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.includes('no USD/KRW rate'));
}

describe('hoga backtest', () => {
  it('asks the broker for the USD/KRW history once: a second run over the same range reads it from the database and prints the same results', async () => {
    const db = join(dir, 'hoga.sqlite');
    // months from before the simulator's rate history (2020-01-01): rates and "no rate" answers
    const args = [
      SMA,
      '--symbols',
      '005930,AAPL',
      '--interval',
      '1d',
      '--from',
      '2019-06-01',
      '--to',
      '2020-12-31',
      '--json',
      ...simFlags(sim.url),
      '--db',
      db,
    ];
    const first = await backtest(args);
    expect(first.result.code, first.result.stderr).toBe(0);
    expect(first.fxRequests).toBe(12);
    expect(rateWarnings(first.result.stderr).length).toBeGreaterThan(0);

    const second = await backtest(args);
    expect(second.result.code, second.result.stderr).toBe(0);
    expect(second.fxRequests).toBe(0);
    expect(rateWarnings(second.result.stderr)).toEqual(rateWarnings(first.result.stderr));
    const [one, two] = [first, second].map((r) => JSON.parse(r.result.stdout) as BacktestJson);
    expect(two?.runId).not.toBe(one?.runId);
    expect({ ...two, runId: '' }).toEqual({ ...one, runId: '' });
  }, 120_000);
});
