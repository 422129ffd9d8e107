/**
 * The broker market view against the simulator over HTTP with many watched symbols: a background
 * refresh reads the last prices in batches (one request per 200 symbols), an order's own read is
 * not queued behind the refresh, and a stopped refresh stops sending requests.
 */
import { startSimulator } from '@hoga/simulator';
import { describe, expect, it } from 'vitest';
import { KR_OPEN, simClient, simClock } from '../orders/live-fixture.test-helper.js';
import { BrokerMarketView } from './broker-market-view.js';
import { MAX_SYMBOLS_PER_PRICES_CALL } from './market-info-source.js';

const WATCHED = 120;

async function fixture() {
  const sim = await startSimulator({
    port: 0,
    seed: 7,
    start: KR_OPEN,
    speed: 0,
    rateLimit: false,
    extraSymbols: WATCHED,
  });
  const clock = simClock(sim);
  const client = simClient(sim, clock);
  const symbols = Array.from({ length: WATCHED }, (_, i) => String(400_001 + i));
  const marketData = () => sim.counters().requestsByGroup.MARKET_DATA ?? 0;
  const close = async () => {
    client.close();
    await sim.close();
  };
  return { sim, clock, client, symbols, marketData, close };
}

describe('broker market view with many symbols', () => {
  it('refreshes the last prices of every watched symbol with one request per 200 symbols', async () => {
    const { sim, clock, client, symbols, marketData, close } = await fixture();
    try {
      const view = new BrokerMarketView(client, clock);
      // the first refresh also reads each symbol's daily price limits (one request per symbol)
      await view.refreshQuotes(symbols);
      expect(symbols.every((s) => view.lastPrice(s) !== undefined)).toBe(true);
      sim.advanceClock(6_000); // quotes (5 s) are stale, price limits (daily) are not
      const before = marketData();
      await view.refreshQuotes(symbols);
      expect(marketData() - before).toBe(Math.ceil(WATCHED / MAX_SYMBOLS_PER_PRICES_CALL));
      expect(MAX_SYMBOLS_PER_PRICES_CALL).toBe(200);
    } finally {
      await close();
    }
  }, 60_000);

  it('reads the daily price limits once a KST day: not again after the reference age, again the next day', async () => {
    const { sim, clock, client, symbols: all, marketData, close } = await fixture();
    const symbols = all.slice(0, 10); // ten: their instruments are read again too (warnings, one a symbol)
    try {
      const view = new BrokerMarketView(client, clock);
      const prices = 1;
      await view.refreshQuotes(symbols);
      // eleven minutes later (the reference age is ten): the instruments are read again, the
      // limits not (before: one price-limits request a symbol more, every ten minutes of engine time)
      sim.advanceClock(11 * 60_000);
      let before = marketData();
      await view.refreshQuotes(symbols);
      expect(marketData() - before).toBe(prices);
      // the next KST day: each symbol's limits once more
      sim.advanceClock(24 * 3_600_000);
      before = marketData();
      await view.refreshQuotes(symbols);
      expect(marketData() - before).toBe(prices + symbols.length);
    } finally {
      await close();
    }
  }, 60_000);

  it("puts an order's own read ahead of the background refresh, and a stop ends the refresh", async () => {
    const { symbols, clock, client, marketData, close } = await fixture();
    try {
      const view = new BrokerMarketView(client, clock);
      const stop = new AbortController();
      let backgroundDone = false;
      // a cold refresh: 1 prices request and 120 price-limits requests, 10 a second
      const background = view.refreshQuotes(symbols, stop.signal).finally(() => {
        backgroundDone = true;
      });
      await view.prepare('005930');
      const atOrder = marketData();
      expect(view.lastPrice('005930')).toBeDefined();
      expect(backgroundDone).toBe(false);
      // the order's two market-data reads went out ahead of most of the refresh's 121
      expect(atOrder).toBeLessThan(WATCHED / 2);
      stop.abort();
      await background.catch(() => undefined);
      const atStop = marketData();
      // nothing of the refresh is sent after the stop
      expect(atStop).toBeLessThan(WATCHED / 2);
    } finally {
      await close();
    }
  }, 60_000);
});
