/**
 * The report's `of which FX` row (`stats.fxOnUsdCash`): of the net profit, what the USD/KRW rate's
 * moves made on the USD cash, checked against an independent computation. The real `hoga` against
 * the embedded simulator, the broker's rate history (no `--usd-krw`), AAPL alone so that every fill
 * is at a day's end, where the curve takes its point: a run that holds its dollars idle gives the
 * rate at each point (its equity is the dollars times the rate), and a run that buys and sells
 * AAPL on given dates is checked with those rates, its USD cash followed fill by fill.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { ROOT } from './backtest-runs.test-helper.js';

const FIXTURES = join(ROOT, 'packages', 'cli', 'test', 'fixtures');
const IDLE = join(FIXTURES, 'logs-each-bar.ts');
const ORDERS = join(FIXTURES, 'orders-on-dates.ts');
const USD = 100_000;

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoga-bt-usd-krw-'));
  home = tempHome();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The value of a report's row. */
function row(out: string, label: string): string | undefined {
  return new RegExp(`^ *${label.replace('/', '\\/')} +(.+)$`, 'm').exec(out)?.[1];
}

describe("a backtest's net profit: of which FX (USD/KRW)", () => {
  it('is what the rate made on the USD cash, idle or moved by AAPL bought and sold mid-run', async () => {
    const db = join(dir, 'runs.sqlite');
    const options = { cwd: dir, env: { HOME: home } };
    const run = ['--symbols', 'AAPL', '--interval', '1d', '--from', '2026-09-01', '--to', '2026-10-30'];
    const common = [...run, '--cash', `KRW=0,USD=${USD}`, '--db', db];

    // idle dollars: the whole net profit is the rate's move, and the curve gives the rates
    const idle = await hoga(['backtest', IDLE, ...common, '--json'], options);
    expect(idle.code, idle.err).toBe(0);
    // the embedded simulator serves its history at 200 requests a second, announced, which the
    // client follows (before: the spec's 3 a second, 15 s for these 44 rates)
    expect(idle.err).toContain(
      "hoga: USD/KRW: reading 44 rates from the broker (the start and each trading day's end; about 1 s at its 200 a second)",
    );
    const idleRun = JSON.parse(idle.out) as BacktestJson;
    expect(Number(idleRun.stats.netProfit)).not.toBe(0);
    expect(Math.abs(Number(idleRun.stats.fxOnUsdCash) - Number(idleRun.stats.netProfit))).toBeLessThanOrEqual(
      1,
    );
    const rateAt = new Map(idleRun.equity.map((p) => [p.time, Number(p.equity) / USD]));

    // bought and sold mid-run: 100, −40, +20, −80 (flat at the end)
    const config = join(dir, 'orders.json');
    writeFileSync(
      config,
      JSON.stringify({
        orders: { '2026-09-10': 100, '2026-09-24': -40, '2026-10-08': 20, '2026-10-20': -80 },
      }),
    );
    const traded = await hoga(['backtest', ORDERS, ...common, '--config', config, '--json'], options);
    expect(traded.code, traded.err).toBe(0);
    const tradedRun = JSON.parse(traded.out) as BacktestJson;
    expect(tradedRun.trades.map((t) => `${t.side} ${t.quantity}`)).toEqual([
      'BUY 100',
      'SELL 40',
      'BUY 20',
      'SELL 80',
    ]);
    // independently: the cash before each fill times the rate's move since the one before
    const first = tradedRun.equity[0]?.time as string;
    const last = tradedRun.equity[tradedRun.equity.length - 1]?.time as string;
    let cash = new Decimal(USD);
    let rate = rateAt.get(first) as number;
    let expected = 0;
    for (const t of tradedRun.trades) {
      const now = rateAt.get(t.time);
      expect(now, `a rate at the fill ${t.time}`).toBeDefined();
      expected += cash.toNumber() * ((now as number) - rate);
      rate = now as number;
      const amount = new Decimal(t.quantity).times(t.price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      const charges = new Decimal(t.commission).plus(t.tax);
      cash = t.side === 'BUY' ? cash.minus(amount).minus(charges) : cash.plus(amount).minus(charges);
    }
    expected += cash.toNumber() * ((rateAt.get(last) as number) - rate);
    expect(Math.abs(Number(tradedRun.stats.fxOnUsdCash) - expected)).toBeLessThanOrEqual(1);
    // the dollars moved: not the idle run's figure
    expect(Math.abs(Number(tradedRun.stats.fxOnUsdCash) - Number(idleRun.stats.fxOnUsdCash))).toBeGreaterThan(
      1,
    );

    // the report's row, and the stored run's (text and --json)
    const text = await hoga(['backtest', ORDERS, ...common, '--config', config], options);
    expect(text.code, text.err).toBe(0);
    const printed = `${new Decimal(tradedRun.stats.fxOnUsdCash as string).toNumber().toLocaleString('en-US')} KRW`;
    expect(row(text.out, 'of which FX')).toBe(printed);
    // in the column of the other rows (its label no longer than theirs)
    expect(text.out).toMatch(/^ {2}of which FX {5}-?\d/m);
    const stored = await hoga(['db', 'runs', '--db', db, '--id', tradedRun.runId], options);
    expect(stored.code, stored.err).toBe(0);
    expect(row(stored.out, 'of which FX')).toBe(printed);
    expect(stored.out).toMatch(/^of which FX {5}-?\d/m);
    const storedJson = await hoga(['db', 'runs', '--db', db, '--id', tradedRun.runId, '--json'], options);
    expect(storedJson.code, storedJson.err).toBe(0);
    expect((JSON.parse(storedJson.out) as BacktestJson).stats.fxOnUsdCash).toBe(tradedRun.stats.fxOnUsdCash);
  }, 240_000);
});
