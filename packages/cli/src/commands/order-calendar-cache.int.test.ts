/**
 * Two `hoga order` commands run one after the other share the broker's market calendars through
 * the database: real `hoga` processes against the simulator over HTTP with a real SQLite file.
 * Each process is its own rate limiter, and a `hoga order` reads the KR and US calendars and the
 * exchange rate (three requests of the MARKET_INFO group, 3 a second): before, the second command
 * read both calendars again, and run within a second of the first it was refused
 * (`getUsMarketCalendar: retrying in 1 s … rate-limit-exceeded` on stderr) and waited. Now the
 * second reads them from the database, and only the exchange rate from the broker; an answer about
 * today older than the freshness (10 minutes) is read from the broker again. (The rate is read
 * because the account holds US shares; a KR order on one with nothing in USD reads none:
 * order-fx-read.int.test.ts.)
 */
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { CALENDAR_FRESH_MS } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../hoga-process.test-helper.js';
import { env, hogaToEnd as hoga, readStore } from './run-process.test-helper.js';

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const BUY = ['order', 'buy', '005930', '1', '--limit', '80000'];

/**
 * Runs `hoga <args>` to its end and counts the MARKET_INFO requests the simulator received
 * meanwhile (the calendars and the exchange rate).
 */
async function counted(args: readonly string[], environment: NodeJS.ProcessEnv) {
  const before = sim!.counters().requestsByGroup.MARKET_INFO ?? 0;
  const run = await hoga(args, environment);
  return { ...run, marketInfo: (sim!.counters().requestsByGroup.MARKET_INFO ?? 0) - before };
}

describe('hoga order run twice reads the market calendars once', () => {
  it('the second command reads the calendars from the database; a stale answer is read again', async () => {
    // a trading Wednesday ahead of the machine's date (an answer about today, not a past one),
    // without the simulator's rate limits: every request is counted once
    sim = await startSimulator({
      port: 0,
      seed: 7,
      start: '2027-12-15T10:00:00+09:00',
      speed: 0,
      rateLimit: false,
    });
    const db = join(tempHome(), 'hoga.sqlite');
    const environment = env(sim, db);

    const first = await counted(BUY, environment);
    expect(first.code, first.out).toBe(0);
    // the KR and US calendars and the exchange rate
    expect(first.marketInfo).toBe(3);

    const second = await counted(BUY, environment);
    expect(second.code, second.out).toBe(0);
    expect(second.out).not.toMatch(/MarketCalendar: retrying/);
    // the exchange rate only: both calendars from the database
    expect(second.marketInfo).toBe(1);
    expect(sim.counters().ordersCreated).toBe(2);

    const stored = readStore(db, (d) =>
      d.connection.prepare('SELECT market, date, final FROM market_calendars ORDER BY market').all(),
    );
    // the KST date for KR, the New York date for US (Tuesday 20:00 there); neither is history yet
    expect(stored).toEqual([
      { market: 'KR', date: '2027-12-15', final: 0 },
      { market: 'US', date: '2027-12-14', final: 0 },
    ]);

    // answers read longer ago than the freshness are not used: the broker is asked again
    readStore(db, (d) =>
      d.connection.prepare('UPDATE market_calendars SET fetched_at = fetched_at - ?').run(CALENDAR_FRESH_MS),
    );
    const third = await counted(BUY, environment);
    expect(third.code, third.out).toBe(0);
    expect(third.marketInfo).toBe(3);
  }, 120_000);
});
