/**
 * A stored session's part of each strategy (`byStrategy`, `hoga db runs --id`) is that session's,
 * as its trades and the session's own figures are, and as the status line's PnL at the stop says:
 * a strategy's books open with its earlier sessions' fills, and their realized PnL, commissions and
 * taxes are not the new session's. Before, a paper session of one buy (commission 10 KRW) stored
 * `strategy e  1 trade, realized PnL -400 KRW before charges, commissions 50 KRW, taxes 200 KRW`,
 * its earlier session's round trip included, beside the session's `commissions 10 KRW`. Over the
 * simulator on 127.0.0.1, two sessions on one SQLite file.
 */
import type { Fill, OrderEvent } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { StrategyStats } from '../stats/strategy-stats.js';
import { Strategy, type StrategyClass } from '../strategy/strategy.js';

import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Buys 2 005930 at the start and sells them once they filled: a round trip. */
class RoundTrip extends Strategy {
  override onStart(): void {
    this.ctx.buy('005930', 2);
  }
  override onFill(fill: Fill): void {
    if (fill.side === 'BUY' && this.ctx.position('005930') !== undefined) this.ctx.sell('005930', 2);
  }
}

/** Buys 1 005930 at the start. */
class BuysOne extends Strategy {
  override onStart(): void {
    this.ctx.buy('005930', 1);
  }
}

/** Places nothing. */
class Idle extends Strategy {}

const filled = (events: readonly OrderEvent[]) => events.filter((e) => e.type === 'OrderFilled');

describe("a stored session's part of each strategy", () => {
  it("paper: is the session's own, not its earlier sessions' too", async () => {
    const s = await startSimulatedBroker(closers, { start: '2026-11-24T10:00:00+09:00', speed: 30 });
    const db = openTempDb(closers, 'hoga-session-parts-restart-', s.clock);
    const session = async (runId: string, strategyClass: StrategyClass, fills: number) => {
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId,
          mode: 'paper',
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          strategies: [
            { strategyClass, id: 'e' },
            { strategyClass: Idle, id: 'f' },
          ],
        },
        { streamIntervals: { candles1m: 300, orderbook: 200 } },
      );
      try {
        await until(() => filled(events).length === fills, 30_000);
      } finally {
        await handle.stop();
      }
      return events;
    };
    await session('first', RoundTrip, 2);
    const second = await session('second', BuysOne, 1);
    const fill = filled(second)[0];
    const commission = fill?.type === 'OrderFilled' ? fill.fill.commission.amount.toFixed() : '';

    const stats = new RunRepository(db.connection).get('second')?.stats as
      | { commissions: Record<string, string>; byStrategy: StrategyStats[] }
      | undefined;
    expect(stats?.commissions).toEqual({ KRW: commission });
    const parts = (stats?.byStrategy ?? []).map((p) => ({
      id: p.strategyId,
      trades: p.trades,
      realized: p.realizedPnl.KRW,
      commissions: p.commissions.KRW,
      taxes: p.taxes.KRW,
    }));
    expect(parts).toEqual([
      { id: 'e', trades: 1, realized: '0', commissions: commission, taxes: '0' },
      { id: 'f', trades: 0, realized: '0', commissions: '0', taxes: '0' },
    ]);
  }, 90_000);
});
