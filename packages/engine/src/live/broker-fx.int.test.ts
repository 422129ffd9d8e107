/**
 * A live or paper run given no USD/KRW rates of its own values USD in KRW at the broker's display
 * rate valid now, as docs/strategies.md says of `ctx.equity()`: read at the start and followed while
 * the run runs (before, `hoga run` read one rate at its start and valued USD at it for the whole
 * run, days later too). Over the simulator on 127.0.0.1, its clock frozen and then moved two days.
 */
import { createLogger, Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { Closers, openTempDb, startSimulatedBroker, waitUntil } from './live-run.test-helper.js';
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

describe('a run without fx rates of its own', () => {
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
