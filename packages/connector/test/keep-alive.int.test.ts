/**
 * Keep-alive connections that the server closes: a real broker closes idle connections, and a
 * request written to one as it closes is reset. Reads and keyed creates are sent again at once on
 * a new connection; an unkeyed create is not (it may have reached the broker); modify and cancel
 * read the order before sending again. A socket idle past the client's limit is not reused even
 * when the event loop was blocked and its idle timer could not run.
 */
import { BrokerOrderStatus, Decimal, newClientOrderId } from '@hoga/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrokerClient, NetworkError } from '../src/index.js';
import { type IdleClosingProxy, startIdleClosingProxy } from './idle-closing-proxy.js';
import { type SimFixture, startFixture } from './simulator-fixture.js';

let fx: SimFixture;
let proxy: IdleClosingProxy;
const clients: BrokerClient[] = [];

beforeAll(async () => {
  fx = await startFixture({ rateLimit: false });
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await proxy?.close();
});
afterAll(async () => {
  await fx.close();
});

/** A client talking to the simulator through a fresh proxy that resets idle connections. */
async function clientBehindProxy(config: Record<string, unknown> = {}): Promise<BrokerClient> {
  proxy = await startIdleClosingProxy(fx.sim.url);
  const client = new BrokerClient({
    clock: fx.clock,
    config: {
      baseUrl: proxy.url,
      clientId: 'sim-client',
      clientSecret: 'sim-secret',
      accountSeq: 1,
      backoffBaseMs: 20,
      backoffMaxMs: 100,
      ...config,
    },
  });
  clients.push(client);
  // Token, account and one read: the client now holds an idle keep-alive connection.
  await client.getOrderbook('005930');
  return client;
}

/**
 * A short idle pause (the last answer's socket goes back to the pool), then the proxy is armed:
 * the next request on that connection meets the server closing it.
 */
async function idleGap(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  proxy.armReset();
}

/** Busy-waits `ms`: the event loop is blocked, so no timer (the idle socket's) can run. */
function stall(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // blocked on purpose
  }
}

async function openOrdersOf(client: BrokerClient): Promise<readonly string[]> {
  const list = await client.listOrders({ status: 'OPEN', symbol: '000660' });
  return list.orders.map((o) => o.orderId);
}

/**
 * A limit buy of one 000660 at its lowest bid (it rests), priced through `client` (each client
 * here issues its own token, which revokes the others': one client per test keeps it valid).
 */
async function restingBuy(client: BrokerClient, clientOrderId?: string) {
  const book = await client.getOrderbook('000660');
  return {
    symbol: '000660',
    side: 'BUY' as const,
    orderType: 'LIMIT' as const,
    quantity: new Decimal(1),
    price: book.bids[book.bids.length - 1]!.price,
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
  };
}

describe('a keep-alive connection the server closes as a request is written', () => {
  it('sends a read again at once on a new connection, not as a failed retry', async () => {
    const client = await clientBehindProxy({ maxRetries: 0 });
    await idleGap();
    const book = await client.getOrderbook('005930');
    expect(book.bids.length).toBeGreaterThan(0);
    expect(proxy.dropped).toBe(1);
    expect(client.executor.stats).toMatchObject({ staleResends: 1, retries: 0 });
  });

  it('sends a keyed create again, and the broker holds one order', async () => {
    const client = await clientBehindProxy({ maxRetries: 0 });
    const before = await openOrdersOf(client);
    const request = await restingBuy(client, newClientOrderId('ka'));
    await idleGap();
    const created = await client.createOrder(request);
    expect(proxy.dropped).toBe(1);
    const after = await openOrdersOf(client);
    expect(after.filter((id) => !before.includes(id))).toEqual([created.orderId]);
    await client.cancelOrder(created.orderId);
  });

  it('does not send an unkeyed create again: it fails with a stale-connection NetworkError', async () => {
    const client = await clientBehindProxy();
    const before = await openOrdersOf(client);
    const request = await restingBuy(client);
    await idleGap();
    const error = await client.createOrder(request).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ staleConnection: true, code: 'network-connection' });
    expect((error as Error).message).toContain('closed the reused keep-alive connection');
    expect(proxy.dropped).toBe(1);
    expect(client.executor.stats.staleResends).toBe(0);
    // The proxy never passed it on: no order was made, and none was sent a second time.
    expect(await openOrdersOf(client)).toEqual(before);
  });

  it('cancels once: the order is read, found open, and the cancel sent again', async () => {
    const client = await clientBehindProxy();
    const created = await client.createOrder(await restingBuy(client));
    await idleGap();
    const outcome = await client.cancelOrder(created.orderId);
    expect(proxy.dropped).toBe(1);
    expect(outcome.kind).toBe('acknowledged');
    const order = await client.getOrder(created.orderId);
    expect([BrokerOrderStatus.PENDING_CANCEL, BrokerOrderStatus.CANCELED]).toContain(order.status);
  });
});

describe('a blocked event loop', () => {
  it('does not reuse a socket idle past idleSocketMs by the wall clock, though its timer could not run', async () => {
    // The client retires idle sockets after 300 ms; the proxy resets the next reused one.
    const client = await clientBehindProxy({ idleSocketMs: 300 });
    const request = await restingBuy(client);
    // Let the socket go back to the pool, then block past the client's idle limit.
    await idleGap();
    stall(900);
    const created = await client.createOrder(request);
    expect(proxy.dropped).toBe(0);
    expect(client.executor.stats.staleResends).toBe(0);
    await client.cancelOrder(created.orderId);
  });
});
