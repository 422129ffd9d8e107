/**
 * What docs/strategies.md promises a new strategy author, checked over `hoga backtest` in a child
 * process against the simulator's candles (a daily portfolio of a KR and a US stock, a minute
 * strategy with a warm-up): market orders fill at the next bar's open, stamped at that bar's close;
 * a US buy sized in dollars and a fractional US market sell; each currency's cash on its own (a
 * dollar buy the dollars do not cover is denied while the won would); KR commission 0.015 %
 * truncated to the won and US 0.1 % to the cent; `ctx.state` stored under
 * `backtest/<runId>/<strategyId>`; orders placed while warming up denied `warm-up` and counted as
 * refused, none filled; the same command twice gives the same document, the run id aside.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HogaDatabase } from '@hoga/store';
import { Decimal } from 'decimal.js';
import { afterAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

const scratch = useCliSimulator('hoga-backtest-journey-');
const db = join(scratch.dir, 'hoga.sqlite');
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

/**
 * On AAPL's bar of the first day (after 005930's: it closes later) buys 3 of 005930 and $300 of
 * AAPL, then $800 of AAPL, which the $1,000 of cash less the first buy cannot pay; on the second
 * day sells half a share of AAPL and keeps the date in `ctx.state`.
 */
const PORTFOLIO = `import type { Bar } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';
export default class Portfolio extends Strategy<{ krShares: number }> {
  static readonly configSchema = z.object({ krShares: z.number().int().positive().default(3) });
  private day = 0;
  override onBar(bar: Bar): void {
    if (bar.symbol !== 'AAPL') return;
    this.day += 1;
    if (this.day === 1) {
      this.ctx.buy('005930', this.config.krShares);
      this.ctx.buyAmount('AAPL', 300);
      this.ctx.buyAmount('AAPL', 800);
    } else if (this.day === 2) {
      this.ctx.sell('AAPL', 0.5);
      this.ctx.state.set('lastRebalance', new Date(this.ctx.now()).toISOString());
    }
  }
}
`;

/** Asks for 3 warm-up bars and places a limit buy 5 % under the close (on 005930's grid) on every bar. */
const WARM = `import type { Bar } from '@hoga/core';
import { Strategy } from '@hoga/engine';
export default class Warm extends Strategy {
  static readonly warmupBars = 3;
  override onBar(bar: Bar): void {
    this.ctx.buy(bar.symbol, 1, Math.floor((bar.close * 0.95) / 100) * 100);
  }
}
`;

/** A config schema of the kinds a quant writes: a union of literals, a pattern, a step, a cross-field check. */
const CHECKED = `import { Strategy, z } from '@hoga/engine';
const Config = z
  .object({
    side: z.union([z.literal('BUY'), z.literal('SELL')]).default('BUY'),
    hedge: z.string().regex(/^\\d{6}$/).default('069500'),
    lot: z.number().multipleOf(10).default(10),
    fast: z.number().default(3),
    slow: z.number().default(8),
  })
  .refine((c) => c.fast < c.slow);
export default class Checked extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
}
`;

function strategyFile(name: string, source: string): string {
  const file = join(scratch.dir, `${name}.ts`);
  writeFileSync(file, source);
  return file;
}

const RANGE = ['--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-06'];

function backtest(file: string, symbols: string, ...more: string[]) {
  return hoga([file, '--symbols', symbols, ...RANGE, ...simFlags(scratch.sim.url), '--db', db, ...more]);
}

/** `hoga backtest` as a user runs it, a child process; the limit kept for a loaded machine. */
const CHILD = { timeout: 180_000 };

