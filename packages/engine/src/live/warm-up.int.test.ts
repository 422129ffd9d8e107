/**
 * `static warmupBars` in paper and live, as in a backtest: the strategy gets the bars before the
 * run's first through `onBar` with `ctx.isWarmingUp`, oldest first, after `onStart`; an order then is
 * denied `warm-up`; then the run's bars follow, without a gap or a repeat. Before, paper and live
 * ignored `warmupBars`: an RSI strategy of `rsi-pullback.ts` on daily bars waited weeks of live bars
 * before its indicator was ready, where its backtest traded from the first day.
 */
import { candleToBar } from '@hoga/connector';
import type { Bar, OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  type SimulatedBroker,
  startRunOf005930,
  startSimulatedBroker,
  until,
} from './live-run.test-helper.js';

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

/**
 * A paper run of `strategy` on 005930 over a simulator of its own (`startRunOf005930`: its candles
 * polled every 300 ms of real time), stopped once `done`; answers the simulator.
 */
async function paperRunUntil(
  broker: Parameters<typeof startSimulatedBroker>[1],
  strategy: StrategyClass,
  done: () => boolean,
): Promise<SimulatedBroker> {
  const s = await startSimulatedBroker(closers, broker);
  const db = openTempDb(closers, 'hoga-warm-up-', s.clock);
  const { handle } = await startRunOf005930({ client: s.client, clock: s.clock, db }, 'paper', {
    strategyClass: strategy,
  });
  try {
    await until(done, 60_000);
  } finally {
    await handle.stop();
  }
  return s;
}

describe('warm-up in a paper run', () => {
  it('hands the bars before the first over as warm-up, its orders denied, then the run bars', async () => {
    WarmsUp.seen = [];
    WarmsUp.events = [];
    WarmsUp.started = 0;
    const s = await paperRunUntil(
      { speed: 30 },
      WarmsUp,
      () => WarmsUp.seen.filter((x) => !x.warm).length >= 2,
    );
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

/** Asks for 2 bars of warm-up, and takes `pauseMs` (real time) over its first warm-up bar. */
class SlowWarmUp extends Strategy {
  static readonly warmupBars = 2;
  static seen: { bar: Bar; warm: boolean }[] = [];
  static pauseMs = 0;
  override async onBar(bar: Bar): Promise<void> {
    const first = SlowWarmUp.seen.length === 0;
    SlowWarmUp.seen.push({ bar: { ...bar }, warm: this.ctx.isWarmingUp });
    if (first) await new Promise((done) => setTimeout(done, SlowWarmUp.pauseMs));
  }
}

describe('warm-up that takes a while', () => {
  it('is followed by every bar after it: those that completed meanwhile too', async () => {
    // at ×60, the 2.5 s the warm-up takes are 2.5 minutes of the broker's clock: the candles
    // completed meanwhile come before the newest. Before, the run's bars began at the newest
    // completed when the streams started, and the ones between the warm-up's last and it were
    // never handed over (the 20:00 bar of closed-session-first-bar.int.test.ts, lost at times:
    // a warm-up of many symbols reads 5 of them a second)
    SlowWarmUp.seen = [];
    SlowWarmUp.pauseMs = 2_500;
    await paperRunUntil(
      { speed: 60, start: '2026-11-30T10:00:30+09:00' },
      SlowWarmUp,
      () => SlowWarmUp.seen.filter((x) => !x.warm).length >= 4,
    );
    expect(SlowWarmUp.seen.slice(0, 3).map((x) => x.warm)).toEqual([true, true, false]);
    const kst = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().slice(11, 16);
    const times = SlowWarmUp.seen.map((x) => x.bar.closeTime);
    // one minute apart from the warm-up into the run's bars: none left out
    expect(times.map(kst)).toEqual(times.map((_, i) => kst((times[0] as number) + i * 60_000)));
  }, 90_000);
});
