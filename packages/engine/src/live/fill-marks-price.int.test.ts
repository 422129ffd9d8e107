/**
 * Paper and live value a position at the last price the run saw, and a fill's price is one: a
 * daily strategy's buy, filled during the session, is valued at its fill, not at the day before's
 * close its bar carried. Before, `ctx.unrealizedPnl`, `ctx.equity`, the status line and the stored
 * session held the previous close until the next day's bar: a paper buy of 2 005930 at 68,400
 * showed `unrealized 2,600` a second after its fill (Friday's close 69,700), and the session's
 * stored net profit was +2,580 KRW for a buy that had only paid its commission. Over the simulator
 * on 127.0.0.1 and a SQLite file.
 */
import { type Bar, Decimal, type Fill } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** What `onFill` read. */
interface AtFill {
  readonly price: number;
  readonly unrealized: string;
  readonly equity: number;
  readonly cash: number;
}

/** Buys 10 at market on its first daily bar; notes the bar's close and what `onFill` reads. */
class BuyOnDailyBar extends Strategy {
  static closes: number[] = [];
  static fills: AtFill[] = [];
  override onBar(bar: Bar): void {
    BuyOnDailyBar.closes.push(bar.close);
    if (BuyOnDailyBar.closes.length === 1) this.ctx.buy(bar.symbol, 10);
  }
  override onFill(fill: Fill): void {
    BuyOnDailyBar.fills.push({
      price: fill.price.toNumber(),
      unrealized: this.ctx.unrealizedPnl('KRW').toString(),
      equity: this.ctx.equity(),
      cash: this.ctx.cash('KRW').toNumber(),
    });
  }
}

describe('a fill marks its symbol (paper and live)', () => {
  it.each(['paper', 'live'] as const)(
    '%s: a daily buy filled in the session is valued at its fill price, not the previous close',
    async (mode) => {
      BuyOnDailyBar.closes = [];
      BuyOnDailyBar.fills = [];
      const s = await startSimulatedBroker(closers, { start: '2026-11-25T10:00:00+09:00', speed: 1 });
      const db = openTempDb(closers, 'hoga-fill-marks-', s.clock);
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `fill-marks-${mode}`,
          mode,
          symbols: ['005930'],
          interval: '1d',
          cashKrw: new Decimal(10_000_000),
          cashUsd: new Decimal(0),
          strategies: [{ strategyClass: BuyOnDailyBar }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1d: 300 } },
      );
      closers.add(() => handle.stop());
      await until(() => BuyOnDailyBar.fills.length > 0, 30_000);
      const [atFill] = BuyOnDailyBar.fills;
      if (atFill === undefined) throw new Error('no fill');
      // the test means something only when the session's price moved away from the previous close
      expect(atFill.price).not.toBe(BuyOnDailyBar.closes[0]);
      expect(atFill.unrealized).toBe('0');
      // cash plus the 10 shares at the fill price (the commission is what the equity lost)
      expect(atFill.equity).toBe(atFill.cash + 10 * atFill.price);
    },
  );
});
