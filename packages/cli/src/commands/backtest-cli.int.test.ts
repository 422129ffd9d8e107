import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSmaTrades } from '../../../../strategies/sma-crossover-reference.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedDailyBars, hogaBacktest as hoga, ROOT, SMA } from './backtest-runs.test-helper.js';

const THROWS = join(ROOT, 'packages', 'cli', 'test', 'fixtures', 'throws-in-on-bar.ts');
const SYMBOLS = ['005930', 'AAPL'];
const FROM = '2025-01-01';
const TO = '2025-12-31';

let sim: SimulatorHandle;
let dir: string;
let db: string;
let connection: string[];

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-int-'));
  db = join(dir, 'hoga.sqlite');
  connection = [
    '--base-url',
    sim.url,
    '--client-id',
    'sim-client',
    '--client-secret',
    'sim-secret',
    '--db',
    db,
  ];
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hoga backtest', () => {
  const args = () => [
    SMA,
    '--symbols',
    SYMBOLS.join(','),
    '--interval',
    '1d',
    '--from',
    FROM,
    '--to',
    TO,
    '--json',
    ...connection,
  ];

  it("trades the SMA crossovers of the simulator's candles, as an independent computation finds them, and stores the run", async () => {
    const result = await hoga(args());
    expect(result.stderr).toContain('005930 1d: downloaded');
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    const bars = SYMBOLS.flatMap((s) => cachedDailyBars(db, s, FROM, TO));
    expect(bars.length).toBeGreaterThan(400);
    const expected = expectedSmaTrades(bars, { fast: 5, slow: 20, quantity: 10 });
    expect(expected.length).toBeGreaterThan(5);
    expect(
      run.trades.map((t) => ({
        time: Date.parse(t.time),
        symbol: t.symbol,
        side: t.side,
        quantity: Number(t.quantity),
        price: Number(t.price),
      })),
    ).toEqual(expected);
    expect(run.stats.trades).toBe(expected.length);
    expect(Object.keys(run.stats)).toEqual(
      expect.arrayContaining([
        'totalReturn',
        'cagr',
        'maxDrawdown',
        'sharpe',
        'trades',
        'winRate',
        'commissions',
        'taxes',
      ]),
    );
    // KR sells pay the transaction tax; every fill pays commission.
    expect(
      run.trades.filter((t) => t.symbol === '005930' && t.side === 'SELL').every((t) => Number(t.tax) > 0),
    ).toBe(true);
    expect(run.trades.every((t) => Number(t.commission) > 0)).toBe(true);

    const database = HogaDatabase.open(db);
    try {
      const stored = new RunRepository(database.connection);
      expect(stored.get(run.runId)).toMatchObject({
        status: 'completed',
        kind: 'backtest',
        strategyName: 'SmaCrossover',
      });
      expect(stored.trades(run.runId)).toHaveLength(run.trades.length);
      expect(stored.equity(run.runId)).toHaveLength(run.equity.length);
    } finally {
      database.close();
    }
  }, 120_000);

  it('gives the same stats, trades and equity curve to the last digit when run twice', async () => {
    const first = JSON.parse((await hoga(args())).stdout) as BacktestJson;
    const second = JSON.parse((await hoga(args())).stdout) as BacktestJson;
    expect(second.runId).not.toBe(first.runId);
    expect({ ...second, runId: '' }).toEqual({ ...first, runId: '' });
  }, 120_000);

  it('stops with exit code 2 on a bad config, naming the field, the value and what was expected', async () => {
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ fast: 'five', quantity: -1 }));
    const result = await hoga([
      SMA,
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      FROM,
      '--to',
      TO,
      '--config',
      config,
      ...connection,
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`invalid config for strategy SmaCrossover (from ${config})`);
    expect(result.stderr).toMatch(/fast: found "five", expected .*number/);
    expect(result.stderr).toMatch(/quantity: found -1, expected .*>0/);
  }, 60_000);

  it('stops cleanly when a strategy throws in a hook: says which strategy and hook, and stores a consistent failed run', async () => {
    const result = await hoga([
      THROWS,
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      FROM,
      '--to',
      TO,
      ...connection,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('strategy ThrowsInOnBar threw in onBar: cannot handle the bar of 005930');
    const runId = /stored as ([0-9a-f-]{36})/.exec(result.stderr)?.[1] ?? '';
    const database = HogaDatabase.open(db);
    try {
      const stored = new RunRepository(database.connection);
      expect(stored.get(runId)).toMatchObject({ status: 'failed' });
      expect(stored.trades(runId).map((t) => [t.side, t.quantity.toFixed()])).toEqual([['BUY', '3']]);
      const orders = database.journal
        .readFrom(1, 100_000)
        .filter((e) => e.strategyId === 'ThrowsInOnBar' && e.mode === 'backtest' && e.type === 'OrderSummary')
        .map((e) => e.payload as { events: [string, number][]; fills: unknown[] });
      const last = orders[orders.length - 1];
      expect(last?.events.map(([type]) => type)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
      expect(last?.fills).toHaveLength(1);
    } finally {
      database.close();
    }
  }, 60_000);

  it('refuses an unknown symbol with exit code 2 naming it', async () => {
    const result = await hoga([
      SMA,
      '--symbols',
      '999999',
      '--interval',
      '1d',
      '--from',
      FROM,
      '--to',
      TO,
      ...connection,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown symbol 999999');
  }, 60_000);

  it('fails with a clear message when the range holds no bars (a weekend)', async () => {
    const result = await hoga([
      SMA,
      '--symbols',
      '005930',
      '--interval',
      '1d',
      '--from',
      '2025-01-04',
      '--to',
      '2025-01-05',
      ...connection,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no 1d bars for 005930 from 2025-01-04 to 2025-01-05');
  }, 60_000);
});
