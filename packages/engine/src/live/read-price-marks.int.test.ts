/**
 * Paper and live value a position at the broker's last price the risk module reads every few
 * seconds, also between a daily run's bars: a daily strategy's 10 shares, filled during the
 * session, follow the price the broker shows afterwards. Before, they kept their fill price (or
 * the day before's close their bar carried) until the next day's bar: with the price 3,000 KRW
 * above the fill, `ctx.unrealizedPnl` and the status line said 0 all session long. Over the
 * simulator on 127.0.0.1 and a SQLite file.
 */
import { type Bar, Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 10 at market on its first daily bar. */
class BuyOnDailyBar extends Strategy {
  static fills: Fill[] = [];
  static ctx: BuyOnDailyBar['ctx'] | null = null;
  override onStart(): void {
    BuyOnDailyBar.ctx = this.ctx;
  }
  override onBar(bar: Bar): void {
    if (this.ctx.position(bar.symbol) === undefined && this.ctx.openOrders().length === 0)
      this.ctx.buy(bar.symbol, 10);
  }
  override onFill(fill: Fill): void {
    BuyOnDailyBar.fills.push(fill);
  }
}

describe('a position of a daily run between its bars (paper and live)', () => {
  it.each(['paper', 'live'] as const)(
    "%s: is valued at the broker's last price read during the session",
    async (mode) => {
      BuyOnDailyBar.fills = [];
      BuyOnDailyBar.ctx = null;
      const s = await startSimulatedBroker(closers, { start: '2026-11-25T10:00:00+09:00', speed: 1 });
      const db = openTempDb(closers, `hoga-read-price-marks-${mode}-`, s.clock);
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `read-price-marks-${mode}`,
          mode,
          symbols: ['005930'],
          interval: '1d',
          cashKrw: new Decimal(10_000_000),
          strategies: [{ strategyClass: BuyOnDailyBar }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1d: 300 } },
      );
      closers.add(() => handle.stop());
      await until(() => BuyOnDailyBar.fills.length > 0, 30_000);
      const fill = BuyOnDailyBar.fills[0] as Fill;
      expect(fill.quantity.toString()).toBe('10');

      // the market stops 3,000 KRW above the fill
      s.sim.setSpeed(0);
      s.clock.setSpeed(0);
      s.sim.setPrice('005930', fill.price.plus(3_000));
      // the risk module reads the broker's prices every 5 s (its account-info age)
      await until(() => handle.status().pnl.KRW.unrealized.eq(30_000), 20_000);
      const ctx = BuyOnDailyBar.ctx as BuyOnDailyBar['ctx'] | null;
      expect(ctx?.unrealizedPnl('KRW').toString()).toBe('30000');
      expect(ctx?.equity()).toBe(ctx?.cash('KRW').plus(fill.price.plus(3_000).times(10)).toNumber());
    },
    60_000,
  );
});
