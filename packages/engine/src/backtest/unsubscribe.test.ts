/**
 * A backtest's bar subscriptions beyond the universe, ended and made again after `onStart`:
 * `ctx.unsubscribeBars` stops the symbol's bars for that strategy only, from its next bar; a later
 * `ctx.subscribeBars` of bars the run loaded resumes them, and a second strategy subscribing late to
 * bars another loaded gets them from then on (before, none once the first of them was delivered:
 * the symbol's list of strategies was made at its first bar and never again). Unsubscribing from
 * the universe's bars changes nothing and is said once. (A bar object is the stream's, overwritten by the
 * next: the strategies keep copies.)
 */
import { type Bar, createLogger, Decimal, type Logger } from '@hoga/core';
import { HogaDatabase } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { BarFeed } from '../market-data/bar-feed.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import type { StrategySpec } from '../runtime/engine-runtime.js';
import { Strategy } from '../strategy/strategy.js';
import { MINUTE, minuteBars, recordingLogger, T0 } from './backtest-fixture.test-helper.js';
import { type BacktestOutcome, runBacktest } from './run-backtest.js';

const UNIVERSE = '005930';
const EXTRA = '035420';

/** Six minutes of the universe's symbol and of another, the other's bars after the universe's at each minute. */
const BARS = [
  ...minuteBars(UNIVERSE, [70_000, 70_100, 70_200, 70_300, 70_400, 70_500]),
  ...minuteBars(EXTRA, [200_000, 200_500, 201_000, 201_500, 202_000, 202_500]),
];

/** Runs strategies with the universe {@link UNIVERSE} over {@link BARS}. */
async function run(strategies: readonly StrategySpec[], logger?: Logger): Promise<BacktestOutcome> {
  const db = HogaDatabase.open(':memory:');
  try {
    return await runBacktest({
      settings: {
        runId: 'unsubscribe',
        mode: 'backtest',
        symbols: [UNIVERSE],
        interval: '1m',
        cash: { KRW: new Decimal(100_000_000), USD: new Decimal(100_000) },
      },
      strategies,
      startMs: T0,
      db,
      logger: logger ?? createLogger({ level: 'silent' }),
      fx: new FixedFxRates(1400),
      openStream: async () => BarFeed.fromBars(BARS, T0).stream(),
    });
  } finally {
    db.close();
  }
}

/** The minute (0–5) of each bar of {@link EXTRA} a strategy saw. */
function minutesOf(seen: readonly Bar[]): number[] {
  return seen.filter((b) => b.symbol === EXTRA).map((b) => (b.ts - T0) / MINUTE);
}

/** Subscribes to {@link EXTRA} in onStart, ends it after two of its bars, subscribes again at minute 4. */
class Pauses extends Strategy {
  static seen: Bar[] = [];
  override onStart(): void {
    this.ctx.subscribeBars(EXTRA);
  }
  override onBar(bar: Bar): void {
    Pauses.seen.push({ ...bar });
    if (bar.symbol === EXTRA && minutesOf(Pauses.seen).length === 2) this.ctx.unsubscribeBars(EXTRA, '1m');
    if (bar.symbol === UNIVERSE && bar.ts === T0 + 4 * MINUTE) this.ctx.subscribeBars(EXTRA);
  }
}

/** Subscribes to {@link EXTRA} in onStart and keeps it. */
class Keeps extends Strategy {
  static seen: Bar[] = [];
  override onStart(): void {
    this.ctx.subscribeBars(EXTRA);
  }
  override onBar(bar: Bar): void {
    Keeps.seen.push({ ...bar });
  }
}

/** Subscribes to {@link EXTRA} only at minute 2 (after onStart; another strategy had its bars loaded). */
class JoinsLate extends Strategy {
  static seen: Bar[] = [];
  override onBar(bar: Bar): void {
    JoinsLate.seen.push({ ...bar });
    if (bar.symbol === UNIVERSE && bar.ts === T0 + 2 * MINUTE) this.ctx.subscribeBars(EXTRA);
  }
}

/** Unsubscribes from the universe's bars at its first bar. */
class LeavesUniverse extends Strategy {
  static seen: Bar[] = [];
  override onBar(bar: Bar): void {
    LeavesUniverse.seen.push({ ...bar });
    this.ctx.unsubscribeBars(UNIVERSE);
  }
}

describe('ctx.unsubscribeBars in a backtest', () => {
  it('stops the bars for that strategy only, from the next one; subscribing again resumes them', async () => {
    Pauses.seen = [];
    Keeps.seen = [];
    const outcome = await run([
      { strategyClass: Pauses, id: 'pauses' },
      { strategyClass: Keeps, id: 'keeps' },
    ]);
    expect(outcome.status).toBe('completed');
    expect(minutesOf(Pauses.seen)).toEqual([0, 1, 4, 5]);
    expect(minutesOf(Keeps.seen)).toEqual([0, 1, 2, 3, 4, 5]);
    // the universe's bars all came
    expect(Pauses.seen.filter((b) => b.symbol === UNIVERSE)).toHaveLength(6);
  });

  it('a late subscription to bars another strategy loaded delivers them from then on', async () => {
    Keeps.seen = [];
    JoinsLate.seen = [];
    const outcome = await run([
      { strategyClass: Keeps, id: 'keeps' },
      { strategyClass: JoinsLate, id: 'late' },
    ]);
    expect(outcome.status).toBe('completed');
    // subscribed in onBar of 005930 at minute 2: 035420's bar of that minute comes after it
    expect(minutesOf(JoinsLate.seen)).toEqual([2, 3, 4, 5]);
    expect(minutesOf(Keeps.seen)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("changes nothing for the universe's bars, said once", async () => {
    LeavesUniverse.seen = [];
    const { logger, records } = recordingLogger('info');
    const outcome = await run([{ strategyClass: LeavesUniverse, id: 'leaves' }], logger);
    expect(outcome.status).toBe('completed');
    expect(LeavesUniverse.seen.filter((b) => b.symbol === UNIVERSE)).toHaveLength(6);
    const said = records.filter((r) => String(r.msg).includes('unsubscribeBars'));
    expect(said.map((r) => r.msg)).toEqual([
      "strategy leaves: ctx.unsubscribeBars(005930) changes nothing: the universe's bars reach every strategy " +
        '(ignore them in onBar)',
    ]);
  });
});
