/**
 * A live or paper session's stored run keeps what its end printed: the orders refused, by code, and
 * the bars handed over, beside its statistics, as a backtest's stored run does (`hoga db runs --id`).
 * Before, `hoga run` printed `refused orders: 1 (order-type-not-allowed 1)` and the stored run said
 * `refused orders -`. Over the simulator on 127.0.0.1.
 */
import { Decimal } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** A US market order in the pre-market: refused by the broker's rules (`order-type-not-allowed`). */
class TooEarly extends Strategy {
  override onStart(): void {
    this.ctx.buy('AAPL', 1);
  }
}

describe('a stored session', () => {
  it.each(['paper', 'live'] as const)(
    '%s: keeps the refused orders by code and the bars',
    async (mode) => {
      // 09:00 New York: the pre-market, at ×30
      const s = await startSimulatedBroker(closers, { start: '2026-11-23T09:00:00-05:00', speed: 30 });
      const db = openTempDb(closers, `hoga-session-record-${mode}-`, s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `session-${mode}`,
          mode,
          symbols: ['AAPL'],
          cashKrw: new Decimal(0),
          cashUsd: new Decimal(10_000),
          strategies: [{ strategyClass: TooEarly }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );
      await until(() => events.some((e) => e.type === 'OrderDenied'), 20_000);
      await until(() => handle.status().bars > 0, 20_000);
      const status = handle.status();
      await handle.stop();

      const stats = new RunRepository(db.connection).get(`session-${mode}`)?.stats as
        | { refused?: unknown; bars?: number }
        | undefined;
      expect(stats?.refused).toEqual({ 'order-type-not-allowed': 1 });
      // as many as the status line counted by then, or more (a bar may complete before the stop)
      expect(stats?.bars).toBeGreaterThanOrEqual(status.bars);
      expect(stats?.bars).toBe(handle.status().bars);
    },
    60_000,
  );
});

/** Buys `quantity` of 005930 at market once started (a config of its own per instance). */
class BuysOnce extends Strategy<{ quantity: number }> {
  override onStart(): void {
    this.ctx.buy('005930', this.config.quantity);
  }
}

describe('a stored session of several strategies', () => {
  it.each(['paper', 'live'] as const)(
    '%s: keeps each strategy’s part beside the statistics, as a backtest does',
    async (mode) => {
      // 10:00 Seoul, the regular session, at ×30
      const s = await startSimulatedBroker(closers, { start: '2026-11-24T10:00:00+09:00', speed: 30 });
      const db = openTempDb(closers, `hoga-session-parts-${mode}-`, s.clock);
      const { handle, events } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId: `parts-${mode}`,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          strategies: [
            { strategyClass: BuysOnce, id: 'one', config: { quantity: 1 } },
            { strategyClass: BuysOnce, id: 'two', config: { quantity: 2 } },
          ],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );
      await until(() => events.filter((e) => e.type === 'OrderFilled').length === 2, 30_000);
      await handle.stop();

      const stats = new RunRepository(db.connection).get(`parts-${mode}`)?.stats as
        | { byStrategy?: { strategyId: string; trades: number; commissions: Record<string, string> }[] }
        | undefined;
      const parts = stats?.byStrategy ?? [];
      expect(parts.map((p) => [p.strategyId, p.trades])).toEqual([
        ['one', 1],
        ['two', 1],
      ]);
      // each strategy's commission is its own fill's, and the two add up to the run's
      const commissionOf = (id: string) =>
        events
          .filter((e) => e.type === 'OrderFilled' && e.strategyId === id)
          .map((e) => (e.type === 'OrderFilled' ? e.fill.commission.amount.toString() : ''));
      expect(parts.map((p) => p.commissions.KRW)).toEqual([...commissionOf('one'), ...commissionOf('two')]);
    },
    60_000,
  );
});
