/**
 * A `fromAccount` sell of the account's shares (bought before the run, held by no strategy) gives
 * the strategy the proceeds as cash, but they are no gain of the run: the stored session's equity,
 * net profit and return leave them out, so that the net profit is what the strategies' PnL says
 * (here the sale's charges). Before, a live session over the simulator selling 5 of the account's
 * 100 × 005930 stored a net profit of the sale's whole proceeds (327,924 KRW, a return of 1.38 %
 * on 23,690,300 KRW) while each strategy's PnL said −541. Over the simulator on 127.0.0.1, the
 * session stored in a SQLite file.
 */
import type { Bar, Fill } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import type { PerformanceStats } from '../stats/performance-stats.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** On its first bar sells 5 of the account's 005930 (it holds none) at market. */
class SellsAccountShares extends Strategy {
  static ctx: StrategyContext | null = null;
  static fill: Fill | null = null;
  private placed = false;
  override onBar(bar: Bar): void {
    SellsAccountShares.ctx = this.ctx;
    if (this.placed || bar.symbol !== '005930') return;
    this.placed = true;
    this.ctx.submit({ symbol: '005930', side: 'SELL', quantity: 5, fromAccount: true });
  }
  override onFill(fill: Fill): void {
    SellsAccountShares.fill = fill;
  }
}

/** Places nothing. */
class Idle extends Strategy {}

describe("a sell of the account's shares (fromAccount)", () => {
  it("live: its proceeds are the strategy's cash, not the stored session's profit", async () => {
    const s = await startSimulatedBroker(closers, { speed: 30 });
    const db = openTempDb(closers, 'hoga-from-account-equity-', s.clock);
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 't-from-account-equity',
        mode: 'live',
        symbols: ['005930'],
        cashKrw: new Decimal(2_000_000),
        strategies: [
          { strategyClass: SellsAccountShares, id: 'seller' },
          { strategyClass: Idle, id: 'idle' },
        ],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    try {
      await until(() => SellsAccountShares.fill !== null, 60_000);
    } finally {
      await handle.stop();
    }
    const fill = SellsAccountShares.fill as Fill;
    const proceeds = fill.quantity.times(fill.price);
    const charges = fill.commission.amount.plus(fill.tax?.amount ?? 0);
    // the strategy's cash: its 1,000,000 and the proceeds, less the charges; its position stays flat
    const ctx = SellsAccountShares.ctx as StrategyContext;
    expect(ctx.cash('KRW').toFixed()).toBe(new Decimal(1_000_000).plus(proceeds).minus(charges).toFixed());
    expect(ctx.position('005930')).toBeUndefined();
    expect(ctx.realizedPnl('KRW').toFixed()).toBe('0');

    const run = new RunRepository(db.connection).get('t-from-account-equity');
    expect(run?.status).toBe('stopped');
    const stats = run?.stats as PerformanceStats | undefined;
    // the run lost the sale's charges; it gained nothing by the proceeds
    expect(stats?.startEquity).toBe(2_000_000);
    expect(stats?.endEquity).toBe(2_000_000 - charges.toNumber());
    expect(stats?.totalReturn).toBeLessThan(0);
  }, 90_000);
});
