/**
 * Conformance, request errors: 400, 401, 403 and 404 of the spec's table and
 * the token endpoint's OAuth errors (see `conformance.int.test.ts` for the
 * codes no simulator can produce).
 */
import { describe, expect, it } from 'vitest';
import { type ErrorCase, itAnswersErrors, limits, useSimulators } from './conformance-kit.js';
import { krLimit, krLowerLimitBuyWorth } from './kr-orders.test-helper.js';
import { outcome, US_OPEN } from './sim-client.js';

const withSim = useSimulators();

const cases: readonly ErrorCase[] = [
  [
    '400 invalid-request',
    'candles with an unknown interval',
    async ({ client }) => {
      const res = await client.get('/api/v1/candles', { symbol: '005930', interval: '5m' });
      expect(res.body.error.data).toMatchObject({
        field: 'interval',
        allowedValues: expect.arrayContaining(['1m', '1d']),
      });
      return res;
    },
  ],
  [
    '400 invalid-request',
    'prices with 201 symbols',
    async ({ client }) => {
      const res = await client.get('/api/v1/prices', { symbols: Array(201).fill('AAPL').join(',') });
      expect(res.body.error.data).toEqual({ field: 'symbols', constraint: { min: 1, max: 200 } });
      return res;
    },
  ],
  [
    '400 invalid-request',
    'a KR price off the tick grid',
    async ({ client }) => {
      const { lower } = await limits(client, '005930');
      const res = await client.post('/api/v1/orders', krLimit('BUY', '1', lower.plus(1)));
      expect(res.body.error.data.field).toBe('price');
      return res;
    },
  ],
  [
    '400 invalid-request',
    'a malformed JSON body',
    ({ client }) => client.post('/api/v1/orders', '{"symbol":'),
  ],
  [
    '400 confirm-high-value-required',
    'an order of 100,000,000 KRW without the flag',
    ({ client }) => krLowerLimitBuyWorth(client, 100_000_000),
  ],
  [
    '400 account-header-required',
    'holdings without the account header',
    ({ client }) => client.get('/api/v1/holdings', undefined, { account: null }),
  ],
  [
    '400 unsupported-date',
    'a KR calendar date outside the supported range',
    ({ client }) => client.get('/api/v1/market-calendar/KR', { date: '1990-01-02' }),
  ],
  [
    '400 us-modify-quantity-not-supported',
    'a US modify with a quantity (reference)',
    async ({ client }) => {
      const created = await client.post('/api/v1/orders', {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '1',
        price: '1.00',
      });
      expect(outcome(created)).toBe('200');
      return client.post(`/api/v1/orders/${created.body.result.orderId}/modify`, {
        orderType: 'LIMIT',
        price: '1.01',
        quantity: '2',
      });
    },
    { start: US_OPEN },
  ],
  [
    '401 edge-blocked',
    'no Authorization header',
    ({ client }) => client.get('/api/v1/prices', { symbols: 'AAPL' }, { auth: false }),
  ],
  [
    '401 invalid-token',
    'an unknown token',
    ({ client }) =>
      client.get(
        '/api/v1/prices',
        { symbols: 'AAPL' },
        { auth: false, headers: { authorization: 'Bearer nope' } },
      ),
  ],
  [
    '401 expired-token',
    'a token past its lifetime',
    async ({ sim, client }) => {
      await client.login();
      sim.advanceClock(61_000);
      return client.get('/api/v1/prices', { symbols: 'AAPL' });
    },
    { tokenTtlSeconds: 60 },
  ],
  [
    '401 token-revoked',
    'a token replaced by a newer issue',
    async ({ client }) => {
      const old = await client.login();
      await client.login();
      client.useToken(old);
      return client.get('/api/v1/prices', { symbols: 'AAPL' });
    },
  ],
  [
    '403 edge-blocked',
    'a token request with a malformed client_id',
    ({ client }) =>
      client.tokenRequest({
        grant_type: 'client_credentials',
        client_id: 'sim\u0001client',
        client_secret: 'x',
      }),
  ],
  ['404 edge-blocked', 'an unknown path', ({ client }) => client.get('/api/v1/nothing-here')],
  [
    '404 edge-blocked',
    'a known path with the wrong method',
    ({ client }) => client.request('DELETE', '/api/v1/orders'),
  ],
  [
    '404 stock-not-found',
    'an unknown symbol',
    ({ client }) => client.get('/api/v1/orderbook', { symbol: 'NOPE' }),
  ],
  [
    '404 stock-not-found',
    'warnings of an unknown symbol',
    ({ client }) => client.get('/api/v1/stocks/NOPE/warnings'),
  ],
  [
    '404 exchange-rate-not-found',
    'a time before the rate history',
    ({ client }) =>
      client.get('/api/v1/exchange-rate', {
        baseCurrency: 'USD',
        quoteCurrency: 'KRW',
        dateTime: '2000-01-03T10:00:00+09:00',
      }),
  ],
  [
    '404 account-not-found',
    'an unknown account',
    ({ client }) => client.get('/api/v1/holdings', undefined, { account: '99' }),
  ],
  ['404 order-not-found', 'an unknown order id', ({ client }) => client.get('/api/v1/orders/no-such-order')],
];

describe('request errors', () => {
  itAnswersErrors(withSim, cases);

  it.each([
    ['400 invalid_request', { client_id: 'sim-client', client_secret: 'sim-secret' }],
    [
      '400 unsupported_grant_type',
      { grant_type: 'password', client_id: 'sim-client', client_secret: 'sim-secret' },
    ],
    ['400 invalid_request', { grant_type: 'client_credentials', client_secret: 'sim-secret' }],
    [
      '401 invalid_client',
      { grant_type: 'client_credentials', client_id: 'sim-client', client_secret: 'wrong' },
    ],
    [
      '401 invalid_client',
      { grant_type: 'client_credentials', client_id: 'other', client_secret: 'sim-secret' },
    ],
  ])('answers the token endpoint with OAuth %s for %j', async (expected, form) => {
    const { client } = await withSim();
    const res = await client.tokenRequest(form);
    expect(outcome(res)).toBe(expected);
    expect(res.body.error_description).toEqual(expect.any(String));
    if (res.status === 401) expect(res.headers.get('www-authenticate')).toBe('Basic realm="openapi"');
  });

  it('answers OAuth invalid_request for a JSON token request', async () => {
    const { client } = await withSim();
    const res = await client.tokenRequest({ grant_type: 'client_credentials' }, 'application/json');
    expect(outcome(res)).toBe('400 invalid_request');
  });
});
