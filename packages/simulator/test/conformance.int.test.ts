/**
 * Conformance of the simulator with the spec over real HTTP: every endpoint
 * answers in its envelope with `X-Request-Id` and the rate-limit headers, and
 * every error code of the spec's table that a simulator can produce is reached.
 *
 * Codes of the spec's table this suite cannot reach, and why:
 * - 401 `login-user-not-found`: the simulator has no login sessions apart from
 *   its tokens; a token either exists (valid, expired, revoked) or does not
 *   (`invalid-token`).
 * - 403 `edge-blocked` for an unlisted calling IP: there is no IP allow-list
 *   (the 403 `edge-blocked` of a malformed token request is reached).
 * - 403 `forbidden`: tokens carry no scopes (scopes are "not shown").
 * - 422 `investor-exchange-not-integrated`: the simulated investor is always
 *   set to integrated routing, the only mode the spec supports.
 */
import { Decimal, roundToTick } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle, SimulatorOptions } from '../src/index.js';
import {
  type Json,
  outcome,
  type SimResponse,
  startTestSimulator,
  TestClient,
  US_OPEN,
} from './sim-client.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Ctx {
  readonly sim: SimulatorHandle;
  readonly client: TestClient;
}

const running: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function withSim(options: SimulatorOptions = {}): Promise<Ctx> {
  const sim = await startTestSimulator(options);
  running.push(sim);
  return { sim, client: new TestClient(sim.url) };
}

/** The daily limits of a KR symbol now. */
async function limits(client: TestClient, symbol: string): Promise<{ upper: Decimal; lower: Decimal }> {
  const res = await client.get('/api/v1/price-limits', { symbol });
  expect(res.status).toBe(200);
  return {
    upper: new Decimal(res.body.result.upperLimitPrice),
    lower: new Decimal(res.body.result.lowerLimitPrice),
  };
}

/** A KR limit buy resting at the lower limit (it cannot fill unless the price crashes). */
async function restingBuy(client: TestClient, symbol = '005930', quantity = '1'): Promise<string> {
  const { lower } = await limits(client, symbol);
  const res = await client.post('/api/v1/orders', {
    symbol,
    side: 'BUY',
    orderType: 'LIMIT',
    quantity,
    price: lower.toFixed(),
  });
  expect(outcome(res)).toBe('200');
  return res.body.result.orderId as string;
}

function marketBuy(client: TestClient, symbol: string, quantity: string): Promise<SimResponse> {
  return client.post('/api/v1/orders', { symbol, side: 'BUY', orderType: 'MARKET', quantity });
}

function expectEnvelopeHeaders(res: SimResponse): void {
  const requestId = res.headers.get('x-request-id');
  expect(requestId).toMatch(UUID);
  expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  if (res.status !== 200) expect(res.body.error.requestId).toBe(requestId);
}

