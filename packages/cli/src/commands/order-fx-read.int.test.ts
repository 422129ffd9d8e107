/**
 * `hoga order` reads the USD/KRW rate only when the order's judgement uses it: the rate converts
 * USD amounts to KRW (a US order's value for the broker's maximum amount and the risk limits, and
 * the account's USD holdings and open USD orders in the account-wide limits). A KR order on an
 * account with nothing in USD uses none: before, every `hoga order` read the rate (one request of
 * the MARKET_INFO group, 3 a second, shared with the calendars). Real `hoga` processes against the
 * simulator over HTTP, with a real SQLite file (which keeps the calendars: after the first command
 * only the rate is counted).
 */
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../hoga-process.test-helper.js';
import { env, hogaToEnd as hoga } from './run-process.test-helper.js';

let sim: SimulatorHandle;
let environment: NodeJS.ProcessEnv;

beforeAll(async () => {
  // a trading Wednesday ahead of the machine's date, without the simulator's rate limits: every
  // request is counted once
  sim = await startSimulator({
    port: 0,
    seed: 7,
    start: '2027-12-15T10:00:00+09:00',
    speed: 0,
    rateLimit: false,
  });
  environment = env(sim, join(tempHome(), 'hoga.sqlite'));
  // the calendars, into the database
  const first = await hoga(['order', 'buy', '005930', '1', '--limit', '80000', '--check'], environment);
  expect(first.code, first.out).toBe(0);
});
afterAll(async () => {
  await sim.close();
});

/** Runs `hoga order … --check` and counts the MARKET_INFO requests (the calendars are stored: the rate). */
async function rateReads(args: readonly string[]): Promise<number> {
  const before = sim.counters().requestsByGroup.MARKET_INFO ?? 0;
  const run = await hoga(['order', ...args, '--check'], environment);
  // judged (accepted, or denied: the judgement is not what is counted), not failed
  expect([0, 3], run.out).toContain(run.code);
  return (sim.counters().requestsByGroup.MARKET_INFO ?? 0) - before;
}

describe('hoga order reads the exchange rate only when the order needs it', () => {
  it('a KR order on an account with nothing in USD reads none', async () => {
    expect(await rateReads(['buy', '005930', '1', '--limit', '80000', '--account-seq', '2'])).toBe(0);
  });

  it('a US order reads it (its value in KRW)', async () => {
    expect(await rateReads(['buy', 'AAPL', '1', '--limit', '40', '--account-seq', '2'])).toBe(1);
  });

  it('a KR order on an account holding US shares reads it (their value counts in the account limits)', async () => {
    expect(await rateReads(['buy', '005930', '1', '--limit', '80000', '--account-seq', '1'])).toBe(1);
  });
});
