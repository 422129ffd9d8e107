/**
 * A daily strategy runs unchanged in paper and live: a day's bar reaches `onBar` at its market's
 * next regular-session open, where a market order placed on it is accepted, as a backtest fills it
 * at the next bar's open. Handed over when the streams first see it complete (in the pre-market,
 * the first hours they poll after the night, or at a run's start), its market order was refused
 * (`order-type-not-allowed`). Over the simulator on 127.0.0.1. The night itself (a bar completing
 * at midnight, held to the open past a weekend) is `daily-bar-gate.test.ts`'s.
 */
import { type Bar, Decimal, type OrderEvent } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys one share at market on the first bar it gets; notes the bar and the engine time. */
class BuyOnFirstBar extends Strategy {
  static seen: { barTs: number; nowMs: number }[] = [];
  override onBar(bar: Bar): void {
    BuyOnFirstBar.seen.push({ barTs: bar.ts, nowMs: this.ctx.now() });
    if (BuyOnFirstBar.seen.length === 1) this.ctx.buy(bar.symbol, 1);
  }
}

async function dailyRun(start: string, speed: number, mode: 'paper' | 'live' = 'paper') {
  BuyOnFirstBar.seen = [];
  const s = await startSimulatedBroker(closers, { start, speed });
  const db = openTempDb(closers, 'hoga-daily-open-', s.clock);
  const run = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId: 'daily-open',
      mode,
      symbols: ['005930'],
      interval: '1d',
      cashKrw: new Decimal(10_000_000),
      strategies: [{ strategyClass: BuyOnFirstBar }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1d: 300 } },
  );
  closers.add(() => run.handle.stop());
  return run;
}

const outcome = (events: readonly OrderEvent[]): string[] =>
  events.map((e) =>
    e.type === 'OrderDenied' || e.type === 'OrderRejected' ? `${e.type} ${e.code}` : e.type,
  );

describe('daily bars in paper and live', () => {
  it.each(['paper', 'live'] as const)(
    '%s: reach onBar at the regular open when the run starts in the pre-market; the market order fills',
    async (mode) => {
      // Wednesday 2026-11-25, 08:59:00 KST: the KR pre-market (MARKET refused), the open a minute away
      const { handle, events } = await dailyRun('2026-11-25T08:59:00+09:00', 10, mode);
      // the status line counts it while it waits
      await until(() => handle.status().barsWaiting === 1, 10_000);
      expect(BuyOnFirstBar.seen).toEqual([]);
      await until(() => events.some((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied'), 30_000);
      const [first] = BuyOnFirstBar.seen;
      // the bar of Tuesday 11-24 (stamped at its KST date), handed over at 09:00 or just after
      expect(first?.barTs).toBe(Date.parse('2026-11-24T00:00:00+09:00'));
      expect(first?.nowMs).toBeGreaterThanOrEqual(Date.parse('2026-11-25T09:00:00+09:00'));
      expect(first?.nowMs).toBeLessThan(Date.parse('2026-11-25T09:00:30+09:00'));
      expect(outcome(events)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
      expect(handle.status()).toMatchObject({ bars: 1, barsWaiting: 0 });
    },
  );

  it('reach onBar at once when the run starts in the regular session', async () => {
    const { events } = await dailyRun('2026-11-25T10:00:00+09:00', 1);
    await until(() => events.some((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied'), 30_000);
    const [first] = BuyOnFirstBar.seen;
    expect(first?.barTs).toBe(Date.parse('2026-11-24T00:00:00+09:00'));
    expect(first?.nowMs).toBeLessThan(Date.parse('2026-11-25T10:00:10+09:00'));
    expect(outcome(events)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
  });
});
