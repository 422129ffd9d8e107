/**
 * Conformance, order and service errors: 409, 422, 429 and 500 of the spec's
 * table (and the reference's 422 `max-order-amount-exceeded`).
 */
import { Decimal, roundToTick } from '@hoga/core';
import { describe, expect } from 'vitest';
import {
  type ErrorCase,
  itAnswersErrors,
  limits,
  marketBuy,
  restingBuy,
  useSimulators,
} from './conformance-kit.js';
import { krLimit, krLowerLimitBuyWorth } from './kr-orders.test-helper.js';
import { type Json, outcome, TestClient, US_OPEN } from './sim-client.js';

const withSim = useSimulators();

const cases: readonly ErrorCase[] = [
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
      const body = krLimit('BUY', '1', lower, { clientOrderId: 'dup-1' });
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
      return client.post('/api/v1/orders', krLimit('BUY', '10', lower));
    },
  ],
  [
    '422 order-hours-closed',
    'a KR order on a Saturday',
    ({ client }) => marketBuy(client, '005930', '1'),
    { start: '2026-11-28T10:00:00+09:00' },
  ],
  ['422 stock-restricted', 'an order in a suspended stock', ({ client }) => marketBuy(client, '900110', '1')],
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
      return client.post('/api/v1/orders', krLimit('BUY', '1', price));
    },
  ],
  [
    '422 opposite-pending-order-exists',
    'a KR sell while a buy is pending',
    async ({ client }) => {
      await restingBuy(client);
      const { upper } = await limits(client, '005930');
      return client.post('/api/v1/orders', krLimit('SELL', '1', upper));
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
      const body = krLimit('BUY', '1', lower, { clientOrderId: 'k-1' });
      expect(outcome(await client.post('/api/v1/orders', body))).toBe('200');
      return client.post('/api/v1/orders', { ...body, quantity: '2' });
    },
  ],
  [
    '422 max-order-amount-exceeded',
    'a confirmed order of 3,000,000,000 KRW (reference)',
    ({ client }) => krLowerLimitBuyWorth(client, 3_000_000_000, { confirmHighValueOrder: true }),
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

describe('order and service errors', () => {
  itAnswersErrors(withSim, cases);
});
