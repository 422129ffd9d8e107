/**
 * The dollar-cost averaging's schedule survives a restart, in paper and live over the simulator on
 * 127.0.0.1: a run buys 005930 on its first bar, is stopped, and a second run of the same strategy
 * id on the same database file the same trading day buys nothing over its next minutes' bars (its
 * state says the day's buy was placed; without it, it bought again on its first new bar); a
 * strategy id without that state buys on its first bar.
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  startSimulatedBroker,
  startTestRun,
  tempDbFile,
  until,
} from '../packages/engine/src/live/live-run.test-helper.js';
import type { StrategySpec } from '../packages/engine/src/runtime/engine-runtime.js';
import { HogaDatabase } from '../packages/store/src/index.js';
import DollarCostAverage, { type BuySchedule, scheduleKey } from './dollar-cost-average.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

describe.each(['paper', 'live'] as const)('%s: DollarCostAverage restarted the same day', (mode) => {
  it('does not buy a second time; a strategy without its state does', async () => {
    // 10:00 KST, a Monday: the regular session; × 60, a minute bar a second
    const s = await startSimulatedBroker(closers, { speed: 60 });
    const file = tempDbFile(`hoga-dca-restart-${mode}-`);
    let db = HogaDatabase.open(file, { clock: s.clock });
    closers.add(() => db.close());
    const config = { krw: 300_000, everyDays: 1 };
    const run = (strategies: StrategySpec[]) =>
      startTestRun(
        { client: s.client, clock: s.clock, db },
        { runId: `dca-${mode}`, mode, symbols: ['005930'], cashKrw: new Decimal(10_000_000), strategies },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );

    const first = await run([{ strategyClass: DollarCostAverage, id: 'dca', config }]);
    try {
      await until(() => first.events.some((e) => e.type === 'OrderFilled'));
    } finally {
      await first.handle.stop();
    }
    expect(first.events.filter((e) => e.type === 'OrderSubmitted')).toHaveLength(1);
    const kept = db.strategyState.get(mode === 'paper' ? `paper/dca` : 'dca', scheduleKey('005930'));
    expect(kept).toBeDefined();
    const date = (kept as BuySchedule).lastBuy;
    expect(date).toBe('2026-11-23');

    db.close();
    db = HogaDatabase.open(file, { clock: s.clock });
    const second = await run([
      { strategyClass: DollarCostAverage, id: 'dca', config },
      { strategyClass: DollarCostAverage, id: 'fresh', config },
    ]);
    const restartedAt = s.clock.nowMs();
    try {
      // the fresh strategy's buy, placed on the run's first bar; then three minutes of new bars,
      // which the restarted strategy gets too (the bar the first run handed it, it does not get again)
      await until(
        () =>
          second.events.some((e) => e.type === 'OrderFilled') && s.clock.nowMs() > restartedAt + 3 * 60_000,
      );
    } finally {
      await second.handle.stop();
    }
    const submitted = second.events.filter((e) => e.type === 'OrderSubmitted');
    expect(submitted.map((e) => e.strategyId)).toEqual(['fresh']);
  }, 120_000);
});
