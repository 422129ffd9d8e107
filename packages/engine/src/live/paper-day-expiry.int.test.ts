/**
 * A DAY order still working at the end of its trading day ends there in paper, as the broker
 * cancels it (KR 20:00 KST): before, paper ended it only at the first order book of the next
 * session (08:00 the next morning, Monday's after a Friday), and the strategy saw it working all
 * night. Over the simulator on 127.0.0.1: a limit buy well below the market rests in the KR
 * after-market, then both clocks run past 20:00.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  RestBelow,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe('DAY orders at the end of their trading day', () => {
  it.each(['paper', 'live'] as const)(
    '%s: a KR order resting at 20:00 KST ends then',
    async (mode) => {
      // Wednesday 2026-11-25 19:58 KST: the KR after-market, two minutes before the day's end
      const s = await startSimulatedBroker(closers, { start: '2026-11-25T19:58:00+09:00', speed: 0 });
      const db = openTempDb(closers, 'hoga-day-expiry-', s.clock);
      const run = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `day-expiry-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(1_000_000),
          strategies: [{ strategyClass: RestBelow }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      closers.add(() => run.handle.stop());
      // the clocks run (×30) until the first bar completes and the order rests
      s.sim.setSpeed(30);
      s.clock.setSpeed(30);
      await until(() => run.events.some((e) => e.type === 'OrderAccepted'));
      s.sim.setSpeed(0);
      s.clock.setSpeed(0);
      expect(s.clock.nowMs()).toBeLessThan(Date.parse('2026-11-25T20:00:00+09:00'));
      // past the end of the day: 20:00:30 KST
      const after = '2026-11-25T20:00:30+09:00';
      s.sim.setClock(after);
      s.clock.set(Date.parse(after));
      await until(
        () => run.events.some((e) => e.type === 'OrderExpired' || e.type === 'OrderCanceled'),
        30_000,
      );
      const ended = run.events.find((e) => e.type === 'OrderExpired' || e.type === 'OrderCanceled');
      expect(ended?.tsEvent).toBeGreaterThanOrEqual(Date.parse('2026-11-25T20:00:00+09:00'));
    },
    120_000,
  );
});
