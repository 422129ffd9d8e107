/**
 * A live or paper run given no USD/KRW rates of its own values USD in KRW at the broker's display
 * rate valid now, as docs/strategies.md says of `ctx.equity()`: read at the start and followed while
 * the run runs (before, `hoga run` read one rate at its start and valued USD at it for the whole
 * run, days later too). Over the simulator on 127.0.0.1, its clock frozen and then moved two days.
 */
import { type Bar, createLogger, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { Closers, openTempDb, startSimulatedBroker, until, waitUntil } from './live-run.test-helper.js';
import { startLiveRun } from './run-live.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Keeps its context, to read its equity. */
class Holds extends Strategy {
  static ctx: StrategyContext | null = null;
  override onStart(): void {
    Holds.ctx = this.ctx;
  }
}

/** Buys one share on each bar (its orders' risk checks read what they need). */
class BuysEachBar extends Strategy {
  override onBar(bar: Bar): void {
    if (!this.ctx.isWarmingUp) this.ctx.buy(bar.symbol, 1);
  }
}

describe('a run without fx rates of its own', () => {
  it('reads the rate at its start and on its stream only: the risk checks take the same rate', async () => {
    // before: the risk module's market view read the rate again at its first refresh and whenever
    // its copy was a minute old, beside the run's exchange-rate stream (two reads a minute)
    const s = await startSimulatedBroker(closers, { speed: 0 });
    const db = openTempDb(closers, 'hoga-broker-fx-once-', s.clock);
    const reads = vi.spyOn(s.client, 'getExchangeRate');
    const events: OrderEvent[] = [];
    const handle = await startLiveRun({
      settings: {
        runId: 'broker-fx-once',
        mode: 'paper',
        symbols: ['005930'],
        interval: '1m',
        cash: { KRW: new Decimal(10_000_000), USD: new Decimal(0) },
      },
      strategies: [{ strategyClass: BuysEachBar }],
      client: s.client,
      db,
      clock: s.clock,
      logger: createLogger({ level: 'silent' }),
      // the stream polls once in this test
      streamIntervals: { exchangeRate: 3_600_000, candles1m: 200 },
      onEvent: (e) => events.push(e),
    });
    closers.add(() => handle.stop());
    const fills = () => events.filter((e) => e.type === 'OrderFilled').length;
    await until(() => fills() >= 1);
    // a minute later: a new bar, a new order, the view's copy of the rate over a minute old
    s.sim.advanceClock(61_000);
    s.clock.advance(61_000);
    await until(() => fills() >= 2);
    expect(reads).toHaveBeenCalledTimes(2);
  }, 60_000);

  it('values USD at the broker rate valid now, and follows it as it changes', async () => {
    // 10:00 New York, the clock frozen (moved by hand below)
    const s = await startSimulatedBroker(closers, { start: '2026-11-23T10:00:00-05:00', speed: 0 });
    const db = openTempDb(closers, 'hoga-broker-fx-', s.clock);
    const handle = await startLiveRun({
      settings: {
        runId: 'broker-fx',
        mode: 'paper',
        symbols: ['AAPL'],
        interval: '1m',
        cash: { KRW: new Decimal(0), USD: new Decimal(10_000) },
      },
      strategies: [{ strategyClass: Holds }],
      client: s.client,
      db,
      clock: s.clock,
      logger: createLogger({ level: 'silent' }),
      streamIntervals: { exchangeRate: 200 },
    });
    closers.add(() => handle.stop());
    const usdInKrw = async () => (await s.client.getExchangeRate()).rate.times(10_000).toNumber();

    const first = await usdInKrw();
    expect(Holds.ctx?.equity()).toBeCloseTo(first, 6);

    // two days later the broker's rate is another
    s.sim.advanceClock(2 * 24 * 3_600_000);
    const later = await usdInKrw();
    expect(later).not.toBeCloseTo(first, 0);
    expect(await waitUntil(() => Math.abs((Holds.ctx?.equity() ?? 0) - later) < 1e-6, 10_000)).toBe(true);
  }, 60_000);
});
