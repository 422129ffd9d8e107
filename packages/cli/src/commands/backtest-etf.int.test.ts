import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Bar, barCloseTime, Market } from '@hoga/core';
import { tradingDateRange } from '@hoga/engine';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSmaTrades } from '../../../../strategies/sma-crossover-reference.test-helper.js';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const HOGA = join(import.meta.dirname, 'backtest-cli.test-helper.ts');
const SMA = join(ROOT, 'strategies', 'sma-crossover.ts');
/** KODEX 200: an ETF (5-won ticks) trading around 35,000 won, where a stock's tick is 50 won. */
const ETF = '069500';
const FROM = '2025-01-01';
const TO = '2025-12-31';

/** The environment without any HOGA_* setting (so only the flags count). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HOGA_')) env[k] = v;
  return env;
}

interface JsonRun {
  readonly trades: readonly {
    time: string;
    symbol: string;
    side: string;
    quantity: string;
    price: string;
    tax: string;
  }[];
}

/** The cached daily candles of the ETF in the run's range, as bars. */
function cachedBars(file: string): Bar[] {
  const database = HogaDatabase.open(file);
  try {
    const range = tradingDateRange(Market.KR, '1d', FROM, TO);
    if (range === null) return [];
    return database.candles.get({ symbol: ETF, interval: '1d', adjusted: true }, range).map((c) => ({
      symbol: ETF,
      interval: '1d',
      ts: c.ts,
      closeTime: barCloseTime(Market.KR, '1d', c.ts),
      open: c.open.toNumber(),
      high: c.high.toNumber(),
      low: c.low.toNumber(),
      close: c.close.toNumber(),
      volume: c.volume.toNumber(),
    }));
  } finally {
    database.close();
  }
}

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-etf-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

async function backtest(
  baseUrl = sim.url,
  extra: readonly string[] = [],
): Promise<{ run: JsonRun; stderr: string }> {
  const { stdout, stderr } = await exec(
    process.execPath,
    [
      '--import',
      'tsx',
      HOGA,
      'backtest',
      SMA,
      '--symbols',
      ETF,
      '--interval',
      '1d',
      '--from',
      FROM,
      '--to',
      TO,
      '--json',
      ...extra,
      '--base-url',
      baseUrl,
      '--client-id',
      'sim-client',
      '--client-secret',
      'sim-secret',
      '--db',
      join(dir, 'hoga.sqlite'),
    ],
    { cwd: ROOT, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 },
  );
  return { run: JSON.parse(stdout) as JsonRun, stderr };
}

describe('hoga backtest of a KR ETF', () => {
  it("fills on the ETF's 5-won grid (not the stock grid's 50 won), without the stock sell tax, the same twice", async () => {
    const first = await backtest();
    // market orders fill at the next bar's open as it is (the simulator's opens are on the ETF grid)
    const expected = expectedSmaTrades(cachedBars(join(dir, 'hoga.sqlite')), {
      fast: 5,
      slow: 20,
      quantity: 10,
    });
    expect(expected.length).toBeGreaterThan(5);
    expect(
      first.run.trades.map((t) => ({
        time: Date.parse(t.time),
        symbol: t.symbol,
        side: t.side,
        quantity: Number(t.quantity),
        price: Number(t.price),
      })),
    ).toEqual(expected);
    const prices = first.run.trades.map((t) => Number(t.price));
    // every fill on the ETF grid, and the opens are not all rounded to 50 won as a stock's would be
    expect(prices.filter((p) => p % 5 !== 0)).toEqual([]);
    expect(prices.filter((p) => p % 50 !== 0).length).toBeGreaterThan(0);
    // KR ETFs pay no securities transaction tax on sells
    expect(first.run.trades.filter((t) => t.side === 'SELL').map((t) => Number(t.tax))).toEqual(
      first.run.trades.filter((t) => t.side === 'SELL').map(() => 0),
    );
    expect(first.stderr).not.toContain('instrument type');
    const second = await backtest();
    expect(second.run.trades).toEqual(first.run.trades);
  }, 120_000);

  it('backtests from the cache alone (no broker) as a stock, with a warning naming the symbol', async () => {
    // the first test filled the cache; nothing listens on port 9 of 127.0.0.1
    const offline = await backtest('http://127.0.0.1:9', ['--usd-krw', '1350']);
    expect(offline.stderr).toContain(
      `instrument type unknown for ${ETF} (stock info failed: issueToken: network-connection`,
    );
    const prices = offline.run.trades.map((t) => Number(t.price));
    expect(prices.length).toBeGreaterThan(5);
    expect(prices.filter((p) => p % 50 !== 0)).toEqual([]);
  }, 120_000);
});
