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
    // the start, the 19 month starts after it up to the last bar's close (AAPL's 2020-12-31 bar
    // closes on 2021-01-01 KST) and that close (a request the simulator's rate limit refused is
    // asked again: counted twice)
    expect(first.result.stderr).toContain('hoga: USD/KRW: reading 21 rates from the broker');
    expect(first.fxRequests).toBeGreaterThanOrEqual(21);
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
  // the market-info group allows 3 requests a second, which the backtest before may have spent:
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

  it("values them at each month start's rate over a two-year range (before: 12 rates in all, one every two months)", async () => {
    // no trade (the averages need 601 bars, more than the range has): the equity is the dollars
    const config = join(dir, 'never-long.json');
    writeFileSync(config, JSON.stringify({ fast: 400, slow: 600, quantity: 1 }));
    const { result, fxRequests } = await backtest([
      SMA,
      ...['--symbols', 'AAPL', '--interval', '1d', '--from', '2023-01-01', '--to', '2024-12-31'],
      ...['--config', config, '--cash', 'KRW=0,USD=100000', '--json'],
      ...simFlags(sim.url),
      ...['--db', join(dir, 'monthly.sqlite')],
    ]);
    expect(result.code, result.stderr).toBe(0);
    // the start, 24 month starts (the last bar closes on 2025-01-01 KST) and that close (a request
    // refused by the rate limit counted twice)
    expect(fxRequests).toBeGreaterThanOrEqual(26);
    expect(result.stderr).toContain(
      'hoga: USD/KRW: reading 26 rates from the broker (the start, each month start and the end; about 9 s at its 3 a second); later runs read them from the database\n',
    );
    const printed = JSON.parse(result.stdout) as BacktestJson;
    expect(printed.stats.trades).toBe(0);
    const rates = printed.equity.map((p) => Number(p.equity) / 100_000);
    expect(new Set(rates).size).toBeGreaterThanOrEqual(24);
    // a day in mid-July 2024 (a bar's close, KST) holds July's first rate
    const july = printed.equity.find((p) => p.time.startsWith('2024-07-1')) as { equity: string };
    const atJuly = await brokerRateAt('2024-07-01T00:00:00+09:00');
    expect(Math.abs(Number(july.equity) / 100_000 - atJuly) / atJuly).toBeLessThan(1e-9);
  }, 90_000);
});
