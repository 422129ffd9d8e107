/**
 * In paper and live, as in a backtest, each strategy warms up on the bars it asked for: with one
 * strategy asking for 3 bars and another for 1, the run reads 3 bars before its first and the
 * second gets only the last of them. Before, every strategy with a warm-up got the longest one of
 * the run, so a strategy's warm-up depended on which others shared its run.
 */
import type { Bar } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** The bars each strategy saw, in order, with whether they were warm-up. */
const seen = new Map<string, { ts: number; warm: boolean }[]>();

class WarmsThree extends Strategy {
  static readonly warmupBars = 3;
  override onBar(bar: Bar): void {
    seen.get(this.ctx.strategyId)?.push({ ts: bar.ts, warm: this.ctx.isWarmingUp });
  }
}

class WarmsOne extends Strategy {
  static readonly warmupBars = 1;
  override onBar(bar: Bar): void {
    seen.get(this.ctx.strategyId)?.push({ ts: bar.ts, warm: this.ctx.isWarmingUp });
  }
}

describe('warm-up of several strategies in a paper run', () => {
  it('gives each strategy the last warmupBars bars it asked for', async () => {
    seen.set('three', []);
    seen.set('one', []);
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-warm-up-each-', s.clock);
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-warm-up-each',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [
          { strategyClass: WarmsThree, id: 'three' },
          { strategyClass: WarmsOne, id: 'one' },
        ],
      },
      { streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => (seen.get('one') ?? []).some((x) => !x.warm), 60_000);
    } finally {
      await handle.stop();
    }
    const three = seen.get('three') ?? [];
    const one = seen.get('one') ?? [];
    expect(three.slice(0, 4).map((x) => x.warm)).toEqual([true, true, true, false]);
    // before: [true, true, true, false], the other strategy's three
    expect(one.slice(0, 2).map((x) => x.warm)).toEqual([true, false]);
    // its one warm-up bar is the last of the three, and the run's bars are the same for both
    expect(one[0]?.ts).toBe(three[2]?.ts);
    expect(one[1]?.ts).toBe(three[3]?.ts);
  }, 90_000);
});
