/**
 * Test helper of the generated backtests: runs a scenario (`backtest-generated.test-helper.ts`)
 * through `runBacktest`, one strategy per schedule (`s0`, `s1`), on a store of the caller's or an
 * in-memory one, and answers the outcome with what each strategy saw. Test code only.
 */

import type { Bar } from '@hoga/core';
import { type Currency, createLogger, Decimal } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { BarFeed } from '../market-data/bar-feed.js';
import { FixedFxRates } from '../portfolio/fx-rates.js';
import {
  type Final,
  type Scenario,
  SYMBOLS,
  scenarioBars,
  scheduleStrategy,
} from './backtest-generated.test-helper.js';
import { type BacktestOptions, type BacktestOutcome, runBacktest } from './run-backtest.js';

/** The run's cash: each of two strategies gets half. */
export const CASH: Record<Currency, Decimal> = { KRW: new Decimal(50_000_000), USD: new Decimal(20_000) };

/** What a strategy of a generated run saw. */
export interface SeenStrategy {
  readonly id: string;
  /** The rules it saw broken as it went. */
  readonly broken: readonly string[];
  /** Its books at the stop. */
  readonly final: Final;
  /** Its orders by id: whether each ended, and its last event (replies to changes aside). */
  readonly orders: ReadonlyMap<string, { readonly ended: boolean; readonly last: string }>;
}

export interface GeneratedRun {
  readonly outcome: BacktestOutcome;
  readonly strategies: readonly SeenStrategy[];
  readonly bars: readonly Bar[];
}

/**
 * Runs a scenario on `store.db` (its owner closes it), as run `store.runId`, stored with
 * `store.record` when given.
 */
export async function runScenario(
  s: Scenario,
  store: { readonly db: HogaDatabase; readonly runId: string; readonly record?: BacktestOptions['record'] },
): Promise<GeneratedRun> {
  const bars = scenarioBars(s);
  const seen: { id: string; strategy: Omit<SeenStrategy, 'id' | 'final'> & { final: Final | undefined } }[] =
    [];
  const specs = s.schedules.map((schedule, i) => {
    const Scheduled = scheduleStrategy(schedule, bars);
    const id = `s${i}`;
    return {
      id,
      strategyClass: class extends Scheduled {
        constructor(...args: ConstructorParameters<typeof Scheduled>) {
          super(...args);
          seen.push({ id, strategy: this });
        }
      },
    };
  });
  const start = Math.min(...bars.map((b) => b.ts));
  const outcome = await runBacktest({
    settings: {
      runId: store.runId,
      mode: 'backtest',
      symbols: [...SYMBOLS],
      interval: s.interval,
      cash: CASH,
    },
    strategies: specs,
    startMs: start,
    db: store.db,
    logger: createLogger({ level: 'silent' }),
    fx: new FixedFxRates(1400),
    volumeFraction: s.volumeFraction,
    openStream: async () => BarFeed.fromBars(bars, start).stream(),
    record: store.record,
  });
  const strategies = seen.map(({ id, strategy }) => {
    if (strategy.final === undefined) throw new Error(`${id} did not stop`);
    return { id, broken: strategy.broken, final: strategy.final, orders: strategy.orders };
  });
  return { outcome, strategies, bars };
}
