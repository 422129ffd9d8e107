/**
 * An order placed inside a bar's period (from a timer, between two bar closes) fills on that bar at
 * its close, never at its open (a price from before the order existed), while an order placed on a
 * bar's close still fills at the next bar's open: `hoga backtest` in a child process over the
 * simulator's candles, on daily and on minute bars.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { cachedBars, hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

/** Buys 1 share at market on the bar closing at `onBarAt`, and 2 from a timer due at `timerAt`. */
const TIMER_BUY = `
import type { Bar } from '@hoga/core';
import { Strategy, z } from '@hoga/engine';

const Config = z.object({ onBarAt: z.string(), timerAt: z.string() });

export default class TimerBuy extends Strategy<z.infer<typeof Config>> {
  static readonly configSchema = Config;
  override onStart(): void {
    this.ctx.setTimer('buy', { at: Date.parse(this.config.timerAt) });
  }
  override onTimer(): void {
    this.ctx.buy('005930', 2);
  }
  override onBar(bar: Bar): void {
    if (bar.closeTime === Date.parse(this.config.onBarAt)) this.ctx.buy(bar.symbol, 1);
  }
}
`;

const scratch = useCliSimulator('hoga-backtest-timer-fill-');
const db = join(scratch.dir, 'hoga.sqlite');
const strategy = join(scratch.dir, 'timer-buy.ts');
writeFileSync(strategy, TIMER_BUY);
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

/** Runs the strategy over 005930's bars of `interval` from `from` to `to`; the trades as filled. */
async function trades(
  interval: '1m' | '1d',
  from: string,
  to: string,
  config: { onBarAt: string; timerAt: string },
): Promise<{ quantity: string; price: string; time: number }[]> {
  const file = join(scratch.dir, `config-${interval}.json`);
  writeFileSync(file, JSON.stringify(config));
  const result = await hoga([
    strategy,
    ...['--symbols', '005930', '--interval', interval, '--from', from, '--to', to],
    ...['--config', file, '--json', ...simFlags(scratch.sim.url), '--db', db],
  ]);
  expect(result.code, result.stderr).toBe(0);
  const run = JSON.parse(result.stdout) as BacktestJson;
  return run.trades.map((t) => ({ quantity: t.quantity, price: t.price, time: Date.parse(t.time) }));
}

/**
 * Each test starts `hoga backtest` through tsx, which compiles the CLI's sources at the start:
 * 4–6 s a test with two busy loops on two cores, up to a third of vitest's default 30 s.
 */
const TSX_CHILD = { timeout: 120_000 };

describe('hoga backtest: an order placed inside a bar fills at its close', TSX_CHILD, () => {
  it("daily bars: a market buy from a timer at 14:00 KST fills at that day's close, 15:30; one placed on the previous bar at the open", async () => {
    const filled = await trades('1d', '2026-11-03', '2026-11-05', {
      onBarAt: '2026-11-03T15:30:00+09:00',
      timerAt: '2026-11-04T14:00:00+09:00',
    });
    const day = cachedBars(db, '005930', '2026-11-04', '2026-11-04')[0];
    expect(day).toBeDefined();
    const { open, close, closeTime } = day as NonNullable<typeof day>;
    expect(open).not.toBe(close);
    expect(closeTime).toBe(Date.parse('2026-11-04T15:30:00+09:00'));
    expect(filled).toEqual([
      { quantity: '1', price: String(open), time: closeTime },
      { quantity: '2', price: String(close), time: closeTime },
    ]);
  });

  it('minute bars: a market buy from a timer at 10:00:30 KST fills at the close of the minute it was placed in (stamped 10:01); one placed at 10:00 at its open', async () => {
    const filled = await trades('1m', '2026-11-04', '2026-11-04', {
      onBarAt: '2026-11-04T10:00:00+09:00',
      timerAt: '2026-11-04T10:00:30+09:00',
    });
    const minute = cachedBars(db, '005930', '2026-11-04', '2026-11-04', '1m').find(
      (b) => b.ts === Date.parse('2026-11-04T10:01:00+09:00'),
    );
    expect(minute).toBeDefined();
    const { open, close, closeTime } = minute as NonNullable<typeof minute>;
    expect(open).not.toBe(close);
    expect(filled).toEqual([
      { quantity: '1', price: String(open), time: closeTime },
      { quantity: '2', price: String(close), time: closeTime },
    ]);
  }, 60_000);
});
