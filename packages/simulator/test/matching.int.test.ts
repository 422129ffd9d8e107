import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimulatorHandle } from '../src/index.js';
import { type Json, KR_OPEN, outcome, startTestSimulator, TestClient, US_OPEN } from './sim-client.js';

const running: SimulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function setup(start: string): Promise<{ sim: SimulatorHandle; client: TestClient }> {
  const sim = await startTestSimulator({ start });
  running.push(sim);
  return { sim, client: new TestClient(sim.url) };
}

async function asks(client: TestClient, symbol: string): Promise<{ price: Decimal; volume: Decimal }[]> {
  const res = await client.get('/api/v1/orderbook', { symbol });
  return res.body.result.asks
    .map((l: Json) => ({ price: new Decimal(l.price), volume: new Decimal(l.volume) }))
    .sort((a: { price: Decimal }, b: { price: Decimal }) => a.price.comparedTo(b.price));
}

async function detail(client: TestClient, orderId: string): Promise<Json> {
  const res = await client.get(`/api/v1/orders/${orderId}`);
  expect(outcome(res)).toBe('200');
  return res.body.result;
}

async function cash(client: TestClient, currency: string): Promise<Decimal> {
  const res = await client.get('/api/v1/buying-power', { currency });
  return new Decimal(res.body.result.cashBuyingPower);
}

