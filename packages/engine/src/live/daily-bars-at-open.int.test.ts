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
import {
  Closers,
  openTempDb,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

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

/**
 * Sets the simulator's clock and the engine's together to `at` (when given) and runs both at
 * `speed` from there. The tests start both frozen (speed 0), so that the run's start, however long
 * it takes on a loaded machine, uses up none of the simulated minutes before the open: before,
 * they ran at ×10 from 08:59:00, and a start slower than 6 s met the open already passed.
 */
function runClocks(s: SimulatedBroker, speed: number, at?: string): void {
  if (at !== undefined) {
    s.sim.setClock(at);
    s.clock.set(Date.parse(at));
  }
  s.sim.setSpeed(speed);
  s.clock.setSpeed(speed);
}

/** A paper or live run of {@link BuyOnFirstBar} on 005930's daily bars, both clocks frozen at `start`. */
async function dailyRun(start: string, mode: 'paper' | 'live' = 'paper') {
  BuyOnFirstBar.seen = [];
  const s = await startSimulatedBroker(closers, { start, speed: 0 });
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
  return { ...run, s };
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
      const { handle, events, s } = await dailyRun('2026-11-25T08:59:00+09:00', mode);
      // the status line counts it while it waits
      await until(() => handle.status().barsWaiting === 1, 30_000);
      expect(BuyOnFirstBar.seen).toEqual([]);
      // five seconds before the open, at real speed: the handover has 30 s of real time after it
      runClocks(s, 1, '2026-11-25T08:59:55+09:00');
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
    const { events, s } = await dailyRun('2026-11-25T10:00:00+09:00');
    runClocks(s, 1);
    await until(() => events.some((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied'), 30_000);
    const [first] = BuyOnFirstBar.seen;
    expect(first?.barTs).toBe(Date.parse('2026-11-24T00:00:00+09:00'));
    expect(first?.nowMs).toBeLessThan(Date.parse('2026-11-25T10:00:10+09:00'));
    expect(outcome(events)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
  });

  it('hold a 1d subscription made in onStart beside a minute universe until the open', async () => {
    const seen: string[] = [];
    /** Trades the universe's minute bars; subscribes to 000660's daily bars and buys on the first. */
    class MinutesAndADay extends Strategy {
      override onStart(): void {
        this.ctx.subscribeBars('000660', '1d');
      }
      override onBar(bar: Bar): void {
        const at = new Date(this.ctx.now() + 9 * 3_600_000).toISOString().slice(11, 19);
        if (bar.interval === '1d' && !seen.some((s) => s.startsWith('1d'))) {
          seen.push(`1d ${bar.symbol} at ${at}`);
          this.ctx.buy(bar.symbol, 1);
        }
        if (bar.interval === '1m' && !seen.some((s) => s.startsWith('1m'))) seen.push(`1m ${bar.symbol}`);
      }
    }
    const s = await startSimulatedBroker(closers, { start: '2026-11-25T08:59:00+09:00', speed: 0 });
    const db = openTempDb(closers, 'hoga-daily-sub-', s.clock);
    const { handle, events } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'daily-sub',
        mode: 'paper',
        symbols: ['005930'],
        interval: '1m',
        cashKrw: new Decimal(10_000_000),
        strategies: [{ strategyClass: MinutesAndADay }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300, candles1d: 300 } },
    );
    closers.add(() => handle.stop());
    // the pre-market's minute bars go through while the day's bar waits for 09:00
    await until(() => seen.includes('1m 005930') && handle.status().barsWaiting === 1, 30_000);
    expect(seen.some((e) => e.startsWith('1d'))).toBe(false);
    runClocks(s, 1, '2026-11-25T08:59:55+09:00');
    await until(() => events.some((e) => e.type === 'OrderFilled' || e.type === 'OrderDenied'), 30_000);
    expect(seen.find((e) => e.startsWith('1d'))).toMatch(/^1d 000660 at 09:00:[0-2]\d$/);
    expect(outcome(events)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
  });
});
