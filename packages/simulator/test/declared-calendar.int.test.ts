/**
 * Holidays and special sessions declared to the simulator, over HTTP: by the start option
 * `calendar` and by the control API (`POST /_sim/calendar`, while running). The calendar endpoints
 * answer them, and the order rules obey them: no order on a declared holiday, and after a declared
 * early close the regular session is over (a MARKET order is refused, as in any after-market).
 * Before, the simulator knew only its built-in calendar, and tests that needed another day put a
 * forwarding proxy in front of it that rewrote the calendar answers (the orders did not follow).
 */
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatorError, type SimulatorHandle } from '../src/index.js';
import { type Json, outcome, startTestSimulator, TestClient } from './sim-client.js';

let sim: SimulatorHandle | null = null;

afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function clientOf(options: Parameters<typeof startTestSimulator>[0]): Promise<TestClient> {
  sim = await startTestSimulator(options);
  const client = new TestClient(sim.url);
  await client.login();
  return client;
}

async function calendar(client: TestClient, market: 'KR' | 'US', date: string): Promise<Json> {
  const res = await client.get(`/api/v1/market-calendar/${market}`, { date });
  expect(res.status, res.text).toBe(200);
  return res.body.result;
}

const krMarketBuy = { symbol: '005930', side: 'BUY', orderType: 'MARKET', quantity: '1' };
const usMarketBuy = { symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', quantity: '1' };

describe('a declared KR holiday (start option)', () => {
  it('is closed in the calendar, skipped as a business day, and refuses orders; the day before trades', async () => {
    // Tuesday 2026-11-24, a trading day by the built-in calendar
    const client = await clientOf({
      start: '2026-11-23T10:00:00+09:00',
      calendar: { holidays: [{ market: 'KR', date: '2026-11-24' }] },
    });
    const holiday = await calendar(client, 'KR', '2026-11-24');
    expect(holiday.today).toEqual({ date: '2026-11-24', integrated: null });
    expect(holiday.previousBusinessDay.date).toBe('2026-11-23');
    expect(holiday.nextBusinessDay.date).toBe('2026-11-25');
    expect((await calendar(client, 'KR', '2026-11-23')).nextBusinessDay.date).toBe('2026-11-25');
    // the US calendar is not touched
    expect((await calendar(client, 'US', '2026-11-24')).today.regularMarket).not.toBeNull();

    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('200');
    sim!.setClock('2026-11-24T10:00:00+09:00');
    await client.login(); // a day later: the token expired
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('422 order-hours-closed');
    const limit = { ...krMarketBuy, orderType: 'LIMIT', price: '50000' };
    expect(outcome(await client.post('/api/v1/orders', limit))).toBe('422 order-hours-closed');
    sim!.setClock('2026-11-25T10:00:00+09:00');
    await client.login();
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('200');
  });
});

describe('a KR holiday declared for today while an order rests (control API)', () => {
  it('the order does not fill on a price that crosses it; cleared, the same cross fills it', async () => {
    const client = await clientOf({ start: '2026-11-23T10:00:00+09:00' });
    const prices = await client.get('/api/v1/prices', { symbols: '005930' });
    const limit = new Decimal(prices.body.result[0].lastPrice).times(0.97).div(100).floor().times(100);
    const placed = await client.post('/api/v1/orders', {
      ...krMarketBuy,
      orderType: 'LIMIT',
      price: limit.toFixed(),
    });
    expect(placed.status, placed.text).toBe(200);
    const status = async () =>
      (await client.get(`/api/v1/orders/${placed.body.result.orderId as string}`)).body.result.status;
    expect(await status()).toBe('PENDING');

    await client.control('POST', '/_sim/calendar', { holidays: [{ market: 'KR', date: '2026-11-23' }] });
    sim!.setPrice('005930', limit.times(0.95).div(100).floor().times(100).toFixed());
    sim!.advanceClock(10_000);
    expect(await status()).toBe('PENDING');

    sim!.control.clearCalendar();
    sim!.setPrice('005930', limit.times(0.95).div(100).floor().times(100).toFixed());
    sim!.advanceClock(10_000);
    expect(await status()).toBe('FILLED');
  });
});

describe('a KR early close declared while running (control API)', () => {
  it('ends the regular session at the declared close in the calendar and the order rules', async () => {
    // Wednesday 2026-11-25 13:30 KST: regular session by the built-in calendar
    const client = await clientOf({ start: '2026-11-25T13:30:00+09:00' });
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('200');

    const declared = await client.control('POST', '/_sim/calendar', {
      specialSessions: [{ market: 'KR', date: '2026-11-25', close: '13:00' }],
    });
    expect(declared).toEqual({
      holidays: [],
      specialSessions: [{ market: 'KR', date: '2026-11-25', open: '09:00', close: '13:00' }],
    });
    const day = (await calendar(client, 'KR', '2026-11-25')).today.integrated;
    const t = (hhmm: string) => `2026-11-25T${hhmm}:00.000+09:00`;
    expect(day.regularMarket).toEqual({
      startTime: t('09:00'),
      singlePriceAuctionStartTime: t('12:50'),
      endTime: t('13:00'),
    });
    expect(day.afterMarket).toEqual({
      startTime: t('13:00'),
      singlePriceAuctionEndTime: t('13:10'),
      endTime: t('20:00'),
    });
    // 13:30 is the after-market now: a MARKET order is refused, one before 13:00 is taken
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('422 order-type-not-allowed');
    sim!.setClock('2026-11-25T12:30:00+09:00');
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('200');

    // cleared, the day has its usual hours again
    expect(await client.control('DELETE', '/_sim/calendar')).toEqual({ cleared: true });
    expect(await client.control('GET', '/_sim/calendar')).toEqual({ holidays: [], specialSessions: [] });
    sim!.setClock('2026-11-25T13:30:00+09:00');
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('200');
  });

  it('a late opening moves the pre-market with it: a MARKET order at 09:30 is refused', async () => {
    const client = await clientOf({ start: '2026-11-25T09:30:00+09:00' });
    await client.control('POST', '/_sim/calendar', {
      specialSessions: [{ market: 'KR', date: '2026-11-25', open: '10:00' }],
    });
    const day = (await calendar(client, 'KR', '2026-11-25')).today.integrated;
    expect([day.preMarket.startTime, day.preMarket.endTime]).toEqual([
      '2026-11-25T09:00:00.000+09:00',
      '2026-11-25T10:00:00.000+09:00',
    ]);
    expect(day.regularMarket.endTime).toBe('2026-11-25T15:30:00.000+09:00');
    expect(outcome(await client.post('/api/v1/orders', krMarketBuy))).toBe('422 order-type-not-allowed');
  });
});

describe('US declarations', () => {
  it('an early close: regular to 13:00 New York, after-market to 17:00; a MARKET order at 14:00 is refused', async () => {
    // 14:00 New York on Tuesday 2026-11-24 (04:00 KST on the 25th)
    const client = await clientOf({
      start: '2026-11-24T14:00:00-05:00',
      calendar: { specialSessions: [{ market: 'US', date: '2026-11-24', close: '13:00' }] },
    });
    const today = (await calendar(client, 'US', '2026-11-24')).today;
    expect(today.regularMarket).toEqual({
      startTime: '2026-11-24T23:30:00.000+09:00',
      endTime: '2026-11-25T03:00:00.000+09:00',
    });
    expect(today.afterMarket).toEqual({
      startTime: '2026-11-25T03:00:00.000+09:00',
      endTime: '2026-11-25T07:00:00.000+09:00',
    });
    expect(outcome(await client.post('/api/v1/orders', usMarketBuy))).toBe('422 order-type-not-allowed');
    sim!.setClock('2026-11-24T12:30:00-05:00');
    expect(outcome(await client.post('/api/v1/orders', usMarketBuy))).toBe('200');
  });

  it('a holiday declared while running closes the US trading day (its day market included)', async () => {
    // 11:00 New York on Tuesday 2026-11-24: regular session
    const client = await clientOf({ start: '2026-11-24T11:00:00-05:00' });
    await client.control('POST', '/_sim/calendar', { holidays: [{ market: 'US', date: '2026-11-24' }] });
    const result = await calendar(client, 'US', '2026-11-24');
    expect(result.today).toEqual({
      date: '2026-11-24',
      dayMarket: null,
      preMarket: null,
      regularMarket: null,
      afterMarket: null,
    });
    expect(result.nextBusinessDay.date).toBe('2026-11-25');
    expect(outcome(await client.post('/api/v1/orders', usMarketBuy))).toBe('422 order-hours-closed');
  });
});

describe('invalid declarations', () => {
  it.each([
    [{ holidays: [{ market: 'JP', date: '2026-11-24' }] }, 'holidays.0.market'],
    [{ holidays: [{ market: 'KR', date: '2026-02-30' }] }, 'holidays.0.date'],
    [{ holidays: [{ market: 'KR', date: '2028-01-04' }] }, 'holidays.0.date'],
    [{ specialSessions: [{ market: 'KR', date: '2026-11-25' }] }, 'specialSessions.0'],
    [{ specialSessions: [{ market: 'KR', date: '2026-11-25', close: '25:00' }] }, 'specialSessions.0.close'],
    [{ specialSessions: [{ market: 'KR', date: '2026-11-25', open: '08:00' }] }, 'specialSessions.0.open'],
    [{ specialSessions: [{ market: 'US', date: '2026-11-25', close: '17:00' }] }, 'specialSessions.0.close'],
    [{ specialSessions: [{ market: 'KR', date: '2026-11-25', open: '15:20' }] }, 'specialSessions.0.close'],
    // a Saturday, a built-in holiday, a holiday declared with it
    [{ specialSessions: [{ market: 'KR', date: '2026-11-28', close: '13:00' }] }, 'specialSessions.0.date'],
    [{ specialSessions: [{ market: 'US', date: '2026-11-26', close: '13:00' }] }, 'specialSessions.0.date'],
    [
      {
        holidays: [{ market: 'KR', date: '2026-11-25' }],
        specialSessions: [{ market: 'KR', date: '2026-11-25', close: '13:00' }],
      },
      'specialSessions.0.date',
    ],
    // the unknown key itself (before: the declaration as a whole, `calendar`)
    [{ holidays: [], other: 1 }, 'other'],
  ])('POST /_sim/calendar %j: 400 invalid-request naming %s, nothing declared', async (body, field) => {
    const client = await clientOf({});
    const res = await client.request('POST', '/_sim/calendar', { auth: false, account: null, body });
    expect(outcome(res)).toBe('400 invalid-request');
    expect(res.body.error.data?.field ?? res.body.error.field).toBe(field);
    expect(await client.control('GET', '/_sim/calendar')).toEqual({ holidays: [], specialSessions: [] });
  });

  it('the start option throws invalid-simulator-option naming the field', async () => {
    const error = await startTestSimulator({
      calendar: { specialSessions: [{ market: 'US', date: '2026-11-25', open: '09:00' }] },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimulatorError);
    expect((error as SimulatorError).code).toBe('invalid-simulator-option');
    expect((error as SimulatorError).field).toBe('calendar.specialSessions.0.open');
  });
});
