import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from '../market/sim-market.js';
import { Brokerage } from './brokerage.js';

const clock0 = new VirtualClock('2026-11-23T10:00:00+09:00');
/** A resting buy: at the day's lower price limit, far below the market. */
const body = {
  symbol: '005930',
  side: 'BUY',
  orderType: 'LIMIT',
  quantity: '1',
  price: new SimMarket({ seed: 7, clock: clock0 }).priceLimits('005930', clock0.now())!.lower.toFixed(),
  clientOrderId: 'dup-1',
};

function setup() {
  const clock = new VirtualClock(clock0.now());
  const brokerage = new Brokerage({ market: new SimMarket({ seed: 7, clock }), clock, seed: 7 });
  return { clock, brokerage };
}

async function failure(promise: Promise<unknown>): Promise<SimApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SimApiError)) throw new Error(`expected a SimApiError, got ${String(error)}`);
  return error;
}

function openCount(brokerage: Brokerage): number {
  return (brokerage.listOrders(1, new URLSearchParams('status=OPEN')) as { orders: unknown[] }).orders.length;
}

describe('Brokerage', () => {
  describe('.createOrder with clientOrderId', () => {
    it('replays the first result and creates nothing when the same content comes again within 10 minutes', async () => {
      const { clock, brokerage } = setup();
      const first = await brokerage.createOrder(1, body);
      clock.advance(9 * 60_000 + 59_000);
      const second = await brokerage.createOrder(1, { ...body });
      expect(second).toEqual(first);
      expect(second).toMatchObject({ clientOrderId: 'dup-1' });
      expect(openCount(brokerage)).toBe(1);
      expect(brokerage.counters().ordersPerClientOrderId).toEqual({ 'dup-1': 1 });
    });

    it('answers 422 idempotency-key-conflict for other content under the same id', async () => {
      const { brokerage } = setup();
      await brokerage.createOrder(1, body);
      const error = await failure(brokerage.createOrder(1, { ...body, quantity: '2' }));
      expect([error.status, error.code]).toEqual([422, 'idempotency-key-conflict']);
      expect(openCount(brokerage)).toBe(1);
    });

    it('answers 409 request-in-progress while the first request is still processing', async () => {
      const { brokerage } = setup();
      const slow = brokerage.createOrder(1, body, { processingDelayMs: 150 });
      const error = await failure(brokerage.createOrder(1, body));
      expect([error.status, error.code]).toEqual([409, 'request-in-progress']);
      const first = await slow;
      expect(await brokerage.createOrder(1, body)).toEqual(first);
      expect(brokerage.counters().ordersCreated).toBe(1);
    });

    it('creates a new order with the same id after the 10-minute window', async () => {
      const { clock, brokerage } = setup();
      const first = (await brokerage.createOrder(1, body)) as { orderId: string };
      clock.advance(10 * 60_000);
      const second = (await brokerage.createOrder(1, body)) as { orderId: string };
      expect(second.orderId).not.toBe(first.orderId);
      expect(brokerage.counters().ordersPerClientOrderId).toEqual({ 'dup-1': 2 });
    });

    it('forgets a request that failed its business rules, so that a retry is judged afresh', async () => {
      const { brokerage } = setup();
      const tooBig = { ...body, quantity: '1000' };
      expect((await failure(brokerage.createOrder(2, tooBig))).code).toBe('insufficient-buying-power');
      expect((await failure(brokerage.createOrder(2, tooBig))).code).toBe('insufficient-buying-power');
      expect(brokerage.counters().ordersCreated).toBe(0);
    });

    it('keeps windows apart per account', async () => {
      const { brokerage } = setup();
      const a = (await brokerage.createOrder(1, body)) as { orderId: string };
      const b = (await brokerage.createOrder(2, body)) as { orderId: string };
      expect(a.orderId).not.toBe(b.orderId);
    });
  });
});
