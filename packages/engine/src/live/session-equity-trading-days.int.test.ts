/**
 * A paper session left running over a KR exchange holiday and a weekend stores an equity point at
 * the end of each trading day of its markets only, as a backtest's curve has one per trading day
 * and its Sharpe annualises with √252. Before, it stored one at every 23:00:30 UTC, Saturdays,
 * Sundays and holidays included: a week's session had seven daily returns where a backtest of the
 * same days had five, the days between flat, and its Sharpe came out lower than the backtest's.
 * Over the simulator on 127.0.0.1, its clock at × 14,400 from Wednesday 2026-12-30 20:30 KST, after
 * the KR after-market, to Monday 2027-01-04 evening: Thursday 12-31 (KRX year-end
 * closing) and Friday 01-01 are holidays of KR, then the weekend.
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

const START = '2026-12-30T20:30:00+09:00';
/** Where the trading day of Wednesday 2026-12-30 ends. */
const WEDNESDAY_END = Date.parse('2026-12-31T08:00:30+09:00');
/** Where the trading day of Sunday 2027-01-03 ends: the last of the days without a KR session. */
const SUNDAY_END = Date.parse('2027-01-04T08:00:30+09:00');

describe('a session across a holiday and a weekend', () => {
  it('stores no equity point for the days its market did not trade', async () => {
    const s = await startSimulatedBroker(closers, { speed: 14_400, start: START, rateLimit: false });
    const db = openTempDb(closers, 'hoga-equity-trading-days-', s.clock);
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'holiday',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(10_000_000),
        strategies: [{ strategyClass: Idle }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    // a few of the session's once-a-second looks for the day's end after Sunday's ended
    await until(() => s.clock.nowMs() > SUNDAY_END + 3 * 14_400_000, 120_000);
    await handle.stop();

    const times = new RunRepository(db.connection).equity('holiday').map((p) => p.time);
    // the start, Wednesday's end, the stop: nothing at the end of Thursday, Friday, Saturday, Sunday
    expect(times).toHaveLength(3);
    expect(times[1]).toBe(WEDNESDAY_END - 1);
    expect(times[2]).toBeGreaterThan(SUNDAY_END);
  }, 180_000);
});
