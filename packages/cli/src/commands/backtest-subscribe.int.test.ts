import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase, RunRepository } from '@hoga/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga as hogaBin, signalWhenStderrShows, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest as hoga } from './backtest-runs.test-helper.js';

/** Trades only what it subscribes to in onStart: one share of its first bar's symbol. */
const SUBSCRIBER = `
import type { Bar } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';

const Config = z.object({ symbol: z.string(), interval: z.enum(['1m', '1d']).optional() });

export default class Subscriber extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
  private bought = false;
  override onStart(): void {
    this.ctx.subscribeBars(this.config.symbol, this.config.interval);
  }
  override onBar(bar: Bar): void {
    if (bar.symbol !== this.config.symbol || this.bought) return;
    this.bought = true;
    this.ctx.buy(bar.symbol, 1);
  }
}
`;

/** Subscribes to 000660's bars in onStart and says so (a test interrupts the download that follows). */
const SAYS_SUBSCRIBED = `
import { Strategy } from '@hoga/engine';

export default class SaysSubscribed extends Strategy {
  override onStart(): void {
    this.ctx.subscribeBars('000660');
    this.ctx.log.info('subscribed');
  }
}
`;

let sim: SimulatorHandle;
let dir: string;
let db: string;
let strategy: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-subscribe-'));
  db = join(dir, 'hoga.sqlite');
  strategy = join(dir, 'subscriber.ts');
  writeFileSync(strategy, SUBSCRIBER);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function args(config: object): string[] {
  const file = join(dir, `config-${Object.values(config).join('-')}.json`);
  writeFileSync(file, JSON.stringify(config));
  return [
    strategy,
    '--symbols',
    '005930',
    '--interval',
    '1d',
    '--from',
    '2025-03-03',
    '--to',
    '2025-03-14',
    '--config',
    file,
    '--json',
    ...simFlags(sim.url),
    '--db',
    db,
  ];
}

/**
 * Each test starts `hoga backtest` through tsx, which compiles the CLI's sources at the start:
 * 7–12 s a test with two busy loops on two cores, up to a third of vitest's default 30 s.
 */
const TSX_CHILD = { timeout: 120_000 };

describe('hoga backtest with bars a strategy subscribes to in onStart', TSX_CHILD, () => {
  it("downloads the subscribed symbol's bars and delivers them: its order fills at the next bar's open", async () => {
    const result = await hoga(args({ symbol: '000660' }));
    expect(result.stderr).toContain('000660 1d: downloaded');
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    const bars = cachedBars(db, '000660', '2025-03-03', '2025-03-14');
    const second = bars[1];
    expect(second).toBeDefined();
    expect(run.trades).toEqual([
      expect.objectContaining({ symbol: '000660', side: 'BUY', quantity: '1', price: String(second?.open) }),
    ]);
  });

  it("refuses a subscription to another interval than the run's, naming it (exit 2)", async () => {
    const result = await hoga(args({ symbol: '000660', interval: '1m' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('subscribed to 1m bars of 000660; a 1d backtest delivers 1d bars only');
  });
});

describe('Ctrl-C while the bars subscribed to in onStart download', TSX_CHILD, () => {
  it('names the subscription, not --symbols, when a symbol a strategy subscribed to is unknown (exit 2)', async () => {
    const result = await hoga(args({ symbol: 'ZZZZ' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'unknown symbol ZZZZ: the broker has no stock with that code (stock-not-found); a strategy subscribed to its bars in onStart (ctx.subscribeBars)',
    );
  });

  it('stops the download and the run before its first bar: stored as stopped, exit 130', async () => {
    const file = join(dir, 'says-subscribed.ts');
    writeFileSync(file, SAYS_SUBSCRIBED);
    // two weeks of minute bars: dozens of pages per symbol at the chart group's 5 requests a second
    const range = ['--from', '2026-10-05', '--to', '2026-10-16'];
    const run = await hogaBin(
      [
        'backtest',
        file,
        '--symbols',
        '005930',
        '--interval',
        '1m',
        ...range,
        ...simFlags(sim.url),
        '--db',
        db,
      ],
      { onSpawn: signalWhenStderrShows('subscribed', 'SIGINT') },
    );
    expect(run.code, run.err).toBe(130);
    expect(run.err).toContain('005930 1m: downloaded');
    // the subscription's download stopped where it was (it never completed its symbol)
    expect(run.err).not.toContain('000660 1m:');
    expect(run.err).toMatch(/interrupted after 0 bars/);
    const runId = /the run is stored as ([\w-]+) \(stopped\)/.exec(run.err)?.[1];
    expect(runId, run.err).toBeDefined();
    const database = HogaDatabase.open(db);
    try {
      expect(new RunRepository(database.connection).get(runId as string)).toMatchObject({
        status: 'stopped',
        stats: { bars: 0, failure: null },
      });
    } finally {
      database.close();
    }
  }, 120_000);
});
