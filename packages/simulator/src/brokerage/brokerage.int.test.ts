import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KR_OPEN, outcome, startTestSimulator, TestClient, US_OPEN } from '../../test/sim-client.js';
import type { SimulatorHandle } from '../index.js';

let sim: SimulatorHandle;
let client: TestClient;

beforeEach(async () => {
  sim = await startTestSimulator();
  client = new TestClient(sim.url);
});

afterEach(async () => {
  await sim.close();
});

/** The day's lower price limit of a KR stock: a buy there rests. */
async function lowerLimit(symbol: string): Promise<string> {
  const res = await client.get('/api/v1/price-limits', { symbol });
  return res.body.result.lowerLimitPrice as string;
}

async function create(body: object): Promise<string> {
  const res = await client.post('/api/v1/orders', body);
  expect(outcome(res)).toBe('200');
  return res.body.result.orderId as string;
}

async function detail(orderId: string) {
  const res = await client.get(`/api/v1/orders/${orderId}`);
  expect(res.status).toBe(200);
  return res.body.result;
}

describe('Brokerage over HTTP', () => {
  it('serves accounts, holdings, buying power, sellable quantity and commissions', async () => {
    const accounts = await client.get('/api/v1/accounts', undefined, { account: null });
    expect(accounts.body.result).toContainEqual({
      accountNo: '12345678901',
      accountSeq: 1,
      accountType: 'BROKERAGE',
    });
    const holdings = await client.get('/api/v1/holdings');
    expect(holdings.body.result.items.map((i: { symbol: string }) => i.symbol)).toEqual([
      '005930',
      '000660',
      'AAPL',
      'NVDA',
    ]);
    expect(holdings.body.result.totalPurchaseAmount).toEqual({ krw: '10100000', usd: '2214.38' });
    expect((await client.get('/api/v1/buying-power', { currency: 'USD' })).body.result).toEqual({
      currency: 'USD',
      cashBuyingPower: '20000',
    });
    expect((await client.get('/api/v1/sellable-quantity', { symbol: 'NVDA' })).body.result).toEqual({
      sellableQuantity: '5.5',
    });
    expect((await client.get('/api/v1/commissions')).body.result[0]).toMatchObject({
      commissionRate: '0.00015',
    });
  });

  it.each([
    ['/api/v1/holdings', null, '400 account-header-required'],
    ['/api/v1/buying-power?currency=KRW', '9', '404 account-not-found'],
    ['/api/v1/buying-power?currency=JPY', '1', '400 invalid-request'],
    ['/api/v1/sellable-quantity?symbol=NOPE', '1', '404 stock-not-found'],
    ['/api/v1/orders?status=DONE', '1', '400 invalid-request'],
    ['/api/v1/orders/unknown-order', '1', '404 order-not-found'],
  ])('answers GET %s (account %s) with %s', async (path, account, expected) => {
    expect(outcome(await client.request('GET', path, { account }))).toBe(expected);
  });

  it('reports no tax (null) on a KR ETF holding, as on a US one: the reference says null when there is none', async () => {
    await create({ symbol: '069500', side: 'BUY', orderType: 'MARKET', quantity: '3' });
    const res = await client.get('/api/v1/holdings', { symbol: '069500' });
    expect(res.status).toBe(200);
    const [item] = res.body.result.items;
    expect(item).toMatchObject({ symbol: '069500', quantity: '3', cost: { tax: null } });
    // the value after cost is the amount less the commission alone
    const { amount, amountAfterCost } = item.marketValue;
    expect(new Decimal(amount).minus(amountAfterCost).toFixed()).toBe(item.cost.commission);
  });

  it('fills a market buy at once, moves cash, and lists it under CLOSED', async () => {
    const before = new Decimal(
      (await client.get('/api/v1/buying-power', { currency: 'KRW' })).body.result.cashBuyingPower,
    );
    const orderId = await create({ symbol: '005930', side: 'BUY', orderType: 'MARKET', quantity: '10' });
    const order = await detail(orderId);
    expect(order).toMatchObject({
      status: 'FILLED',
      price: null,
      currency: 'KRW',
      execution: { filledQuantity: '10' },
    });
    const after = new Decimal(
      (await client.get('/api/v1/buying-power', { currency: 'KRW' })).body.result.cashBuyingPower,
    );
    const paid = new Decimal(order.execution.filledAmount).plus(order.execution.commission);
    expect(before.minus(after).toFixed()).toBe(paid.toFixed());
    const closed = await client.get('/api/v1/orders', { status: 'CLOSED' });
    expect(closed.body.result.orders[0].orderId).toBe(orderId);
    expect(closed.body.result.orders[0]).not.toHaveProperty('clientOrderId');
  });

  it('replays a clientOrderId, conflicts on other content, and counts one order', async () => {
    const body = {
      symbol: '005930',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '1',
      price: await lowerLimit('005930'),
      clientOrderId: 'int-dup-1',
    };
    const first = await client.post('/api/v1/orders', body);
    const again = await client.post('/api/v1/orders', body);
    expect(again.body.result).toEqual(first.body.result);
    expect(outcome(await client.post('/api/v1/orders', { ...body, quantity: '2' }))).toBe(
      '422 idempotency-key-conflict',
    );
    const counters = await client.control('GET', '/_sim/counters');
    expect(counters).toMatchObject({ ordersCreated: 1, ordersPerClientOrderId: { 'int-dup-1': 1 } });
  });

  it('counts the modifies and cancels done, beside the orders created (refused ones not)', async () => {
    const low = new Decimal(await lowerLimit('005930'));
    const body = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1', price: low.toFixed() };
    const first = await create(body);
    const second = await create(body);
    const modified = await client.post(`/api/v1/orders/${first}/modify`, {
      orderType: 'LIMIT',
      price: low.plus(100).toFixed(),
      quantity: '1',
    });
    expect(outcome(modified)).toBe('200');
    expect(outcome(await client.post(`/api/v1/orders/${modified.body.result.orderId}/cancel`, {}))).toBe(
      '200',
    );
    expect(outcome(await client.post(`/api/v1/orders/${second}/cancel`, {}))).toBe('200');
    // refused: the order is closed already
    expect(outcome(await client.post(`/api/v1/orders/${second}/cancel`, {}))).toBe('409 already-canceled');
    const counters = await client.control('GET', '/_sim/counters');
    expect(counters).toMatchObject({ ordersCreated: 2, ordersModified: 1, ordersCanceled: 2 });
  });

  it('answers 409 request-in-progress while a slow first request is processing', async () => {
    sim.injectFault({ kind: 'slow-order', path: '/api/v1/orders', method: 'POST', count: 1, delayMs: 400 });
    const body = {
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '1',
      price: '100',
      clientOrderId: 'slow-1',
    };
    const slow = client.post('/api/v1/orders', body);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outcome(await client.post('/api/v1/orders', body))).toBe('409 request-in-progress');
    const first = await slow;
    expect(outcome(first)).toBe('200');
    expect((await client.post('/api/v1/orders', body)).body.result).toEqual(first.body.result);
    expect(sim.counters().ordersPerClientOrderId).toEqual({ 'slow-1': 1 });
  });

  it('modifies with a new id, then refuses a second modify of the original with 409 already-modified', async () => {
    const low = new Decimal(await lowerLimit('005930'));
    const original = await create({
      symbol: '005930',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '5',
      price: low.toFixed(),
    });
    const modify = { orderType: 'LIMIT', price: low.plus(100).toFixed(), quantity: '5' };
    const res = await client.post(`/api/v1/orders/${original}/modify`, modify);
    expect(outcome(res)).toBe('200');
    expect(res.body.result.orderId).not.toBe(original);
    expect((await detail(original)).status).toBe('REPLACED');
    expect(await detail(res.body.result.orderId)).toMatchObject({ status: 'PENDING', price: modify.price });
    expect(outcome(await client.post(`/api/v1/orders/${original}/modify`, modify))).toBe(
      '409 already-modified',
    );
    expect(outcome(await client.post(`/api/v1/orders/${original}/cancel`))).toBe('409 already-modified');
  });

  it('refuses a KR price off the tick grid with the valid ticks in data', async () => {
    const res = await client.post('/api/v1/orders', {
      symbol: '005930',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '1',
      price: new Decimal(await lowerLimit('005930')).plus(1).toFixed(),
    });
    expect(outcome(res)).toBe('400 invalid-request');
    expect(res.body.error.data).toMatchObject({
      field: 'price',
      tickSize: expect.any(String),
      lowerTick: expect.any(String),
    });
  });

  it('fills a partly filled order over time, and a cancel after a partial fill keeps the filled quantity', async () => {
    const book = (await client.get('/api/v1/orderbook', { symbol: '069500' })).body.result;
    const best = book.asks[0] as { price: string; volume: string };
    const quantity = new Decimal(best.volume).plus(3);
    const orderId = await create({
      symbol: '069500',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: quantity.toFixed(),
      price: best.price,
    });
    const partial = await detail(orderId);
    expect(partial.status).toBe('PARTIAL_FILLED');
    expect(partial.execution.filledQuantity).toBe(best.volume);
    const cancel = await client.post(`/api/v1/orders/${orderId}/cancel`, {});
    expect(outcome(cancel)).toBe('200');
    expect(await detail(cancel.body.result.orderId)).toMatchObject({ status: 'CANCELED', quantity: '3' });
    const closed = (await client.get('/api/v1/orders', { status: 'CLOSED' })).body.result.orders;
    expect(closed.find((o: { orderId: string }) => o.orderId === orderId)).toMatchObject({
      status: 'CANCELED',
      execution: { filledQuantity: best.volume },
    });
    expect((await client.get('/api/v1/orders', { status: 'OPEN' })).body.result.orders).toEqual([]);
  });

  it('fills a resting limit once the simulated price crosses it as the clock moves', async () => {
    sim.setClock(US_OPEN);
    const last = new Decimal(
      (await client.get('/api/v1/prices', { symbols: 'AAPL' })).body.result[0].lastPrice,
    );
    const limit = last.times('0.95').toDecimalPlaces(2);
    const orderId = await create({
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '2',
      price: limit.toFixed(),
    });
    expect((await detail(orderId)).status).toBe('PENDING');
    sim.setPrice('AAPL', limit.minus(1).toFixed());
    sim.advanceClock(10_000);
    const filled = await detail(orderId);
    expect(filled.status).toBe('FILLED');
    expect(new Decimal(filled.execution.averageFilledPrice).lte(limit)).toBe(true);
    const holdings = await client.get('/api/v1/holdings', { symbol: 'AAPL' });
    expect(holdings.body.result.items[0].quantity).toBe('12');
  });

  it('replays the committed order when a dropped answer is retried with the same clientOrderId', async () => {
    sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'POST', count: 1 });
    const body = {
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '1',
      price: '100',
      clientOrderId: 'drop-1',
    };
    await expect(client.post('/api/v1/orders', body)).rejects.toThrow();
    const retry = await client.post('/api/v1/orders', body);
    expect(outcome(retry)).toBe('200');
    expect(sim.counters()).toMatchObject({ ordersCreated: 1, ordersPerClientOrderId: { 'drop-1': 1 } });
    const open = (await client.get('/api/v1/orders', { status: 'OPEN' })).body.result.orders;
    expect(open.map((o: { orderId: string }) => o.orderId)).toEqual([retry.body.result.orderId]);
  });

  it('keeps orders created under hide-new-orders out of the lists for a while, but not out of detail', async () => {
    sim.injectFault({
      kind: 'hide-new-orders',
      path: '/api/v1/orders',
      method: 'POST',
      count: 1,
      durationMs: 30_000,
    });
    const orderId = await create({
      symbol: 'AAPL',
      side: 'BUY',
      orderType: 'LIMIT',
      quantity: '1',
      price: '100',
    });
    expect((await client.get('/api/v1/orders', { status: 'OPEN' })).body.result.orders).toEqual([]);
    expect((await detail(orderId)).status).toBe('PENDING');
    sim.advanceClock(30_000);
    const open = (await client.get('/api/v1/orders', { status: 'OPEN' })).body.result.orders;
    expect(open.map((o: { orderId: string }) => o.orderId)).toEqual([orderId]);
  });

  it('answers 422 order-hours-closed on a Sunday', async () => {
    sim.setClock('2026-11-22T11:00:00+09:00');
    const res = await client.post('/api/v1/orders', {
      symbol: '005930',
      side: 'BUY',
      orderType: 'MARKET',
      quantity: '1',
    });
    expect(outcome(res)).toBe('422 order-hours-closed');
  });
});

describe('Brokerage over HTTP with --state', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hoga-sim-state-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps accounts and orders across a restart', async () => {
    const statePath = join(dir, 'state.json');
    const first = await startTestSimulator({ statePath, start: KR_OPEN });
    const a = new TestClient(first.url);
    const res = await a.post('/api/v1/orders', {
      symbol: '000660',
      side: 'SELL',
      orderType: 'MARKET',
      quantity: '4',
    });
    const orderId = res.body.result.orderId as string;
    const order = (await a.get(`/api/v1/orders/${orderId}`)).body.result;
    await first.close();

    const second = await startTestSimulator({ statePath, start: KR_OPEN });
    try {
      const b = new TestClient(second.url);
      expect((await b.get(`/api/v1/orders/${orderId}`)).body.result).toEqual(order);
      expect((await b.get('/api/v1/sellable-quantity', { symbol: '000660' })).body.result).toEqual({
        sellableQuantity: '16',
      });
    } finally {
      await second.close();
    }
  });
});
