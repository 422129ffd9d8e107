/**
 * A live or paper run restarted before a new bar completed does not hand its strategies the bar the
 * run before already handed them: the run's first bar is the newest completed candle, which the
 * earlier run of the same strategy id got too. Before, a strategy acting on each bar acted twice on
 * it (a second order: `hoga run` killed and restarted within the minute bought again on the same
 * minute bar, and a daily run restarted during the day on the same daily bar). A strategy with a
 * warm-up gets that bar as warm-up (its indicators rebuilt, its orders denied `warm-up`); a
 * strategy id that never had it gets it as the run's bar.
 */
import type { Bar } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import { Closers, startSimulatedBroker, startTestRun, tempDbFile, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Records each bar it gets, by strategy id, as `symbol ts` (`warm` appended during a warm-up); buys 1 on each run bar. */
class Records extends Strategy {
  static seen = new Map<string, string[]>();
  override onBar(bar: Bar): void {
    const list = Records.seen.get(this.ctx.strategyId) ?? [];
    list.push(`${bar.symbol} ${new Date(bar.ts).toISOString()}${this.ctx.isWarmingUp ? ' warm' : ''}`);
    Records.seen.set(this.ctx.strategyId, list);
    if (!this.ctx.isWarmingUp) this.ctx.buy(bar.symbol, 1, Math.floor((bar.close * 0.9) / 100) * 100);
  }
}

/** The same with a warm-up of one bar. */
class RecordsWarm extends Records {
  static readonly warmupBars = 1;
}

/** Subscribes to 000660's bars (outside the universe) and records them as {@link Records} does; orders nothing. */
class Subscribes extends Strategy {
  override onStart(): void {
    this.ctx.subscribeBars('000660');
  }
  override onBar(bar: Bar): void {
    if (bar.symbol !== '000660') return;
    const list = Records.seen.get(this.ctx.strategyId) ?? [];
    list.push(`${bar.symbol} ${new Date(bar.ts).toISOString()}`);
    Records.seen.set(this.ctx.strategyId, list);
  }
}

const seen = (id: string): readonly string[] => Records.seen.get(id) ?? [];

describe.each(['live', 'paper'] as const)('%s: the bar an earlier run handed over', (mode) => {
  it('is not handed to the same strategy id again after a restart', async () => {
    Records.seen = new Map();
    // the simulated clock stands still: no new bar completes between the two runs
    const s = await startSimulatedBroker(closers, { speed: 0 });
    const file = tempDbFile(`hoga-bars-restart-${mode}-`);
    let db = HogaDatabase.open(file, { clock: s.clock });
    closers.add(() => db.close());
    const run = (strategies: StrategySpec[]) =>
      startTestRun(
        { client: s.client, clock: s.clock, db },
        { runId: `t-${mode}`, mode, symbols: ['005930'], cashKrw: new Decimal(10_000_000), strategies },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );

    const first = await run([
      { strategyClass: Records, id: 'plain' },
      { strategyClass: RecordsWarm, id: 'warm' },
      { strategyClass: Subscribes, id: 'sub' },
    ]);
    try {
      await until(
        () =>
          seen('plain').length > 0 && seen('warm').some((b) => !b.endsWith('warm')) && seen('sub').length > 0,
      );
      // stored as it is handed over, not at the stop: a run killed outright does not lose it
      const stored = db.strategyState.get(`${mode}:bars`, 'plain') as Record<string, number>;
      expect(new Date(stored['1m 005930'] as number).toISOString()).toBe(seen('plain')[0]?.split(' ')[1]);
    } finally {
      await first.handle.stop();
    }
    const bar = seen('plain')[0] as string;
    expect(seen('plain')).toEqual([bar]);
    const warmUp = seen('warm')[0] as string;
    expect(seen('warm')).toEqual([warmUp, bar]);
    // the minute before the run's first bar, not that bar again: the run starts at 10:00:00.000,
    // where the streams take the candle ending then for one still in progress (a second's slack)
    // and the warm-up took it for complete (before: it was the warm-up bar, and the first bar too)
    const at = (b: string) => Date.parse(b.split(' ')[1] as string);
    expect(at(bar) - at(warmUp)).toBe(60_000);
    expect(first.events.filter((e) => e.type === 'OrderSubmitted')).toHaveLength(2);

    db.close();
    db = HogaDatabase.open(file, { clock: s.clock });
    const second = await run([
      { strategyClass: Records, id: 'plain' },
      { strategyClass: RecordsWarm, id: 'warm' },
      { strategyClass: Subscribes, id: 'sub' },
      // strategy ids that never had the bars: once they have them, the others had their turn
      { strategyClass: Records, id: 'new' },
      { strategyClass: Subscribes, id: 'sub-new' },
    ]);
    try {
      await until(() => seen('new').length > 0 && seen('sub-new').length > 0);
    } finally {
      await second.handle.stop();
    }
    expect(seen('new')).toEqual([bar]);
    expect(seen('plain')).toEqual([bar]); // not a second time
    // a subscribed bar likewise
    const subscribed = seen('sub')[0] as string;
    expect(seen('sub-new')).toEqual([subscribed]);
    expect(seen('sub')).toEqual([subscribed]);
    // the warm-up strategy: its warm-up bar, then the bar it had as warm-up too
    expect(seen('warm')).toEqual([warmUp, bar, warmUp, `${bar} warm`]);
    // one order placed: the new strategy's
    const submitted = second.events.filter((e) => e.type === 'OrderSubmitted');
    expect(submitted.map((e) => e.strategyId)).toEqual(['new']);
  }, 120_000);
});
