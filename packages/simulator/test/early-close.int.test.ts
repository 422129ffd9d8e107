/**
 * A NYSE early close over HTTP: on the day after Thanksgiving 2026 the regular session ends at
 * 13:00 New York time and the after-market runs 13:00–17:00. The calendar says so, the minute
 * candles stop at 17:00, the day's close is the 13:00 auction, and the broker's rules follow the
 * calendar (a market order at 14:00 is refused as outside the regular session).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../src/index.js';
import { type Json, startTestSimulator, TestClient } from './sim-client.js';

let sim: SimulatorHandle | null = null;

afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function clientAt(start: string): Promise<TestClient> {
  sim = await startTestSimulator({ start });
  const client = new TestClient(sim.url);
  await client.login();
  return client;
}

async function ok(client: TestClient, path: string, query?: Record<string, string>): Promise<Json> {
  const res = await client.get(path, query);
  expect(res.status, res.text).toBe(200);
  return res.body.result;
}

/** A candle's stamp as New York wall time `HH:MM` (the simulator answers KST). */
function nyTime(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/New_York',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

describe('a US early close (2026-11-27, 13:00 New York)', () => {
  it('is in the calendar, the candles and the order rules', async () => {
    // 14:00 New York on the 27th: the after-market of an early close
    const client = await clientAt('2026-11-27T14:00:00-05:00');

    const calendar = await ok(client, '/api/v1/market-calendar/US', { date: '2026-11-27' });
    expect(calendar.today.regularMarket).toEqual({
      startTime: '2026-11-27T23:30:00.000+09:00',
      endTime: '2026-11-28T03:00:00.000+09:00',
    });
    expect(calendar.today.afterMarket.endTime).toBe('2026-11-28T07:00:00.000+09:00');

    const market = await client.post('/api/v1/orders', {
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'MARKET',
      quantity: '1',
    });
    expect([market.status, market.body.error?.code]).toEqual([422, 'order-type-not-allowed']);

    // a limit order is taken in the after-market
    const quote = await ok(client, '/api/v1/prices', { symbols: 'AAPL' });
    const limit = await client.post('/api/v1/orders', {
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '1',
      price: String(Number(quote[0].lastPrice) * 0.9).replace(/(\.\d\d)\d+$/, '$1'),
    });
    expect(limit.status, limit.text).toBe(200);
  });

  it('has minute candles to 17:00 and a daily close at the 13:00 auction', async () => {
    // Saturday noon KST: the early-closed day is over
    const client = await clientAt('2026-11-28T12:00:00+09:00');
    const first = await ok(client, '/api/v1/candles', { symbol: 'AAPL', interval: '1m', count: '200' });
    const second = await ok(client, '/api/v1/candles', {
      symbol: 'AAPL',
      interval: '1m',
      count: '200',
      before: first.nextBefore,
    });
    const candles: Json[] = [...first.candles, ...second.candles];
    const stamps: string[] = candles.map((c: Json) => nyTime(c.timestamp));
    // newest first: the last after-market minute closes at 17:00, none after it
    expect(stamps[0]).toBe('17:00');
    expect(stamps).toContain('13:01');
    expect(stamps).toContain('12:59');

    const daily = await ok(client, '/api/v1/candles', { symbol: 'AAPL', interval: '1d', count: '1' });
    const day = daily.candles[0];
    expect(day.timestamp.slice(0, 10)).toBe('2026-11-27');
    // the day's close is the closing auction's trade, in the first second of 13:00
    const auctionMinute = candles.find((c: Json) => nyTime(c.timestamp) === '13:01');
    expect(day.closePrice).toBe(auctionMinute.openPrice);
  });
});
