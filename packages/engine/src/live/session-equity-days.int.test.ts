/**
 * A paper or live session that runs across a trading day's end stores an equity point at each day's
 * end, as a backtest's curve has one per day, and stores it then (a session killed later keeps
 * it). Before, a session stored two points, its start and its stop, whatever it lasted: a week of
 * paper trading had no daily curve, and its drawdown and Sharpe saw none of the days between. Over
 * the simulator on 127.0.0.1, its clock at × 60 from a minute and a half before the roll (08:00:30
 * KST, 23:00:30 UTC).
 */
import { Decimal } from '@hoga/core';
import { RunRepository } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import { Closers, openTempDb, startSimulatedBroker, startTestRun, until } from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

/** Places nothing. */
class Idle extends Strategy {}

const START = '2026-11-24T07:59:00+09:00';
/** Where the trading day of 2026-11-23 ends: 08:00:30 KST on the 24th. */
const ROLL = Date.parse('2026-11-24T08:00:30+09:00');

describe('a session across the end of a trading day', () => {
  it.each(['paper', 'live'] as const)(
    '%s: stores an equity point at the end of the day, stamped in it, before the stop',
    async (mode) => {
      const s = await startSimulatedBroker(closers, { speed: 60, start: START, rateLimit: false });
      const db = openTempDb(closers, `hoga-equity-days-${mode}-`, s.clock);
      const runId = `days-${mode}`;
      const { handle } = await startTestRun(
        { client: s.client, clock: s.clock, db },
        {
          runId,
          mode,
          symbols: ['005930'],
          cashKrw: new Decimal(10_000_000),
          cashUsd: new Decimal(1_000),
          strategies: [{ strategyClass: Idle }],
        },
        { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
      );
      const runs = new RunRepository(db.connection);
      // stored while the session runs, not only at its stop
      await until(() => runs.equity(runId).length >= 2, 60_000);
      const during = runs.equity(runId);
      expect(during[1]).toEqual({ time: ROLL - 1, equity: 10_000_000 + 1_000 * 1400 });
      await handle.stop();

      const stored = runs.equity(runId);
      expect(stored).toHaveLength(3);
      expect(stored[0]?.time).toBeLessThan(ROLL - 1);
      expect(stored[2]?.time).toBeGreaterThanOrEqual(ROLL);
      for (const point of stored) expect(point.equity).toBe(11_400_000);
    },
    90_000,
  );
});
