/**
 * Paper and live timers after the process could not run for a while (a machine asleep, a hook
 * that blocked): a repeating timer fires once for the periods it missed, at the latest of them,
 * then on its grid. Before, every missed period fired at once, back to back, each hook reading the
 * same time: a strategy rebalancing every 10 s placed a dozen rounds of orders after a 2 s stall
 * at ×60. The stall here is a hook that keeps the process busy for 2 real seconds (120 s of the
 * engine's clock, twelve periods).
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { TimerFired } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const EVERY = 10_000;

/** A timer every 10 s (engine time); its second firing keeps the process busy for 2 s (real time). */
class Stalls extends Strategy {
  static fired: { due: number; now: number }[] = [];
  override onStart(): void {
    this.ctx.setTimer('every', { every: EVERY });
  }
  override onTimer(timer: TimerFired): void {
    Stalls.fired.push({ due: timer.tsEvent, now: this.ctx.now() });
    if (Stalls.fired.length === 2) {
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        // busy: no timer, poll or tick runs meanwhile
      }
    }
  }
}

describe('paper timers after a stall', () => {
  it('fire once for the periods missed, then on their grid', async () => {
    const s = await startSimulatedBroker(closers, { speed: 60 });
    const db = openTempDb(closers, 'hoga-timer-stall-', s.clock);
    Stalls.fired = [];
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-timer-stall',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Stalls }],
      },
      { streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => Stalls.fired.length >= 5, 60_000);
    } finally {
      await handle.stop();
    }
    const first = Stalls.fired[0]?.due ?? 0;
    for (const [i, f] of Stalls.fired.entries()) {
      // each firing is on the grid, and none is two periods or more behind the time it ran at (a period, and what a loaded machine adds)
      expect((f.due - first) % EVERY, `firing ${i}`).toBe(0);
      expect(f.now - f.due, `firing ${i}: due ${f.due}, ran at ${f.now}`).toBeLessThan(2 * EVERY);
    }
    // after the stall: the next firing skipped the periods missed
    const [, second, third] = Stalls.fired;
    expect((third?.due ?? 0) - (second?.due ?? 0)).toBeGreaterThan(EVERY);
  }, 90_000);
});
