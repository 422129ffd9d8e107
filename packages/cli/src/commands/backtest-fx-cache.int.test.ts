import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  // the exchange-rate endpoint at 60 a second, announced in X-RateLimit-Limit, which hoga follows:
  // at the spec's 3 a second the runs' USD/KRW rates (44 or more each) took most of the file's time
  sim = await startSimulator({
    port: 0,
    rateLimits: { MARKET_INFO: { perSecond: 60, peakPerSecond: null } },
  });
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
    // days from before the simulator's rate history (2020-01-01): rates and "no rate" answers
    const args = [
      SMA,
      '--symbols',
      '005930,AAPL',
      '--interval',
      '1d',
      '--from',
      '2019-12-02',
      '--to',
      '2020-01-31',
      '--json',
      ...simFlags(sim.url),
      '--db',
      db,
    ];
    const first = await backtest(args);
    expect(first.result.code, first.result.stderr).toBe(0);
    // the start and each trading day's end, the last bar's close (AAPL's 2020-01-31 bar closes on
    // 2020-02-01 KST) among them: one rate per point of the equity curve (a request the
    // simulator's rate limit refused is asked again: counted twice)
    const points = (JSON.parse(first.result.stdout) as BacktestJson).equity.length;
    expect(points).toBeGreaterThan(40);
    expect(first.result.stderr).toContain(`hoga: USD/KRW: reading ${points} rates from the broker`);
    expect(first.fxRequests).toBeGreaterThanOrEqual(points);
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

/** The simulator's USD/KRW rate valid at an instant (ISO 8601), over its HTTP API. */
async function brokerRateAt(time: string): Promise<number> {
  const token = (await (
    await fetch(`${sim.url}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'sim-client',
        client_secret: 'sim-secret',
      }),
    })
  ).json()) as { access_token: string };
  const query = new URLSearchParams({ dateTime: time, baseCurrency: 'USD', quoteCurrency: 'KRW' });
  // the market-info group allows a few requests a second, which the backtest before may have spent:
  // a refusal (429) is asked again after the second it names
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${sim.url}/api/v1/exchange-rate?${query}`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    const answer = (await response.json()) as { result?: { rate: string } };
    if (response.status !== 429 || attempt === 5) {
      if (answer.result === undefined) throw new Error(`no rate at ${time}: ${JSON.stringify(answer)}`);
      return Number(answer.result.rate);
    }
    const wait = Number(response.headers.get('retry-after') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(wait) ? wait : 1) * 1000 + 100));
  }
}

describe('hoga backtest valuing dollars', () => {
  it("values the end's dollars at the rate of the range's end, not at the last month start's (before: a month's drift of the rate in the end equity and the total return)", async () => {
    // no trade (the averages never cross in a month): the equity is the dollars at the rate used
    const config = join(dir, 'never.json');
    writeFileSync(config, JSON.stringify({ fast: 40, slow: 60, quantity: 1 }));
    const { result } = await backtest([
      SMA,
      ...['--symbols', 'AAPL', '--interval', '1d', '--from', '2026-03-02', '--to', '2026-03-31'],
      ...['--config', config, '--cash', 'KRW=0,USD=100000', '--json'],
      ...simFlags(sim.url),
      ...['--db', join(dir, 'end-rate.sqlite')],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as BacktestJson;
    expect(printed.stats.trades).toBe(0);
    const last = printed.equity[printed.equity.length - 1] as { time: string; equity: string };
    const used = Number(last.equity) / 100_000;
    const atEnd = await brokerRateAt(last.time);
    const atStart = await brokerRateAt('2026-03-02T00:00:00+09:00');
    // the simulator's rate moved more than 0.5 % in that month; within the end's day it moves far less
    expect(Math.abs(atEnd - atStart) / atStart).toBeGreaterThan(0.005);
    expect(Math.abs(used - atEnd) / atEnd).toBeLessThan(0.002);
  }, 60_000);

  it("values each trading day's dollars at the rate valid at the day's end (before: each month start's rate all month)", async () => {
    // no trade (the averages need 601 bars, more than the range has): the equity is the dollars
    const config = join(dir, 'never-long.json');
    writeFileSync(config, JSON.stringify({ fast: 400, slow: 600, quantity: 1 }));
    const { result, fxRequests } = await backtest([
      SMA,
      ...['--symbols', 'AAPL', '--interval', '1d', '--from', '2024-06-03', '--to', '2024-07-31'],
      ...['--config', config, '--cash', 'KRW=0,USD=100000', '--json'],
      ...simFlags(sim.url),
      ...['--db', join(dir, 'daily.sqlite')],
    ]);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as BacktestJson;
    expect(printed.stats.trades).toBe(0);
    // the start and the 43 trading days' ends (a request refused by the rate limit counted twice)
    expect(printed.equity).toHaveLength(44);
    expect(fxRequests).toBeGreaterThanOrEqual(44);
    // the wait at the pace the simulator announced (before: 15 s at the spec's 3 a second, said
    // whatever the broker allowed)
    expect(result.stderr).toContain(
      "hoga: USD/KRW: reading 44 rates from the broker (the start and each trading day's end; about 1 s at its 60 a second); later runs read them from the database (--usd-krw RATE values the dollars at one rate and reads none)\n",
    );
    const rates = printed.equity.map((p) => Number(p.equity) / 100_000);
    expect(new Set(rates).size).toBeGreaterThanOrEqual(40);
    // days in mid-July 2024 each hold the rate of their own close (KST), not July's first
    const july = printed.equity.filter((p) => p.time.startsWith('2024-07-1')).slice(0, 3);
    expect(july).toHaveLength(3);
    for (const day of july) {
      const atClose = await brokerRateAt(day.time);
      expect(Math.abs(Number(day.equity) / 100_000 - atClose), day.time).toBeLessThan(0.00001);
    }
    const atJuly = await brokerRateAt('2024-07-01T00:00:00+09:00');
    expect(july.some((day) => Math.abs(Number(day.equity) / 100_000 - atJuly) > 0.5)).toBe(true);
  }, 90_000);
});
