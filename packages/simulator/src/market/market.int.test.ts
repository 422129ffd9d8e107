import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, KR_OPEN, startTestSimulator, TestClient } from '../../test/sim-client.js';
import type { SimulatorHandle } from '../index.js';
import { SimMarket } from './sim-market.js';

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

async function ok(path: string, query?: Record<string, string>): Promise<Json> {
  const res = await client.get(path, query);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body)).toEqual(['result']);
  return res.body.result;
}

async function error(path: string, query?: Record<string, string>): Promise<{ status: number; error: Json }> {
  const res = await client.get(path, query);
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  return { status: res.status, error: res.body.error };
}

describe(SimMarket, () => {
  describe('GET /api/v1/prices', () => {
    it('answers a price per symbol for 200 symbols', async () => {
      const symbols = Array.from({ length: 200 }, (_, i) => ['005930', 'AAPL', 'SOXL', '069500'][i % 4]);
      const result = await ok('/api/v1/prices', { symbols: symbols.join(',') });
      expect(result).toHaveLength(200);
      expect(result[0]).toEqual({
        symbol: '005930',
        timestamp: expect.stringMatching(/^2026-11-23T09:\d\d:\d\d\.\d{3}\+09:00$/),
        lastPrice: expect.stringMatching(/^\d+$/),
        currency: 'KRW',
      });
    });

    it('answers 400 with the constraint for 201 symbols and 404 for an unknown one', async () => {
      const tooMany = await error('/api/v1/prices', { symbols: Array(201).fill('KO').join(',') });
      expect(tooMany.status).toBe(400);
      expect(tooMany.error).toEqual(
        expect.objectContaining({
          code: 'invalid-request',
          data: { field: 'symbols', constraint: { min: 1, max: 200 } },
        }),
      );
      const unknown = await error('/api/v1/prices', { symbols: 'AAPL,NOPE' });
      expect([unknown.status, unknown.error.code]).toEqual([404, 'stock-not-found']);
    });

    it('follows a control-API price move', async () => {
      await client.control('POST', '/_sim/prices', { symbol: '000660', price: '190000' });
      const [price] = await ok('/api/v1/prices', { symbols: '000660' });
      expect(price.lastPrice).toBe('190000');
    });
  });

  describe('GET /api/v1/orderbook', () => {
    it('answers ten levels a side', async () => {
      const book = await ok('/api/v1/orderbook', { symbol: 'NVDA' });
      expect(book.currency).toBe('USD');
      expect(book.asks).toHaveLength(10);
      expect(book.bids).toHaveLength(10);
      expect(Number(book.asks[0].price)).toBeGreaterThan(Number(book.bids[0].price));
    });

    it('answers 404 stock-not-found for an unknown symbol', async () => {
      const res = await error('/api/v1/orderbook', { symbol: 'NOPE' });
      expect([res.status, res.error.code]).toEqual([404, 'stock-not-found']);
    });
  });

  describe('GET /api/v1/trades', () => {
    it('answers the newest trades first, count limited', async () => {
      const trades = await ok('/api/v1/trades', { symbol: '005930', count: '7' });
      expect(trades).toHaveLength(7);
      expect(trades[0].timestamp >= trades[6].timestamp).toBe(true);
      const bad = await error('/api/v1/trades', { symbol: '005930', count: '51' });
      expect(bad.error.data).toEqual({ field: 'count', constraint: { min: 1, max: 50 } });
    });
  });

  describe('GET /api/v1/price-limits', () => {
    it('answers KR limits and null US limits', async () => {
      const kr = await ok('/api/v1/price-limits', { symbol: '035420' });
      expect(Number(kr.upperLimitPrice)).toBeGreaterThan(Number(kr.lowerLimitPrice));
      const us = await ok('/api/v1/price-limits', { symbol: 'TSLA' });
      expect([us.upperLimitPrice, us.lowerLimitPrice]).toEqual([null, null]);
    });
  });

  describe('GET /api/v1/candles', () => {
    it('pages minute candles with nextBefore', async () => {
      const first = await ok('/api/v1/candles', { symbol: '005930', interval: '1m', count: '3' });
      expect(first.candles).toHaveLength(3);
      const second = await ok('/api/v1/candles', {
        symbol: '005930',
        interval: '1m',
        count: '3',
        before: first.nextBefore,
      });
      expect(second.candles[0].timestamp < first.candles[2].timestamp).toBe(true);
    });

    it('answers 400 with allowedValues for an unknown interval', async () => {
      const res = await error('/api/v1/candles', { symbol: '005930', interval: '1h' });
      expect(res.status).toBe(400);
      expect(res.error.data).toEqual({ field: 'interval', allowedValues: ['1m', '1d'] });
    });
  });

  describe('GET /api/v1/stocks', () => {
    it('answers stock info', async () => {
      const stocks = await ok('/api/v1/stocks', { symbols: '069500,SOXL' });
      expect(stocks.map((s: Json) => s.symbol)).toEqual(['069500', 'SOXL']);
    });
  });

  describe('GET /api/v1/stocks/{symbol}/warnings', () => {
    it('answers active warnings, an empty list, or 404', async () => {
      expect(await ok('/api/v1/stocks/247540/warnings')).toEqual([
        { warningType: 'INVESTMENT_WARNING', exchange: 'KRX', startDate: '2026-11-02', endDate: null },
      ]);
      expect(await ok('/api/v1/stocks/AAPL/warnings')).toEqual([]);
      const res = await error('/api/v1/stocks/NOPE/warnings');
      expect([res.status, res.error.code]).toEqual([404, 'stock-not-found']);
    });
  });

  describe('GET /api/v1/exchange-rate', () => {
    it('answers the current window and 404 before the history', async () => {
      const rate = await ok('/api/v1/exchange-rate', { baseCurrency: 'USD', quoteCurrency: 'KRW' });
      expect(rate.validFrom).toBe('2026-11-23T10:00:00.000+09:00');
      const old = await error('/api/v1/exchange-rate', {
        baseCurrency: 'USD',
        quoteCurrency: 'KRW',
        dateTime: '2010-01-01T00:00:00+09:00',
      });
      expect([old.status, old.error.code]).toEqual([404, 'exchange-rate-not-found']);
    });
  });

  describe('GET /api/v1/market-calendar/{country}', () => {
    it('answers both calendars and 400 unsupported-date outside the range', async () => {
      expect((await ok('/api/v1/market-calendar/KR')).today.date).toBe('2026-11-23');
      expect((await ok('/api/v1/market-calendar/US', { date: '2026-11-26' })).today.regularMarket).toBeNull();
      const res = await error('/api/v1/market-calendar/KR', { date: '2030-01-02' });
      expect(res.status).toBe(400);
      expect(res.error).toEqual(
        expect.objectContaining({ code: 'unsupported-date', data: { field: 'date' } }),
      );
    });
  });
});
