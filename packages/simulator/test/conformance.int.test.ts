/**
 * Conformance of the simulator with the spec over real HTTP. This file: every
 * endpoint answers in its envelope with `X-Request-Id` and the rate-limit
 * headers. Its siblings reach every error code of the spec's table that a
 * simulator can produce: `request-errors.int.test.ts` (400, 401, 403, 404 and
 * the token endpoint's OAuth errors) and `order-errors.int.test.ts` (409,
 * 422, 429, 500).
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
import { describe, expect, it } from 'vitest';
import { expectEnvelopeHeaders, limits, UUID, useSimulators } from './conformance-kit.js';
import { type Json, outcome } from './sim-client.js';

const withSim = useSimulators();

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
});
