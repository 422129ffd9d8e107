/**
 * Every endpoint counts in the rate-limit group the spec gives it, and answers
 * that group's `X-RateLimit-Limit` (the spec's table, written out here rather
 * than read from the code under test).
 */
import { describe, expect, it } from 'vitest';
import { useSimulators } from './conformance-kit.js';
import type { TestClient } from './sim-client.js';

const withSim = useSimulators();

/** The spec's limits per second outside the 09:00–09:10 KST peak window. */
const LIMIT: Record<string, number> = {
  AUTH: 5,
  ACCOUNT: 1,
  ASSET: 5,
  STOCK: 5,
  MARKET_INFO: 3,
  MARKET_DATA: 10,
  MARKET_DATA_CHART: 5,
  ORDER: 6,
  ORDER_HISTORY: 5,
  ORDER_INFO: 6,
};

const UNKNOWN_ORDER = 'no-such-order';

/** [group, method, path, query or body]: one request per endpoint of the spec. */
const endpoints: readonly [string, 'GET' | 'POST', string, Record<string, string>][] = [
  ['MARKET_DATA', 'GET', '/api/v1/orderbook', { symbol: '005930' }],
  ['MARKET_DATA', 'GET', '/api/v1/prices', { symbols: '005930' }],
  ['MARKET_DATA', 'GET', '/api/v1/trades', { symbol: '005930' }],
  ['MARKET_DATA', 'GET', '/api/v1/price-limits', { symbol: '005930' }],
  ['MARKET_DATA_CHART', 'GET', '/api/v1/candles', { symbol: '005930', interval: '1d' }],
  ['STOCK', 'GET', '/api/v1/stocks', { symbols: '005930' }],
  ['STOCK', 'GET', '/api/v1/stocks/005930/warnings', {}],
  ['MARKET_INFO', 'GET', '/api/v1/exchange-rate', { baseCurrency: 'USD', quoteCurrency: 'KRW' }],
  ['MARKET_INFO', 'GET', '/api/v1/market-calendar/KR', {}],
  ['MARKET_INFO', 'GET', '/api/v1/market-calendar/US', {}],
  ['ACCOUNT', 'GET', '/api/v1/accounts', {}],
  ['ASSET', 'GET', '/api/v1/holdings', {}],
  ['ORDER', 'POST', '/api/v1/orders', { symbol: '005930', side: 'BUY', orderType: 'MARKET', quantity: '1' }],
  ['ORDER', 'POST', `/api/v1/orders/${UNKNOWN_ORDER}/modify`, { orderType: 'MARKET', quantity: '1' }],
  ['ORDER', 'POST', `/api/v1/orders/${UNKNOWN_ORDER}/cancel`, {}],
  ['ORDER_HISTORY', 'GET', '/api/v1/orders', { status: 'OPEN' }],
  ['ORDER_HISTORY', 'GET', `/api/v1/orders/${UNKNOWN_ORDER}`, {}],
  ['ORDER_INFO', 'GET', '/api/v1/buying-power', { currency: 'KRW' }],
  ['ORDER_INFO', 'GET', '/api/v1/sellable-quantity', { symbol: '005930' }],
  ['ORDER_INFO', 'GET', '/api/v1/commissions', {}],
];

async function byGroup(client: TestClient): Promise<Record<string, number>> {
  return (await client.control('GET', '/_sim/counters')).requestsByGroup;
}

describe('rate-limit groups', () => {
  it.each(endpoints)('counts %s for %s %s', async (group, method, path, input) => {
    const { client } = await withSim({ rateLimit: true });
    await client.login();
    const before = await byGroup(client);
    const res = method === 'GET' ? await client.get(path, input) : await client.post(path, input);
    expect(res.status).not.toBe(429);
    const after = await byGroup(client);
    const changed = Object.keys(after).filter((g) => (after[g] ?? 0) !== (before[g] ?? 0));
    expect(changed).toEqual([group]);
    expect(after[group]).toBe((before[group] ?? 0) + 1);
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT[group]));
  });

  it('counts the token request in AUTH', async () => {
    const { client } = await withSim({ rateLimit: true });
    const res = await client.tokenRequest({
      grant_type: 'client_credentials',
      client_id: 'sim-client',
      client_secret: 'sim-secret',
    });
    expect(res.status).toBe(200);
    expect(await byGroup(client)).toEqual({ AUTH: 1 });
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT.AUTH));
  });
});
