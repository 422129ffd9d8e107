import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, KR_OPEN, startTestSimulator, TestClient } from '../../test/sim-client.js';
import type { SimulatorHandle } from '../index.js';
import { STOCK_MARKETS } from './stock-info.js';
import { UNIVERSE } from './universe.js';

/** The reference's enumeration of `StockInfo.market`. */
const REFERENCE_MARKETS = ['KOSPI', 'KOSDAQ', 'NYSE', 'NASDAQ', 'AMEX', 'KR_ETC', 'US_ETC'];

let sim: SimulatorHandle;
let client: TestClient;
beforeAll(async () => {
  sim = await startTestSimulator({ start: KR_OPEN });
  client = new TestClient(sim.url);
  await client.login();
});
afterAll(async () => {
  await sim.close();
});

describe('GET /api/v1/stocks', () => {
  it("answers a market from the reference's enumeration for every listed symbol", async () => {
    const res = await client.get('/api/v1/stocks', { symbols: UNIVERSE.map((s) => s.symbol).join(',') });
    expect(res.status, res.text).toBe(200);
    const stocks: Json[] = res.body.result;
    expect(stocks).toHaveLength(UNIVERSE.length);
    for (const stock of stocks) expect(REFERENCE_MARKETS, stock.symbol).toContain(stock.market);
  });

  it('lists SOXL (an NYSE Arca ETF) under AMEX', async () => {
    const res = await client.get('/api/v1/stocks', { symbols: 'SOXL' });
    expect(res.body.result[0]).toMatchObject({ symbol: 'SOXL', securityType: 'ETF', market: 'AMEX' });
  });
});

describe('STOCK_MARKETS', () => {
  it("is the reference's enumeration", () => {
    expect([...STOCK_MARKETS]).toEqual(REFERENCE_MARKETS);
  });
});