describe('hoga backtest: what a strategy author is promised', CHILD, () => {
  it('fills market orders at the next open, keeps each currency apart, charges as the broker, reruns identically', async () => {
    const file = strategyFile('portfolio', PORTFOLIO);
    const args = ['--cash', 'KRW=10000000,USD=1000', '--usd-krw', '1400', '--json'];
    const first = await backtest(file, '005930,AAPL', ...args);
    expect(first.code, first.stderr).toBe(0);
    const run = JSON.parse(first.stdout) as BacktestJson;

    const kr = cachedBars(db, '005930', '2026-11-03', '2026-11-06');
    const us = cachedBars(db, 'AAPL', '2026-11-03', '2026-11-06');
    expect(kr.length).toBe(4);
    expect(us.length).toBe(4);
    const trades = run.trades.map((t) => [
      t.symbol,
      t.side,
      t.quantity,
      t.price,
      t.currency,
      t.commission,
      t.tax,
    ]);
    const krPrice = new Decimal(kr[1]?.open ?? 0);
    const buyPrice = new Decimal(us[1]?.open ?? 0);
    const sellPrice = new Decimal(us[2]?.open ?? 0);
    const bought = new Decimal(300).div(buyPrice).toDecimalPlaces(6, Decimal.ROUND_DOWN);
    const krCommission = krPrice.times(3).times('0.00015').floor();
    const buyCommission = bought.times(buyPrice).toDecimalPlaces(2).times('0.001').toDecimalPlaces(2);
    const sellCommission = sellPrice.times('0.5').toDecimalPlaces(2).times('0.001').toDecimalPlaces(2);
    expect(trades).toEqual([
      ['005930', 'BUY', '3', krPrice.toString(), 'KRW', krCommission.toString(), '0'],
      ['AAPL', 'BUY', bought.toString(), buyPrice.toString(), 'USD', buyCommission.toString(), '0'],
      ['AAPL', 'SELL', '0.5', sellPrice.toString(), 'USD', sellCommission.toString(), '0'],
    ]);
    // each stamped at the close of the bar it filled on: 005930 at 15:30 KST, AAPL at 16:00 New York
    expect(run.trades.map((t) => t.time)).toEqual([
      '2026-11-04T15:30:00.000+09:00',
      '2026-11-05T06:00:00.000+09:00',
      '2026-11-06T06:00:00.000+09:00',
    ]);
    // the second dollar buy is denied for dollars though the won would cover it many times over
    expect(run.stats.refused).toEqual({ 'insufficient-buying-power': 1 });
    expect(run.stats.commissions).toEqual({
      KRW: krCommission.toString(),
      USD: buyCommission.plus(sellCommission).toString(),
    });

    const database = HogaDatabase.open(db);
    try {
      const state = database.strategyState.get(`backtest/${run.runId}/Portfolio`, 'lastRebalance');
      // set on AAPL's second bar, handed over at its close: 16:00 New York on 2026-11-04
      expect(state).toBe('2026-11-04T21:00:00.000Z');
    } finally {
      database.close();
    }

    const second = await backtest(file, '005930,AAPL', ...args);
    expect(second.code, second.stderr).toBe(0);
    const again = JSON.parse(second.stdout) as BacktestJson;
    expect(again.runId).not.toBe(run.runId);
    expect({ ...again, runId: '' }).toEqual({ ...run, runId: '' });
  });

  it('exits 2 on a bad config naming, for each field, the value and what was expected, zod defaults included', async () => {
    const file = strategyFile('checked', CHECKED);
    const config = join(scratch.dir, 'checked.json');
    writeFileSync(config, JSON.stringify({ side: 'HOLD', hedge: 'KODEX', lot: 15 }));
    const fields = await backtest(file, '005930', '--config', config);
    expect(fields.code, fields.stderr).toBe(2);
    expect(fields.stderr).toContain(
      [
        `hoga: invalid config for strategy Checked (from ${config}):`,
        '  side: found "HOLD", expected "BUY" or "SELL"',
        '  hedge: found "KODEX", expected string to match pattern /^\\d{6}$/',
        '  lot: found 15, expected number to be a multiple of 10',
      ].join('\n'),
    );
    // a refinement with no message of its own
    writeFileSync(config, JSON.stringify({ fast: 9, slow: 8 }));
    const crossed = await backtest(file, '005930', '--config', config);
    expect(crossed.code, crossed.stderr).toBe(2);
    expect(crossed.stderr).toContain(
      `hoga: invalid config for strategy Checked (from ${config}):\n` +
        '  (config): found {"fast":9,"slow":8}, expected what the schema\'s refinement accepts ' +
        "(it gives no message: give it one, e.g. {message: 'less than slow', path: ['fast']})",
    );
    for (const { stderr } of [fields, crossed]) expect(stderr).not.toContain('Invalid');
  });

  it('exits 2 for a file whose top-level code throws, naming the file, the error and its line there', async () => {
    // line 4 is the throw, in a helper the file calls at its top level (column 9: `throw`)
    const source = `import { Strategy } from '@hoga/engine';
const LOTS: Record<string, number> = { '005930': 1 };
function lotOf(symbol: string): number {
  if (LOTS[symbol] === undefined) throw new Error(\`no lot for \${symbol}\`);
  return LOTS[symbol];
}
const HEDGE_LOT = lotOf('069500');
export default class Loading extends Strategy {
  readonly lot = HEDGE_LOT;
}
`;
    const file = strategyFile('loading', source);
    const result = await backtest(file, '005930');
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `hoga: strategy file ${file} failed to load: no lot for 069500 (at ${file}:4:41)\n`,
    );
  });

  it('denies every order placed while warming up (warm-up), counts them as refused, and fills none of them', async () => {
    const result = await backtest(strategyFile('warm', WARM), '005930', '--json');
    expect(result.code, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as BacktestJson;
    expect(run.stats.refused).toEqual({ 'warm-up': 3 });
    expect(run.trades).toEqual([]);
    expect(run.stats.bars).toBe(4);
  });
});
