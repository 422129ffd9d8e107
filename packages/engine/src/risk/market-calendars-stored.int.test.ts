/**
 * The risk module's market views of two processes on one database share the broker's calendars
 * through the store (the simulator over HTTP, a real SQLite file): the second view takes the
 * answers the first read, aged from when the broker gave them, so neither keeps a calendar longer
 * than its age after the broker's answer; a stored answer that no longer parses is read again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrokerClient } from '@hoga/connector';
import { type Clock, SessionName, VirtualClock } from '@hoga/core';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { HogaDatabase } from '@hoga/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KR_OPEN, simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { BrokerMarketView } from './broker-market-view.js';
import { recording } from './calendar-reads.test-helper.js';
import { storedCalendarsOf } from './market-calendars.js';

const MINUTE = 60_000;

let sim: SimulatorHandle;
let clock: Clock;
let client: BrokerClient;
let dir: string;
let db: HogaDatabase;
/** The store's clock: the time the answers are stamped and aged with (the engine's is the simulator's). */
let storeClock: VirtualClock;

beforeEach(async () => {
  sim = await startSimulator({ port: 0, start: KR_OPEN, speed: 0, rateLimit: false });
  clock = simClock(sim);
  client = simClient(sim, clock);
  dir = mkdtempSync(join(tmpdir(), 'hoga-calendars-'));
  // the simulator's Monday: answers about today and the days around it, none final
  storeClock = new VirtualClock(Date.parse(KR_OPEN));
  db = HogaDatabase.open(join(dir, 'hoga.sqlite'), { clock: storeClock });
});
afterEach(async () => {
  db.close();
  client.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A market view as one process builds it, on the shared database. */
function view() {
  const { source, reads } = recording(client);
  const market = new BrokerMarketView(source, clock, {}, storedCalendarsOf(db, sim.url));
  const judge = async () => {
    await market.prepare('005930');
    return market.moment(market.instrument('005930')!, clock.now())?.session;
  };
  return { judge, reads };
}

describe('BrokerMarketView with the store’s calendar cache', () => {
  it('a second view reads the calendars from the database, and again from the broker once they are a calendar age old', async () => {
    const first = view();
    expect(await first.judge()).toBe(SessionName.REGULAR_MARKET);
    expect(first.reads).toEqual(['KR 2026-11-23', 'US 2026-11-22']);

    storeClock.advance(8 * MINUTE);
    const second = view();
    expect(await second.judge()).toBe(SessionName.REGULAR_MARKET);
    expect(second.reads).toEqual([]);

    // 10 minutes after the broker answered (8 + 2), for the store and the engine alike: the second
    // view does not keep the stored answer 10 minutes of its own, it asks the broker
    storeClock.advance(2 * MINUTE);
    sim.advanceClock(2 * MINUTE + 1);
    expect(await second.judge()).toBe(SessionName.REGULAR_MARKET);
    expect(second.reads).toEqual(['KR 2026-11-23', 'US 2026-11-22']);
  }, 60_000);

  it('reads an answer stored in a shape it cannot parse from the broker again, and stores the new one', async () => {
    await view().judge();
    db.connection
      .prepare("UPDATE market_calendars SET answer = ? WHERE market = 'KR'")
      .run(JSON.stringify({ today: { date: 'Monday' } }));

    const next = view();
    expect(await next.judge()).toBe(SessionName.REGULAR_MARKET);
    expect(next.reads).toEqual(['KR 2026-11-23']);
    const stored = db.marketCalendars.get({ broker: sim.url, market: 'KR', date: '2026-11-23' });
    expect(stored?.answer).toMatchObject({ today: { date: '2026-11-23' } });
  }, 60_000);

  it('keeps the answers of another broker apart', async () => {
    await view().judge();
    const { source, reads } = recording(client);
    const elsewhere = new BrokerMarketView(
      source,
      clock,
      {},
      storedCalendarsOf(db, 'https://broker.example'),
    );
    await elsewhere.prepare('005930');
    expect(reads).toEqual(['KR 2026-11-23', 'US 2026-11-22']);
  }, 60_000);
});
