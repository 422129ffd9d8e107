/**
 * The store keeps the broker's market calendars (two rows a day, KR and US) for the commands that
 * follow one another; a paper or live run left going for months must not keep every day's for good.
 * As it starts, a run drops the rows about dates over a year back and keeps the recent ones. Before,
 * every row stayed. Over the simulator on 127.0.0.1, with a real SQLite file.
 */
import { Decimal } from '@hoga/core';
import { CALENDAR_KEEP_DAYS } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Closers,
  openTempDb,
  RestBelow,
  startSimulatedBroker,
  startTestRun,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(() => closers.closeAll());

const DAY_MS = 86_400_000;
const BROKER = 'https://openapi.example';

/** The KST date `days` days before `ms`. */
function kstDate(ms: number, days: number): string {
  return new Date(ms - days * DAY_MS + 9 * 3_600_000).toISOString().slice(0, 10);
}

describe('a starting run', () => {
  it('paper: drops the stored market calendars of dates over a year back, keeps the recent ones', async () => {
    const s = await startSimulatedBroker(closers, { speed: 0 });
    const db = openTempDb(closers, 'hoga-calendars-forgotten-', s.clock);
    const now = s.clock.nowMs();
    const old = kstDate(now, CALENDAR_KEEP_DAYS + 30);
    const recent = kstDate(now, 30);
    for (const date of [old, recent]) {
      db.marketCalendars.store({ broker: BROKER, market: 'KR', date }, { date }, date);
      db.marketCalendars.store({ broker: BROKER, market: 'US', date }, { date }, date);
    }
    const dates = () =>
      db.connection
        .prepare('SELECT DISTINCT date FROM market_calendars WHERE broker = ? ORDER BY date')
        .pluck()
        .all(BROKER);
    expect(dates()).toEqual([old, recent]);
    const { handle } = await startTestRun(
      { client: s.client, clock: s.clock, db },
      {
        runId: 'calendars-forgotten',
        mode: 'paper',
        symbols: ['005930'],
        cashKrw: new Decimal(1_000_000),
        strategies: [{ strategyClass: RestBelow }],
      },
      { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
    );
    await handle.stop();
    expect(dates()).toEqual([recent]);
  }, 60_000);
});
