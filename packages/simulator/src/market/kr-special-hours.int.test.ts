/**
 * The KRX's special hours of 2026 and 2027, over HTTP: the first trading day of the year opens an
 * hour late (regular session 10:00–15:30 KST), and the college entrance exam (CSAT) day opens and
 * closes an hour late (10:00–16:30); the integrated pre-market moves with the opening (09:00–10:00)
 * and the after-market starts at the close. Before, the simulator answered those days with the
 * hours of any other day (regular 09:00–15:30), and took a MARKET order at 09:30 on them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, outcome, startTestSimulator, TestClient } from '../../test/sim-client.js';
import type { SimulatorHandle } from '../index.js';

let sim: SimulatorHandle;
let client: TestClient;

beforeAll(async () => {
  sim = await startTestSimulator({ start: '2026-11-19T09:30:00+09:00' });
  client = new TestClient(sim.url);
  await client.login();
});

afterAll(async () => {
  await sim.close();
});

async function krDay(date: string): Promise<Json> {
  const res = await client.get('/api/v1/market-calendar/KR', { date });
  expect(res.status, res.text).toBe(200);
  return res.body.result.today;
}

const span = (s: Json): string[] => [s.startTime, s.endTime];

describe('KR special hours', () => {
  it.each([
    ['the first trading day of 2026', '2026-01-02', '15:30'],
    ['the CSAT day of 2026', '2026-11-19', '16:30'],
    ['the first trading day of 2027', '2027-01-04', '15:30'],
    ['the CSAT day of 2027', '2027-11-18', '16:30'],
  ])('the calendar of %s (%s) opens at 10:00 and closes at %s KST', async (_label, date, close) => {
    const day = await krDay(date);
    const t = (hhmm: string) => `${date}T${hhmm}:00.000+09:00`;
    expect(span(day.integrated.preMarket)).toEqual([t('09:00'), t('10:00')]);
    expect(day.integrated.preMarket.singlePriceAuctionStartTime).toBe(t('09:50'));
    expect(span(day.integrated.regularMarket)).toEqual([t('10:00'), t(close)]);
    const [h, m] = close.split(':').map(Number) as [number, number];
    const auction = `${String(h).padStart(2, '0')}:${String(m - 10).padStart(2, '0')}`;
    expect(day.integrated.regularMarket.singlePriceAuctionStartTime).toBe(t(auction));
    expect(span(day.integrated.afterMarket)).toEqual([t(close), t('20:00')]);
  });

  it('keeps the usual hours on other days (the day before the CSAT)', async () => {
    const day = await krDay('2026-11-18');
    expect(span(day.integrated.regularMarket)).toEqual([
      '2026-11-18T09:00:00.000+09:00',
      '2026-11-18T15:30:00.000+09:00',
    ]);
  });

  it('refuses a MARKET order at 09:30 of the CSAT day (pre-market) and takes one at 16:00 (regular)', async () => {
    const market = { symbol: '005930', side: 'BUY', orderType: 'MARKET', quantity: '1' };
    expect(outcome(await client.post('/api/v1/orders', market))).toBe('422 order-type-not-allowed');
    sim.setClock('2026-11-19T16:00:00+09:00');
    expect(outcome(await client.post('/api/v1/orders', market))).toBe('200');
  });
});
