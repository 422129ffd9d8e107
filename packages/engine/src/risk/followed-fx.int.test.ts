/**
 * The USD/KRW rate a run follows (its exchange-rate stream) goes stale when the stream stalls: the
 * broker refreshes it every minute, each valid until a minute later. Before, a followed rate was
 * never read again nor checked: a stream failing for an hour left the risk checks' KRW limits (and
 * the run's equity in KRW) on the rate of an hour before, and no one was told.
 */
import { startSimulator } from '@hoga/simulator';
import { describe, expect, it } from 'vitest';
import { KR_OPEN, simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { BrokerMarketView } from './broker-market-view.js';
import { FX_STALE_MARGIN_MS } from './followed-fx.js';

describe('broker market view following the exchange-rate stream', () => {
  it('reads the rate itself once the followed one is past its validity, and says so once', async () => {
    const sim = await startSimulator({ port: 0, seed: 7, start: KR_OPEN, speed: 0, rateLimit: false });
    const clock = simClock(sim);
    const client = simClient(sim, clock);
    try {
      const view = new BrokerMarketView(client, clock);
      const warnings: string[] = [];
      const refreshed: string[] = [];
      view.watchFx({ stale: (m) => warnings.push(m), refreshed: (r) => refreshed.push(r.toFixed()) });
      // the stream's rate of now, valid for a minute; then the stream stalls
      const followed = await client.getExchangeRate();
      view.followFx(followed.rate, followed.validUntil.toMillis());
      await view.prepare('005930');
      // within the margin past its validity: still the stream's, not read here
      sim.advanceClock(60_000 + FX_STALE_MARGIN_MS - 1_000);
      await view.prepare('005930');
      expect(view.usdKrw()?.toFixed()).toBe(followed.rate.toFixed());
      expect(warnings).toEqual([]);
      // an hour on: read again before the checks use it (before: the rate of an hour ago)
      sim.advanceClock(3_600_000);
      await view.prepare('005930');
      const current = await client.getExchangeRate();
      expect(current.rate.toFixed()).not.toBe(followed.rate.toFixed()); // the test means something
      expect(view.usdKrw()?.toFixed()).toBe(current.rate.toFixed());
      expect(refreshed).toEqual([current.rate.toFixed()]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/USD\/KRW rate expired at .* KST/);
      // read once while valid; told once however many orders come meanwhile
      await view.prepare('005930');
      sim.advanceClock(10 * 60_000);
      await view.prepare('005930');
      expect(warnings).toHaveLength(1);
      expect(refreshed).toHaveLength(2);
      // the stream back, then stalled again: told again
      const back = await client.getExchangeRate();
      view.followFx(back.rate, back.validUntil.toMillis());
      sim.advanceClock(60_000 + FX_STALE_MARGIN_MS + 1_000);
      await view.prepare('005930');
      expect(warnings).toHaveLength(2);
    } finally {
      client.close();
      await sim.close();
    }
  }, 60_000);
});
