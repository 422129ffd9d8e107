/**
 * A live or paper session's equity counts the cash no strategy was given, as a backtest's does
 * (`holdUnallocatedCash`): three strategies on 100,000,000 KRW and 100,000 USD at 1,400 get
 * 33,333,333 KRW and 33,333.33 USD each; the won and the cent left over are the account's. Before,
 * the stored session's equity started at 239,999,985 KRW in paper and live, and a backtest of the
 * same account at 240,000,000. Over the simulator on 127.0.0.1.
 */
import { Decimal } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Places nothing; keeps its context. */
class Idle extends Strategy {
  static ctx: StrategyContext | null = null;
  override onStart(): void {
    Idle.ctx = this.ctx;
  }
}

describe('a session of several strategies', () => {
  it.each(['paper', 'live'] as const)(
    "%s: the stored equity counts the won and the cent the strategies' shares leave over",
    async (mode) => {
      const s = await startSimulatedBroker(closers, { speed: 0 });
      const db = openTempDb(closers, `hoga-equity-leftover-${mode}-`, s.clock);
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `leftover-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(100_000_000),
          cashUsd: new Decimal(100_000),
          strategies: ['a', 'b', 'c'].map((id) => ({ strategyClass: Idle, id })),
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );
      // a strategy's own equity is its share only: 33,333,333 + 33,333.33 × 1,400
      expect(Idle.ctx?.equity()).toBe(79_999_995);
      await handle.stop();

      const equity = new RunRepository(db.connection).equity(`leftover-${mode}`);
      expect(equity.length).toBeGreaterThan(0);
      for (const point of equity) expect(point.equity).toBe(240_000_000);
    },
    60_000,
  );
});
