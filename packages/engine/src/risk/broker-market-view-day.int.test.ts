/**
 * The daily price limits the risk module judges KR orders by are those of the day the broker made
 * them for. Before, a read sent at 23:59:59 and answered after midnight (a slow network, a broker
 * under load) was taken for the new day's: the limits of Monday were kept all Tuesday, and
 * Tuesday's orders were judged `price-out-of-range` (or not) by Monday's limits.
 */
import { startSimulator } from '@hoga/simulator';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { BrokerMarketView } from './broker-market-view.js';

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('broker market view across midnight', () => {
  it("judges Tuesday's orders by Tuesday's price limits when Monday's were answered after midnight", async () => {
    // Monday 23:59:59 KST, both clocks standing still
    const sim = await startSimulator({
      port: 0,
      seed: 7,
      start: '2026-11-23T23:59:59.000+09:00',
      speed: 0,
      rateLimit: false,
    });
    const clock = simClock(sim);
    const client = simClient(sim, clock);
    try {
      const monday = await client.getPriceLimits('005930');
      const view = new BrokerMarketView(client, clock);
      // the limits are made now, on Monday, and their answer held back 1 s; meanwhile the clocks
      // move on to Tuesday 09:30
      sim.injectFault({
        kind: 'delay-after-commit',
        path: '/api/v1/price-limits',
        method: 'GET',
        delayMs: 1_000,
        count: 1,
      });
      const read = view.refreshQuotes(['005930']);
      await until(() => sim.control.faults().length === 0);
      sim.advanceClock(9.5 * 3_600_000 + 1_000);
      await read;
      // an order on Tuesday: its read of what it needs, then its judgement
      await view.prepare('005930');
      const tuesday = await client.getPriceLimits('005930');
      // the test means something only if the limits changed overnight
      expect(tuesday.upperLimitPrice?.toFixed()).not.toBe(monday.upperLimitPrice?.toFixed());
      const instrument = view.instrument('005930');
      if (instrument === undefined) throw new Error('no instrument read');
      const moment = view.moment(instrument, DateTime.fromMillis(clock.nowMs()));
      // before: Monday's
      expect(moment?.priceLimits?.upper.toFixed()).toBe(tuesday.upperLimitPrice?.toFixed());
      expect(moment?.priceLimits?.lower.toFixed()).toBe(tuesday.lowerLimitPrice?.toFixed());
    } finally {
      client.close();
      await sim.close();
    }
  }, 60_000);
});
