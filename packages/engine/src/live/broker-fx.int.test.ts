/**
 * A live or paper run given no USD/KRW rates of its own values USD in KRW at the broker's display
 * rate valid now, as docs/strategies.md says of `ctx.equity()`: read at the start and followed while
 * the run runs (before, `hoga run` read one rate at its start and valued USD at it for the whole
 * run, days later too). Over the simulator on 127.0.0.1, its clock frozen and then moved two days.
 */
import type { Bar, OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { advance, Holds, startFxRun, usdInKrw, valuedAt } from './fx-run.test-helper.js';
import { Closers, KR_OPEN, until, waitUntil } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

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
    let reads: ReturnType<typeof vi.spyOn> | undefined;
    const events: OrderEvent[] = [];
    const { s } = await startFxRun(closers, {
      runId: 'broker-fx-once',
      start: KR_OPEN,
      symbol: '005930',
      cash: { KRW: 10_000_000, USD: 0 },
      strategyClass: BuysEachBar,
      // the stream polls once in this test
      streamIntervals: { exchangeRate: 3_600_000, candles1m: 200 },
      onEvent: (e) => events.push(e),
      prepare: (b) => {
        reads = vi.spyOn(b.client, 'getExchangeRate');
      },
    });
    const fills = () => events.filter((e) => e.type === 'OrderFilled').length;
    await until(() => fills() >= 1);
    // a minute later: a new bar, a new order, the view's copy of the rate over a minute old
    advance(s, 61_000);
    await until(() => fills() >= 2);
    expect(reads).toHaveBeenCalledTimes(2);
  }, 60_000);

  it('values USD at the broker rate valid now, and follows it as it changes', async () => {
    // 10:00 New York, the clock frozen (moved by hand below)
    const { s } = await startFxRun(closers, {
      runId: 'broker-fx',
      streamIntervals: { exchangeRate: 200 },
    });
    const first = await usdInKrw(s);
    expect(valuedAt(first)).toBe(true);
    // ctx.usdKrw() is the rate it values them at
    expect(Holds.ctx?.usdKrw()).toBeCloseTo(first / 10_000, 9);

    // two days later the broker's rate is another
    s.sim.advanceClock(2 * 24 * 3_600_000);
    const later = await usdInKrw(s);
    expect(later).not.toBeCloseTo(first, 0);
    expect(await waitUntil(() => valuedAt(later), 10_000)).toBe(true);
    expect(Holds.ctx?.usdKrw()).toBeCloseTo(later / 10_000, 9);
  }, 60_000);
});
