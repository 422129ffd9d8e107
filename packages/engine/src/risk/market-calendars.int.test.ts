/**
 * The risk module's market view judges the session hours at the engine clock's now as a paper or
 * live run's clock moves past the days of the calendar it read (the simulator over HTTP, its clock
 * the engine's): the calendars are read again for the new date as soon as the clock leaves the
 * days they hold, not only once their age has passed, and once per market and date.
 */
import { Ledger } from '@hoga/broker-model';
import { Decimal, SessionName } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import { describe, expect, it } from 'vitest';
import { haltable } from '../live/haltable-broker.js';
import { paperBrokerView } from '../live/paper-broker-view.js';
import { KR_OPEN, simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { BrokerMarketView } from './broker-market-view.js';
import { recording } from './calendar-reads.test-helper.js';

const DAY = 86_400_000;

describe("the market view's calendars on a moving engine clock", () => {
  it('reads the calendars again for the new date when the clock leaves their days, once per market and date', async () => {
    const sim = await startSimulator({ port: 0, start: KR_OPEN, speed: 0, rateLimit: false });
    const clock = simClock(sim);
    const client = simClient(sim, clock);
    try {
      const { source, reads } = recording(client);
      // a calendar age of a week: only leaving the calendar's days makes it read again
      const view = new BrokerMarketView(source, clock, { calendar: 7 * DAY });
      /** The session and next open at the engine clock's now, and the calendars read for it. */
      const judge = async (label: string) => {
        await view.prepare('005930');
        const moment = view.moment(view.instrument('005930')!, clock.now());
        const session = moment === undefined ? 'unknown' : moment.session;
        return { label, session, nextOpenAt: moment?.nextOpenAt?.toISO() ?? null, reads: reads.splice(0) };
      };
      const REGULAR = SessionName.REGULAR_MARKET;
      const seen = [await judge('Monday 11-23 10:00 KST (Sunday 20:00 in New York)')];
      sim.advanceClock(DAY);
      seen.push(await judge('Tuesday 11-24 10:00'));
      sim.advanceClock(3_600_000);
      seen.push(await judge('Tuesday 11-24 11:00'));
      sim.advanceClock(DAY - 3_600_000);
      seen.push(await judge('Wednesday 11-25 10:00'));
      seen.push(await judge('Wednesday 11-25 10:00, again'));
      sim.advanceClock(3 * DAY);
      seen.push(await judge('Saturday 11-28 10:00'));
      // the sessions first (before: Wednesday was judged closed, the KR calendar of Monday holding
      // Friday to Tuesday only, until its age passed)
      expect(seen.map(({ reads: _, ...judged }) => judged)).toEqual([
        { label: 'Monday 11-23 10:00 KST (Sunday 20:00 in New York)', session: REGULAR, nextOpenAt: null },
        { label: 'Tuesday 11-24 10:00', session: REGULAR, nextOpenAt: null },
        { label: 'Tuesday 11-24 11:00', session: REGULAR, nextOpenAt: null },
        { label: 'Wednesday 11-25 10:00', session: REGULAR, nextOpenAt: null },
        { label: 'Wednesday 11-25 10:00, again', session: REGULAR, nextOpenAt: null },
        { label: 'Saturday 11-28 10:00', session: null, nextOpenAt: '2026-11-30T08:00:00.000+09:00' },
      ]);
      // then the reads: a market's calendar for the engine clock's date when the clock left the
      // days it holds (the US one of Sunday ended with Monday's after-market, 20:00 New York,
      // Tuesday 10:00 KST), and nothing while it holds them
      expect(seen.map((s) => s.reads)).toEqual([
        ['KR 2026-11-23', 'US 2026-11-22'],
        ['US 2026-11-23'],
        [],
        ['KR 2026-11-25', 'US 2026-11-24'],
        [],
        ['KR 2026-11-28', 'US 2026-11-27'],
      ]);
    } finally {
      client.close();
      await sim.close();
    }
  }, 60_000);

  it("asks for the engine clock's date through a paper run's broker (haltable over the paper view)", async () => {
    const sim = await startSimulator({ port: 0, start: KR_OPEN, speed: 0, rateLimit: false });
    const clock = simClock(sim);
    const client = simClient(sim, clock);
    const halt = new AbortController();
    try {
      const { source, reads } = recording(client);
      const broker = haltable(
        paperBrokerView(source, new Ledger({ KRW: new Decimal(1_000_000) })),
        halt.signal,
      );
      const view = new BrokerMarketView(broker, clock);
      await view.prepare('005930');
      // before: both adapters dropped the date (the broker's own day was read, whatever the clock's)
      expect(reads).toEqual(['KR 2026-11-23', 'US 2026-11-22']);
    } finally {
      halt.abort();
      client.close();
      await sim.close();
    }
  }, 60_000);
});