describe('simulator conformance', () => {
  describe('every endpoint', () => {
    const reads: readonly [string, Record<string, string>, (result: unknown) => void][] = [
      [
        '/api/v1/orderbook',
        { symbol: '005930' },
        (r: Json) => {
          expect(r.currency).toBe('KRW');
          expect(r.asks.length).toBeGreaterThanOrEqual(10);
          expect(r.bids.length).toBeGreaterThanOrEqual(10);
          expect(typeof r.bids[0].price).toBe('string');
        },
      ],
      [
        '/api/v1/prices',
        { symbols: '005930,AAPL' },
        (r: Json) => {
          expect(r.map((p: Json) => p.symbol)).toEqual(['005930', 'AAPL']);
          expect(r[0].lastPrice).toMatch(/^\d+(\.\d+)?$/);
        },
      ],
      [
        '/api/v1/trades',
        { symbol: '005930', count: '5' },
        (r: Json) => {
          expect(r.length).toBeGreaterThan(0);
          expect(r.length).toBeLessThanOrEqual(5);
        },
      ],
      ['/api/v1/price-limits', { symbol: '005930' }, (r: Json) => expect(r.upperLimitPrice).toMatch(/^\d+$/)],
      [
        '/api/v1/price-limits',
        { symbol: 'AAPL' },
        (r: Json) => {
          expect(r.upperLimitPrice).toBeNull();
          expect(r.lowerLimitPrice).toBeNull();
        },
      ],
      [
        '/api/v1/candles',
        { symbol: '005930', interval: '1m', count: '3' },
        (r: Json) => {
          expect(r.candles).toHaveLength(3);
          expect(r.nextBefore).toBe(r.candles[2].timestamp);
        },
      ],
      [
        '/api/v1/candles',
        { symbol: 'AAPL', interval: '1d', count: '2' },
        (r: Json) => expect(r.candles).toHaveLength(2),
      ],
      [
        '/api/v1/stocks',
        { symbols: '005930,AAPL' },
        (r: Json) => {
          expect(r[0].koreanMarketDetail).not.toBeNull();
          expect(r[1].koreanMarketDetail).toBeNull();
        },
      ],
      ['/api/v1/stocks/247540/warnings', {}, (r: Json) => expect(Array.isArray(r)).toBe(true)],
      [
        '/api/v1/exchange-rate',
        { baseCurrency: 'USD', quoteCurrency: 'KRW' },
        (r: Json) => {
          expect(r.rate).toMatch(/^\d+(\.\d+)?$/);
        },
      ],
      ['/api/v1/market-calendar/KR', {}, (r: Json) => expect(r.today.date).toBe('2026-11-23')],
      ['/api/v1/market-calendar/US', {}, (r: Json) => expect(Object.keys(r)).toContain('nextBusinessDay')],
      ['/api/v1/accounts', {}, (r: Json) => expect(r.map((a: Json) => a.accountSeq)).toContain(1)],
      ['/api/v1/holdings', {}, (r: Json) => expect(r.items.map((i: Json) => i.symbol)).toContain('005930')],
      ['/api/v1/buying-power', { currency: 'KRW' }, (r: Json) => expect(r.currency).toBe('KRW')],
      [
        '/api/v1/sellable-quantity',
        { symbol: '005930' },
        (r: Json) => expect(r.sellableQuantity).toBe('100'),
      ],
      [
        '/api/v1/commissions',
        {},
        (r: Json) => expect(r.map((c: Json) => c.marketCountry).sort()).toEqual(['KR', 'US']),
      ],
      [
        '/api/v1/orders',
        { status: 'OPEN' },
        (r: Json) => expect(r).toMatchObject({ orders: [], hasNext: false }),
      ],
      ['/api/v1/orders', { status: 'CLOSED' }, (r: Json) => expect(r.nextCursor).toBeNull()],
    ];

    it.each(reads)('GET %s %j answers 200 {result} with the headers', async (path, query, check) => {
      const { client } = await withSim();
      const res = await client.get(path, query);
      expect(outcome(res)).toBe('200');
      expectEnvelopeHeaders(res);
      check(res.body.result);
    });

    it('creates, modifies, cancels and shows an order, each answer in {result}', async () => {
      const { client } = await withSim();
      const { lower } = await limits(client, '005930');
      const created = await client.post('/api/v1/orders', {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '2',
        price: lower.toFixed(),
        clientOrderId: 'conf-1',
      });
      expect(outcome(created)).toBe('200');
      expectEnvelopeHeaders(created);
      expect(created.body.result).toEqual({ orderId: expect.any(String), clientOrderId: 'conf-1' });
      const first = created.body.result.orderId as string;

      const modified = await client.post(`/api/v1/orders/${first}/modify`, {
        orderType: 'LIMIT',
        price: lower.toFixed(),
        quantity: '1',
      });
      expect(outcome(modified)).toBe('200');
      const second = modified.body.result.orderId as string;
      expect(second).not.toBe(first);

      const canceled = await client.post(`/api/v1/orders/${second}/cancel`);
      expect(outcome(canceled)).toBe('200');
      expect(canceled.body.result.orderId).not.toBe(second);

      const detail = await client.get(`/api/v1/orders/${first}`);
      expect(outcome(detail)).toBe('200');
      expect(detail.body.result).toMatchObject({
        orderId: first,
        symbol: '005930',
        side: 'BUY',
        status: 'REPLACED',
      });
      const closed = await client.get('/api/v1/orders', { status: 'CLOSED' });
      expect(closed.body.result.orders.map((o: Json) => o.orderId)).toEqual(
        expect.arrayContaining([first, second]),
      );
    });

    it('answers the token endpoint in plain OAuth 2.0 form', async () => {
      const { client } = await withSim();
      const res = await client.tokenRequest({
        grant_type: 'client_credentials',
        client_id: 'sim-client',
        client_secret: 'sim-secret',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 86400 });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(res.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('error codes', () => {
    type Case = readonly [
      expected: string,
      why: string,
      run: (ctx: Ctx) => Promise<SimResponse>,
      options?: SimulatorOptions,
    ];
    const cases: readonly Case[] = [
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
          const res = await client.post('/api/v1/orders', {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity: '1',
            price: lower.plus(1).toFixed(),
          });
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
        async ({ client }) => {
          const { lower } = await limits(client, '005930');
          const quantity = new Decimal(100_000_000).div(lower).ceil().toFixed();
          return client.post('/api/v1/orders', {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity,
            price: lower.toFixed(),
          });
        },
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
      [
        '404 order-not-found',
        'an unknown order id',
        ({ client }) => client.get('/api/v1/orders/no-such-order'),
      ],
      [
        '409 request-in-progress',
        'the same clientOrderId while the first is processing',
        async ({ sim, client }) => {
          const { lower } = await limits(client, '005930');
          sim.injectFault({
            kind: 'slow-order',
            path: '/api/v1/orders',
            method: 'POST',
            delayMs: 400,
            count: 1,
          });
          const body = {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity: '1',
            price: lower.toFixed(),
            clientOrderId: 'dup-1',
          };
          const first = client.post('/api/v1/orders', body);
          await new Promise((r) => setTimeout(r, 100));
          const second = await client.post('/api/v1/orders', body);
          expect(outcome(await first)).toBe('200');
          return second;
        },
      ],
      [
        '409 already-filled',
        'cancel of a filled order',
        async ({ client }) => {
          const res = await marketBuy(client, '005930', '1');
          expect(outcome(res)).toBe('200');
          return client.post(`/api/v1/orders/${res.body.result.orderId}/cancel`);
        },
      ],
      [
        '409 already-canceled',
        'a second cancel',
        async ({ client }) => {
          const id = await restingBuy(client);
          expect(outcome(await client.post(`/api/v1/orders/${id}/cancel`))).toBe('200');
          return client.post(`/api/v1/orders/${id}/cancel`);
        },
      ],
      [
        '409 already-modified',
        'a second modify of the original',
        async ({ client }) => {
          const id = await restingBuy(client);
          const { lower } = await limits(client, '005930');
          const body = { orderType: 'LIMIT', price: lower.toFixed(), quantity: '1' };
          expect(outcome(await client.post(`/api/v1/orders/${id}/modify`, body))).toBe('200');
          return client.post(`/api/v1/orders/${id}/modify`, body);
        },
      ],
      [
        '409 already-rejected',
        'cancel of a rejected (under $1) amount order',
        async ({ client }) => {
          const res = await client.post('/api/v1/orders', {
            symbol: 'AAPL',
            side: 'BUY',
            orderType: 'MARKET',
            orderAmount: '0.50',
          });
          expect(outcome(res)).toBe('200');
          return client.post(`/api/v1/orders/${res.body.result.orderId}/cancel`);
        },
        { start: US_OPEN },
      ],
      [
        '409 already-processing',
        'a cancel while a modify of the same order is processing',
        async ({ sim, client }) => {
          const id = await restingBuy(client);
          const { lower } = await limits(client, '005930');
          sim.injectFault({ kind: 'slow-order', path: '/api/v1/orders/*/modify', delayMs: 400, count: 1 });
          const modify = client.post(`/api/v1/orders/${id}/modify`, {
            orderType: 'LIMIT',
            price: lower.toFixed(),
            quantity: '1',
          });
          await new Promise((r) => setTimeout(r, 100));
          const cancel = await client.post(`/api/v1/orders/${id}/cancel`);
          expect(outcome(await modify)).toBe('200');
          return cancel;
        },
      ],
      [
        '422 insufficient-buying-power',
        'a buy beyond the cash of account 2',
        async ({ sim }) => {
          const client = new TestClient(sim.url, '2');
          const { lower } = await limits(client, '005930');
          return client.post('/api/v1/orders', {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity: '10',
            price: lower.toFixed(),
          });
        },
      ],
      [
        '422 order-hours-closed',
        'a KR order on a Saturday',
        ({ client }) => marketBuy(client, '005930', '1'),
        { start: '2026-11-28T10:00:00+09:00' },
      ],
      [
        '422 stock-restricted',
        'an order in a suspended stock',
        ({ client }) => marketBuy(client, '900110', '1'),
      ],
      [
        '422 price-out-of-range',
        'a KR limit above the upper limit',
        async ({ client }) => {
          const { upper } = await limits(client, '005930');
          const instrument = {
            symbol: '005930',
            market: 'KR',
            currency: 'KRW',
            securityType: 'STOCK',
          } as const;
          const price = roundToTick(instrument, upper.times(1.05), 'up');
          return client.post('/api/v1/orders', {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity: '1',
            price: price.toFixed(),
          });
        },
      ],
      [
        '422 opposite-pending-order-exists',
        'a KR sell while a buy is pending',
        async ({ client }) => {
          await restingBuy(client);
          const { upper } = await limits(client, '005930');
          return client.post('/api/v1/orders', {
            symbol: '005930',
            side: 'SELL',
            orderType: 'LIMIT',
            quantity: '1',
            price: upper.toFixed(),
          });
        },
      ],
      [
        '422 order-type-not-allowed',
        'a KR market order in the pre-market',
        ({ client }) => marketBuy(client, '005930', '1'),
        { start: '2026-11-23T08:30:00+09:00' },
      ],
      [
        '422 prerequisite-required',
        'an order in the 3x leveraged SOXL',
        ({ client }) => marketBuy(client, 'SOXL', '1'),
        { start: US_OPEN },
      ],
      [
        '422 market-not-supported-for-stock',
        'a non-NXT KR stock in the pre-market',
        async ({ client }) => {
          return client.post('/api/v1/orders', {
            symbol: '069500',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity: '1',
            price: '30000',
          });
        },
        { start: '2026-11-23T08:30:00+09:00' },
      ],
      [
        '422 amount-order-outside-regular-hours',
        'an amount order in KR hours',
        ({ client }) =>
          client.post('/api/v1/orders', {
            symbol: 'AAPL',
            side: 'BUY',
            orderType: 'MARKET',
            orderAmount: '100',
          }),
      ],
      [
        '422 modify-restricted',
        'a modify of a partly filled amount order',
        async ({ client }) => {
          const book = await client.get('/api/v1/orderbook', { symbol: 'ZOM' });
          const visible = book.body.result.asks.reduce(
            (sum: Decimal, l: Json) => sum.plus(new Decimal(l.price).times(l.volume)),
            new Decimal(0),
          );
          const res = await client.post('/api/v1/orders', {
            symbol: 'ZOM',
            side: 'BUY',
            orderType: 'MARKET',
            orderAmount: visible.plus(500).toFixed(2),
          });
          expect(outcome(res)).toBe('200');
          const id = res.body.result.orderId as string;
          expect((await client.get(`/api/v1/orders/${id}`)).body.result.status).toBe('PARTIAL_FILLED');
          return client.post(`/api/v1/orders/${id}/modify`, { orderType: 'LIMIT', price: '0.1' });
        },
        { start: US_OPEN },
      ],
      [
        '422 cancel-restricted',
        'a cancel of a CLS order in the last 10 minutes before the US close',
        async ({ sim, client }) => {
          const res = await client.post('/api/v1/orders', {
            symbol: 'AAPL',
            side: 'BUY',
            orderType: 'LIMIT',
            timeInForce: 'CLS',
            quantity: '1',
            price: '100',
          });
          expect(outcome(res)).toBe('200');
          sim.setClock('2026-11-24T05:52:00+09:00');
          return client.post(`/api/v1/orders/${res.body.result.orderId}/cancel`);
        },
        { start: US_OPEN },
      ],
      [
        '422 idempotency-key-conflict',
        'the same clientOrderId with other content',
        async ({ client }) => {
          const { lower } = await limits(client, '005930');
          const body = {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity: '1',
            price: lower.toFixed(),
            clientOrderId: 'k-1',
          };
          expect(outcome(await client.post('/api/v1/orders', body))).toBe('200');
          return client.post('/api/v1/orders', { ...body, quantity: '2' });
        },
      ],
      [
        '422 max-order-amount-exceeded',
        'a confirmed order of 3,000,000,000 KRW (reference)',
        async ({ client }) => {
          const { lower } = await limits(client, '005930');
          const quantity = new Decimal(3_000_000_000).div(lower).ceil().toFixed();
          return client.post('/api/v1/orders', {
            symbol: '005930',
            side: 'BUY',
            orderType: 'LIMIT',
            quantity,
            price: lower.toFixed(),
            confirmHighValueOrder: true,
          });
        },
      ],
      [
        '429 rate-limit-exceeded',
        'a burst of accounts calls (limit 1 per second)',
        async ({ client }) => {
          await client.login();
          const answers = await Promise.all([1, 2, 3].map(() => client.get('/api/v1/accounts')));
          const res = answers.find((r) => r.status === 429);
          if (res === undefined) throw new Error('no 429 among three concurrent accounts calls');
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
          return res;
        },
        { rateLimit: true },
      ],
      [
        '429 edge-rate-limit-exceeded',
        'an injected edge rate-limit burst',
        ({ sim, client }) => {
          sim.injectFault({ kind: 'edge-rate-limit-burst', path: '/api/v1/trades' });
          return client.get('/api/v1/trades', { symbol: '005930' });
        },
      ],
      [
        '500 internal-error',
        'an injected internal error',
        ({ sim, client }) => {
          sim.injectFault({ kind: 'internal-error', path: '/api/v1/prices' });
          return client.get('/api/v1/prices', { symbols: 'AAPL' });
        },
      ],
      [
        '500 maintenance',
        'injected maintenance',
        ({ sim, client }) => {
          sim.injectFault({ kind: 'maintenance', path: '/api/v1/*' });
          return client.get('/api/v1/accounts');
        },
      ],
    ];

    const rows = cases.map(([expected, why, run, options]) => ({ expected, why, run, options }));
    it.each(rows)('answers $expected for $why', async ({ expected, run, options }) => {
      const ctx = await withSim(options);
      const res = await run(ctx);
      expect(outcome(res)).toBe(expected);
      if (!expected.startsWith('404 edge-blocked')) expectEnvelopeHeaders(res);
      else expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
      expect(typeof res.body.error.message).toBe('string');
    });

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
});
