/**
 * A DAY order the broker ends at the end of its trading day (KR 20:00 KST of its order date): the
 * wire says `CANCELED` (it has no `EXPIRED`), and the connector's order updates say `OrderExpired`,
 * as the engine's order manager, paper trading and backtests do. A cancel asked for is still
 * `OrderCanceled`.
 */
import { Decimal, newClientOrderId, type OrderEvent } from '@hoga/core';
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerStreams } from '../src/index.js';
import { type SimFixture, startFixture } from './simulator-fixture.js';

let fx: SimFixture;
let streams: BrokerStreams;
let sub: Subscription;
const events: OrderEvent[] = [];

beforeAll(async () => {
  // a KR trading day, 19:50 KST: orders are still taken, the day ends in ten minutes
  fx = await startFixture({ start: '2026-11-23T19:50:00.000+09:00', speed: 1, rateLimit: false });
  streams = new BrokerStreams(fx.client, { intervals: { orders: 100 } });
  sub = streams.orderUpdates$().subscribe((e) => events.push(e));
});
afterAll(async () => {
  sub?.unsubscribe();
  streams?.dispose();
  await fx.close();
});

async function until(predicate: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** A resting DAY limit buy of 035420 far under the market. */
async function restingBuy(): Promise<{ clientOrderId: string; orderId: string }> {
  const book = await fx.client.getOrderbook('035420');
  const clientOrderId = newClientOrderId('day');
  const created = await fx.client.createOrder({
    symbol: '035420',
    side: 'BUY',
    orderType: 'LIMIT',
    quantity: new Decimal(1),
    price: (book.bids.at(-1) ?? book.bids[0])!.price,
    timeInForce: 'DAY',
    clientOrderId,
  });
  await until(() => events.some((e) => e.type === 'OrderAccepted' && e.clientOrderId === clientOrderId));
  return { clientOrderId, orderId: created.orderId };
}

const typesOf = (clientOrderId: string) =>
  events.filter((e) => e.clientOrderId === clientOrderId).map((e) => e.type);

describe('orderUpdates$ at the end of the trading day', () => {
  it('says OrderCanceled for a cancel asked for during order hours', async () => {
    const order = await restingBuy();
    await fx.client.cancelOrder(order.orderId);
    await until(() => typesOf(order.clientOrderId).length >= 2);
    expect(typesOf(order.clientOrderId)).toEqual(['OrderAccepted', 'OrderCanceled']);
  });

  it('says OrderExpired, stamped 20:00 KST, for a DAY order the broker ended with its day', async () => {
    const order = await restingBuy();
    fx.sim.advanceClock(15 * 60_000);
    await until(() => typesOf(order.clientOrderId).length >= 2);
    expect(typesOf(order.clientOrderId)).toEqual(['OrderAccepted', 'OrderExpired']);
    const ended = events.find((e) => e.clientOrderId === order.clientOrderId && e.type === 'OrderExpired');
    expect(new Date(ended!.tsEvent).toISOString()).toBe('2026-11-23T11:00:00.000Z');
  });
});
