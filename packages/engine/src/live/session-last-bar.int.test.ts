/**
 * The last minute bars of a session reach the strategy at the close, not at the next open: the
 * streams stop polling a market once it closed, and before, the bar ending at the close (KR 20:00
 * KST, completed at that instant) was only fetched at the next morning's first poll (Monday's
 * after a Friday), a stale bar of the previous session. Over the simulator on 127.0.0.1.
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

describe('the last bars of a session', () => {
  it('reach onBar at the close (KR 20:00 KST), not at the next open', async () => {
    Note.seen = [];
    // Wednesday 2026-11-25 19:57 KST, the KR after-market; both clocks frozen while the run starts
    const s = await startSimulatedBroker(closers, { start: '2026-11-25T19:57:00+09:00', speed: 0 });
    const db = openTempDb(closers, 'hoga-last-bar-', s.clock);
    const run = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'last-bar',
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
    const close = Date.parse('2026-11-25T20:00:00+09:00');
    // the bar ending 20:00 comes while the clock is still before 20:10 (before: at 08:00 the next day)
    await until(
      () => Note.seen.some((b) => b.closeMs === close) || s.clock.nowMs() > close + 10 * 60_000,
      180_000,
    );
    const last = Note.seen.find((b) => b.closeMs === close);
    expect(last).toBeDefined();
    expect(last?.nowMs).toBeLessThan(close + 10 * 60_000);
    // each bar once, in order
    const stamps = Note.seen.map((b) => b.closeMs);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  }, 240_000);
});
