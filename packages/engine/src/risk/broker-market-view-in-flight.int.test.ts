/**
 * A last price never steps back: a background read of the prices sent before an order's own read,
 * and answered after it, used to put its older price over the newer one, and the risk checks (and
 * the risk book's marks) judged by a price the market had already left.
 */

import { Decimal } from '@hoga/core';
import { startSimulator } from '@hoga/simulator';
import { describe, expect, it } from 'vitest';
import { KR_OPEN, simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { BrokerMarketView } from './broker-market-view.js';

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('broker market view with a price read in flight', () => {
  it("keeps an order's newer price when an older background read is answered after it", async () => {
    const sim = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, speed: 0, rateLimit: false });
    const clock = simClock(sim);
    const client = simClient(sim, clock);
    try {
      const view = new BrokerMarketView(client, clock);
      await view.prepare('005930'); // instruments, limits and calendars: only the prices are read below
      const [older] = await client.getPrices(['005930']);
      // the background refresh's prices are made now and their answer held back 1.5 s; meanwhile
      // the clocks move on a minute, the price jumps and an order reads the new one
      sim.injectFault({
        kind: 'delay-after-commit',
        path: '/api/v1/prices',
        method: 'GET',
        delayMs: 1_500,
        count: 1,
      });
      const background = view.refreshQuotes(['005930']);
      await until(() => sim.control.faults().length === 0);
      sim.advanceClock(60_000);
      sim.control.setPrice('005930', (older?.lastPrice ?? new Decimal(0)).plus(1_000));
      await view.prepare('005930', true);
      const [newer] = await client.getPrices(['005930']);
      // the test means something only if the price moved
      expect(newer?.lastPrice.toFixed()).not.toBe(older?.lastPrice.toFixed());
      expect(view.lastPrice('005930')?.toFixed()).toBe(newer?.lastPrice.toFixed());
      await background;
      // before: the background read's older price
      expect(view.lastPrice('005930')?.toFixed()).toBe(newer?.lastPrice.toFixed());
    } finally {
      client.close();
      await sim.close();
    }
  }, 60_000);
});
