/**
 * The simulated clock running on its own (`speed` > 0, no control-API clock
 * moves): prices, trades, candles and fills follow it in real time.
 */
import { Decimal } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { useSimulators } from './conformance-kit.js';
import { type Json, KR_OPEN, outcome, type TestClient, US_OPEN } from './sim-client.js';

/**
 * Simulated seconds per real second: 10 simulated minutes pass in one real second. The KR test
 * starts at 10:00 and the US one at 09:30 ET, so continuous trading ends (KR 15:20, US 16:00) 32
 * and 39 real seconds after the simulator starts: past vitest's 30 s test timeout, so a test that
 * stalls on a loaded machine times out rather than meeting the closing auction. At ×1200 it met it
 * after 16 and 19.5 s.
 */
const SPEED = 600;

const startSim = useSimulators();

async function setup(start: string): Promise<TestClient> {
  const { client } = await startSim({ start, speed: SPEED });
  await client.login();
  return client;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const minutesBetween = (from: string, to: string) =>
  DateTime.fromISO(to).diff(DateTime.fromISO(from), 'minutes').minutes;

/**
 * What the market shows of 005930: the clock (`now`), then the newest trade and
 * the newest minute candle, then the clock again (`nowAfter`).
 */
async function look(
  client: TestClient,
): Promise<{ now: string; trade: Json; candle: Json; nowAfter: string }> {
  const clock = await client.control('GET', '/_sim/clock');
  const trades = await client.get('/api/v1/trades', { symbol: '005930', count: '1' });
  const candles = await client.get('/api/v1/candles', { symbol: '005930', interval: '1m', count: '1' });
  const later = await client.control('GET', '/_sim/clock');
  return {
    now: clock.now,
    trade: trades.body.result[0],
    candle: candles.body.result.candles[0],
    nowAfter: later.now,
  };
}

describe('the running simulated clock', () => {
  it('moves the clock, the trades and the minute candles together at the given speed', async () => {
    const client = await setup(KR_OPEN);
    const realStart = performance.now();
    const before = await look(client);
    const sleepStart = performance.now();
    await sleep(1_500);
    const sleptSeconds = (performance.now() - sleepStart) / 1000;
    const after = await look(client);
    const realSeconds = (performance.now() - realStart) / 1000;
    // Bounds that hold however slow the requests are: the two clock reads
    // enclose the sleep and lie within the whole real time measured.
    const clockMinutes = minutesBetween(before.now, after.now);
    expect(clockMinutes).toBeGreaterThanOrEqual((sleptSeconds * SPEED) / 60 - 0.1);
    expect(clockMinutes).toBeLessThanOrEqual((realSeconds * SPEED) / 60 + 0.1);
    // The newest minute candle is the one in progress at each look, so it moved with the clock.
    expect(minutesBetween(before.candle.timestamp, after.candle.timestamp)).toBeGreaterThan(
      minutesBetween(before.nowAfter, after.now) - 1,
    );
    expect(DateTime.fromISO(after.candle.timestamp) > DateTime.fromISO(after.now)).toBe(true);
    expect(minutesBetween(after.candle.timestamp, after.nowAfter)).toBeGreaterThan(-1);
    // Trades keep coming during the session, never after the clock.
    expect(DateTime.fromISO(after.trade.timestamp) > DateTime.fromISO(before.now)).toBe(true);
    expect(DateTime.fromISO(after.trade.timestamp) <= DateTime.fromISO(after.nowAfter)).toBe(true);
  });

  it('fills the rest of a partly filled order as the clock runs, without any clock call', async () => {
    const client = await setup(US_OPEN);
    const book = await client.get('/api/v1/orderbook', { symbol: 'ZOM' });
    const visible = book.body.result.asks.reduce(
      (sum: Decimal, l: Json) => sum.plus(l.volume),
      new Decimal(0),
    );
    // Three times the visible book: books are re-drawn every simulated second,
    // so a margin of a few shares could be covered by the book met at creation.
    // Kept within the USD buying power (market buys reserve a little above the last price).
    const power = await client.get('/api/v1/buying-power', { currency: 'USD' });
    const affordable = new Decimal(power.body.result.cashBuyingPower)
      .div(new Decimal(book.body.result.asks[0].price).times(1.2).toDecimalPlaces(2, Decimal.ROUND_UP))
      .floor();
    const quantity = Decimal.min(visible.times(3), affordable);
    const res = await client.post('/api/v1/orders', {
      symbol: 'ZOM',
      side: 'BUY',
      orderType: 'MARKET',
      quantity: quantity.toFixed(),
    });
    expect(outcome(res)).toBe('200');
    const id = res.body.result.orderId as string;
    let order: Json = (await client.get(`/api/v1/orders/${id}`)).body.result;
    for (let i = 0; i < 30 && order.status !== 'FILLED'; i++) {
      await sleep(100);
      order = (await client.get(`/api/v1/orders/${id}`)).body.result;
    }
    expect(order.status).toBe('FILLED');
    expect(order.execution.filledQuantity).toBe(quantity.toFixed());
    // The book held only part of it at once: the last fill came later on the simulated clock.
    expect(DateTime.fromISO(order.execution.filledAt) > DateTime.fromISO(order.orderedAt)).toBe(true);
  });
});