describe('matching', () => {
  describe('market orders', () => {
    it('walk the book at once, at the volume-weighted price of the levels they take', async () => {
      const { client } = await setup(US_OPEN);
      const [l0, l1] = await asks(client, 'ZOM');
      if (l0 === undefined || l1 === undefined) throw new Error('ZOM book has fewer than two ask levels');
      const quantity = l0.volume.plus(l1.volume);
      const before = await cash(client, 'USD');
      const res = await client.post('/api/v1/orders', {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: quantity.toFixed(),
      });
      expect(outcome(res)).toBe('200');
      const order = await detail(client, res.body.result.orderId);
      expect(order.status).toBe('FILLED');
      expect(order.execution.filledQuantity).toBe(quantity.toFixed());
      const amount = l0.price.times(l0.volume).plus(l1.price.times(l1.volume));
      expect(
        new Decimal(order.execution.averageFilledPrice).minus(amount.div(quantity)).abs().lte('0.0001'),
      ).toBe(true);
      const commission = new Decimal(order.execution.commission);
      expect(commission.gt(0)).toBe(true);
      const after = await cash(client, 'USD');
      expect(
        before
          .minus(after)
          .minus(new Decimal(order.execution.filledAmount))
          .minus(commission)
          .abs()
          .lte('0.01'),
      ).toBe(true);
      const holdings = await client.get('/api/v1/holdings', { symbol: 'ZOM' });
      expect(holdings.body.result.items[0]).toMatchObject({ symbol: 'ZOM', quantity: quantity.toFixed() });
    });

    it('fill partially when the book is too thin, then fill the rest over time', async () => {
      const { sim, client } = await setup(US_OPEN);
      const book = await asks(client, 'ZOM');
      const visible = book.reduce((sum, l) => sum.plus(l.volume), new Decimal(0));
      const quantity = visible.plus(500);
      const res = await client.post('/api/v1/orders', {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: quantity.toFixed(),
      });
      const id = res.body.result.orderId as string;
      const first = await detail(client, id);
      expect(first.status).toBe('PARTIAL_FILLED');
      expect(first.execution.filledQuantity).toBe(visible.toFixed());
      const open = await client.get('/api/v1/orders', { status: 'OPEN' });
      expect(open.body.result.orders.map((o: Json) => o.orderId)).toContain(id);
      sim.advanceClock(60_000);
      const later = await detail(client, id);
      expect(later.status).toBe('FILLED');
      expect(later.execution.filledQuantity).toBe(quantity.toFixed());
    });
  });

  describe('cancel after a partial fill', () => {
    it('closes the order as CANCELED with its filled quantity kept', async () => {
      const { client } = await setup(US_OPEN);
      const [l0] = await asks(client, 'ZOM');
      if (l0 === undefined) throw new Error('ZOM book is empty');
      const quantity = l0.volume.plus(1_000);
      const res = await client.post('/api/v1/orders', {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'LIMIT',
        price: l0.price.toFixed(),
        quantity: quantity.toFixed(),
      });
      const id = res.body.result.orderId as string;
      expect((await detail(client, id)).status).toBe('PARTIAL_FILLED');
      const cancel = await client.post(`/api/v1/orders/${id}/cancel`);
      expect(outcome(cancel)).toBe('200');
      const order = await detail(client, id);
      expect(order.status).toBe('CANCELED');
      expect(order.execution.filledQuantity).toBe(l0.volume.toFixed());
      expect(order.canceledAt).toEqual(expect.any(String));
      const open = await client.get('/api/v1/orders', { status: 'OPEN' });
      expect(open.body.result.orders.map((o: Json) => o.orderId)).not.toContain(id);
      const closed = await client.get('/api/v1/orders', { status: 'CLOSED' });
      const row = closed.body.result.orders.find((o: Json) => o.orderId === id);
      expect(row.execution.filledQuantity).toBe(l0.volume.toFixed());
      const holdings = await client.get('/api/v1/holdings', { symbol: 'ZOM' });
      expect(holdings.body.result.items[0].quantity).toBe(l0.volume.toFixed());
    });
  });

  describe('book liquidity', () => {
    it('is taken once: a limit placed right after a market order at the same instant gets none of the levels the market order took', async () => {
      const { client } = await setup(US_OPEN);
      const [l0, l1] = await asks(client, 'ZOM');
      if (l0 === undefined || l1 === undefined) throw new Error('ZOM book has fewer than two ask levels');
      const market = await client.post('/api/v1/orders', {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: l0.volume.plus(l1.volume).toFixed(),
      });
      expect((await detail(client, market.body.result.orderId)).status).toBe('FILLED');
      const limit = await client.post('/api/v1/orders', {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'LIMIT',
        price: l1.price.toFixed(),
        quantity: '1000',
      });
      expect(outcome(limit)).toBe('200');
      const order = await detail(client, limit.body.result.orderId);
      expect(order.status).toBe('PENDING');
      expect(order.execution.filledQuantity).toBe('0');
      const holdings = await client.get('/api/v1/holdings', { symbol: 'ZOM' });
      expect(holdings.body.result.items[0].quantity).toBe(l0.volume.plus(l1.volume).toFixed());
    });

    it('is not refilled by matching runs within one simulated second: a resting marketable limit fills a level once per book', async () => {
      const { sim, client } = await setup(US_OPEN);
      const [l0] = await asks(client, 'ZOM');
      if (l0 === undefined) throw new Error('ZOM book is empty');
      const res = await client.post('/api/v1/orders', {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'LIMIT',
        price: l0.price.toFixed(),
        quantity: l0.volume.times(10).toFixed(),
      });
      const id = res.body.result.orderId as string;
      expect((await detail(client, id)).execution.filledQuantity).toBe(l0.volume.toFixed());
      // five matching runs 100 ms apart, all in the book's second (it is redrawn every second)
      for (let i = 0; i < 5; i += 1) {
        sim.advanceClock(100);
        await client.get('/api/v1/orders', { status: 'OPEN' });
      }
      const [again] = await asks(client, 'ZOM');
      expect(again).toEqual(l0);
      expect((await detail(client, id)).execution.filledQuantity).toBe(l0.volume.toFixed());
    });
  });

  describe('resting limit orders', () => {
    it('fill once the market price crosses them, never above their limit', async () => {
      const { sim, client } = await setup(KR_OPEN);
      const prices = await client.get('/api/v1/prices', { symbols: '005930' });
      const last = new Decimal(prices.body.result[0].lastPrice);
      const limit = last.times(0.97).div(100).floor().times(100);
      const res = await client.post('/api/v1/orders', {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        price: limit.toFixed(),
        quantity: '3',
      });
      const id = res.body.result.orderId as string;
      sim.advanceClock(5_000);
      expect((await detail(client, id)).status).toBe('PENDING');
      sim.setPrice('005930', limit.times(0.95).div(100).floor().times(100).toFixed());
      sim.advanceClock(10_000);
      const order = await detail(client, id);
      expect(order.status).toBe('FILLED');
      expect(order.execution.filledQuantity).toBe('3');
      expect(new Decimal(order.execution.averageFilledPrice).lte(limit)).toBe(true);
      const sellable = await client.get('/api/v1/sellable-quantity', { symbol: '005930' });
      expect(sellable.body.result.sellableQuantity).toBe('103');
    });
  });
});
