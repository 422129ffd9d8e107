/**
 * The embedded simulator (no broker configured) serves the history a backtest and a download read
 * at 200 requests a second, where the spec allows 3 (exchange rates, market info) and 5 (candles,
 * chart): it announces the pace in `X-RateLimit-Limit`, and the client follows what the broker
 * announces. The other groups keep the spec's. Over HTTP, with the client `hoga backtest` uses.
 */
import { RateLimitGroup } from '@hoga/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_HISTORY_LIMITS, embeddedSimulator, type MarketSource } from './market-source.js';

let source: MarketSource;
beforeAll(async () => {
  source = await embeddedSimulator();
});
afterAll(async () => {
  await source.close();
});

describe('the embedded simulator', () => {
  it('announces 200 a second for the candles and the exchange rates, and the client paces its reads by it', async () => {
    const { client } = source;
    const limit = (group: RateLimitGroup) => client.limiter.limitOf(group);
    // before an answer, the spec's table
    expect([limit(RateLimitGroup.MARKET_DATA_CHART), limit(RateLimitGroup.MARKET_INFO)]).toEqual([5, 3]);

    const page = await client.getCandles('005930', { interval: '1d', count: 5 });
    expect(page.candles.length).toBe(5);
    expect(limit(RateLimitGroup.MARKET_DATA_CHART)).toBe(EMBEDDED_HISTORY_LIMITS.MARKET_DATA_CHART.perSecond);
    expect(limit(RateLimitGroup.MARKET_DATA_CHART)).toBe(200);

    await client.getExchangeRate();
    expect(limit(RateLimitGroup.MARKET_INFO)).toBe(200);

    // a group a backtest does not read in bulk keeps the spec's pace
    await client.getPrices(['005930']);
    expect(limit(RateLimitGroup.MARKET_DATA)).toBe(10);
    expect(source.simulated).toBe(true);
  });
});
