/**
 * The first bars of a session reach the strategy as they complete, not up to 30 real seconds
 * later: the streams do not poll a closed market, and before, they looked at it again only every
 * 30 real seconds, so the first poll after an open came up to 30 s late (at ×20, ten simulated
 * minutes: the session's first ten minute bars at once). Now the run's market hours tell the
 * streams to look again shortly before the calendar's next open. Over the simulator on 127.0.0.1.
 */
import type { Bar } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Notes the close time of each bar it gets, and the engine time then. */
class Note extends Strategy {
  static seen: { closeMs: number; nowMs: number }[] = [];
  override onBar(bar: Bar): void {
    Note.seen.push({ closeMs: bar.closeTime, nowMs: this.ctx.now() });
  }
}

describe('the first bars of a session', () => {
  it('reach onBar as they complete after the open (KR pre-market 08:00 KST), not in a batch minutes later', async () => {
    Note.seen = [];
    // Monday 2026-11-30 07:59:30 KST, KR closed until the pre-market at 08:00; both clocks frozen
    // while the run starts (its streams look at the closed market then)
    const s = await startSimulatedBroker(closers, { start: '2026-11-30T07:59:30+09:00', speed: 0 });
    const db = openTempDb(closers, 'hoga-first-bar-', s.clock);
    const run = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'first-bar',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: Note }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    closers.add(() => run.handle.stop());
    s.sim.setSpeed(20);
    s.clock.setSpeed(20);
    const open = Date.parse('2026-11-30T08:00:00+09:00');
    const firstClose = open + 60_000;
    // before: the streams looked again 30 real s after the start, at about 08:09, and the bars
    // ending 08:01 .. 08:09 came together then
    await until(() => Note.seen.some((b) => b.closeMs >= firstClose), 180_000);
    const first = Note.seen.find((b) => b.closeMs > open);
    expect(first?.closeMs).toBe(firstClose);
    // it came before the bar ending 08:05 completed (about 08:01 plus a poll, on an idle machine)
    expect(first?.nowMs).toBeLessThan(open + 5 * 60_000);
    // each bar once, in order
    const stamps = Note.seen.map((b) => b.closeMs);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  }, 240_000);
});
