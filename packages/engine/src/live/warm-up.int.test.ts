/**
 * `static warmupBars` in paper and live, as in a backtest: the strategy gets the bars before the
 * run's first through `onBar` with `ctx.isWarmingUp`, oldest first, after `onStart`; an order then is
 * denied `warm-up`; then the run's bars follow, without a gap or a repeat. Before, paper and live
 * ignored `warmupBars`: an RSI strategy of `rsi-pullback.ts` on daily bars waited weeks of live bars
 * before its indicator was ready, where its backtest traded from the first day.
 */
import { candleToBar } from '@hoga/connector';
import type { Bar, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Asks for 3 bars of warm-up; records each bar with whether it was warm-up; buys on its first bar. */
class WarmsUp extends Strategy {
  static readonly warmupBars = 3;
  static seen: { bar: Bar; warm: boolean }[] = [];
  static started = 0;
  static events: OrderEvent[] = [];
  override onStart(): void {
    WarmsUp.started = WarmsUp.seen.length + 1;
  }
  override onBar(bar: Bar): void {
    if (WarmsUp.seen.length === 0) this.ctx.buy(bar.symbol, 1, 50_000);
    WarmsUp.seen.push({ bar: { ...bar }, warm: this.ctx.isWarmingUp });
  }
  override onOrderEvent(event: OrderEvent): void {
    WarmsUp.events.push(event);
  }
}

describe('warm-up in a paper run', () => {
  it('hands the bars before the first over as warm-up, its orders denied, then the run bars', async () => {
    WarmsUp.seen = [];
    WarmsUp.events = [];
    WarmsUp.started = 0;
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-warm-up-', s.clock);
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-warm-up',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: WarmsUp }],
      },
      { streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => WarmsUp.seen.filter((x) => !x.warm).length >= 2, 60_000);
    } finally {
      await handle.stop();
    }
    expect(WarmsUp.started).toBe(1); // onStart came first
    expect(WarmsUp.seen.slice(0, 4).map((x) => x.warm)).toEqual([true, true, true, false]);
    // one minute apart, oldest first, with no gap or repeat into the run's bars
    const times = WarmsUp.seen.map((x) => x.bar.closeTime);
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBe(60_000);
    // the warm-up bars are the broker's candles
    const third = WarmsUp.seen[2]?.bar.ts as number;
    const page = await s.client.getCandles('005930', {
      interval: '1m',
      count: 3,
      before: new Date(third + 1).toISOString(),
    });
    const candles = page.candles.map((c) => candleToBar(c, '005930', '1m')).reverse();
    expect(WarmsUp.seen.slice(0, 3).map((x) => `${x.bar.ts} ${x.bar.close}`)).toEqual(
      candles.map((b) => `${b.ts} ${b.close}`),
    );
    const denied = WarmsUp.events.filter((e) => e.type === 'OrderDenied');
    expect(denied.map((e) => (e.type === 'OrderDenied' ? e.code : ''))).toEqual(['warm-up']);
    expect(WarmsUp.events.filter((e) => e.type === 'OrderSubmitted')).toEqual([]);
  }, 90_000);
});
