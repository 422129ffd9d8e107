import { Decimal, newClientOrderId, type OrderEvent } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrokerClient, BrokerStreams, externalClientOrderId, MemoryTokenCache } from '../src/index.js';
import { type SimFixture, startFixture } from './simulator-fixture.js';

/** A KR stock cheap enough to buy a whole ask level with the test account's cash. */
const SYMBOL = '035720';

let fx: SimFixture;
let tokenCache: MemoryTokenCache;
let pollErrors: unknown[];

beforeEach(async () => {
  tokenCache = new MemoryTokenCache();
  fx = await startFixture({ speed: 1 }, { tokenCache });
  pollErrors = [];
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fx.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `predicate` holds for the events collected so far. */
async function until(events: OrderEvent[], predicate: (events: OrderEvent[]) => boolean, ms = 8000) {
  const deadline = Date.now() + ms;
  while (!predicate(events) && Date.now() < deadline) await sleep(25);
}

/** The broker order id an event is about, when it names one. */
function brokerIdOf(event: OrderEvent): string | null {
  if (event.type === 'OrderPartiallyFilled' || event.type === 'OrderFilled') return event.fill.brokerOrderId;
  return 'brokerOrderId' in event ? event.brokerOrderId : null;
}

/** Counts OPEN lists (read by the stream) that showed an order not listed before, while `pending()`. */
function watchOpenLists(pending: () => boolean): { before: Set<string>; early: number } {
  const watch = { before: new Set<string>(), early: 0 };
  const list = fx.client.listOrders.bind(fx.client);
  vi.spyOn(fx.client, 'listOrders').mockImplementation(async (query, options) => {
    const result = await list(query, options);
    if (pending() && result.orders.some((o) => !watch.before.has(o.orderId))) watch.early++;
    return result;
  });
  return watch;
}

describe('BrokerStreams', () => {
  describe('.orderUpdates$', () => {
    it("keeps the caller's clientOrderId for an order listed OPEN before its create answered, each fill once", async () => {
      // A frozen market: the book read below is the one the order meets.
      fx.sim.setSpeed(0);
      const streams = new BrokerStreams(fx.client, {
        intervals: { orders: 100 },
        onError: (e) => pollErrors.push(e),
      });
      const events: OrderEvent[] = [];
      const sub = streams.orderUpdates$().subscribe((e) => events.push(e));
      let answered = false;
      const watch = watchOpenLists(() => !answered);
      for (const o of (await fx.client.listOrders({ status: 'OPEN' })).orders) watch.before.add(o.orderId);
      await sleep(300);

      // The first create is committed (and partly filled), then its answer is lost; the keyed
      // retry is held back, so the stream lists the order for a while before the create returns.
      fx.sim.injectFault({ kind: 'delay', path: '/api/v1/orders', method: 'POST', count: 2, delayMs: 600 });
      fx.sim.injectFault({ kind: 'drop-after-commit', path: '/api/v1/orders', method: 'POST', count: 1 });
      const ask = (await fx.client.getOrderbook(SYMBOL)).asks[0]!;
      const rest = new Decimal(3);
      const quantity = ask.volume.plus(rest);
      const clientOrderId = newClientOrderId('race');
      const created = await fx.client.createOrder({
        symbol: SYMBOL,
        side: 'BUY',
        orderType: 'LIMIT',
        quantity,
        price: ask.price,
        clientOrderId,
      });
      answered = true;
      expect(watch.early).toBeGreaterThan(0);
      expect(fx.sim.counters().ordersPerClientOrderId).toEqual({ [clientOrderId]: 1 });

      await until(events, (es) => es.some((e) => e.type === 'OrderPartiallyFilled'));
      // Let the market fall through the limit: the rest fills on a later poll.
      fx.sim.setPrice(SYMBOL, ask.price.times(0.97));
      fx.sim.setSpeed(1);
      await until(events, (es) => es.some((e) => e.type === 'OrderFilled'));
      sub.unsubscribe();

      const mine = events.filter((e) => brokerIdOf(e) === created.orderId);
      expect(mine.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderPartiallyFilled', 'OrderFilled']);
      expect(events.filter((e) => e.clientOrderId !== clientOrderId)).toEqual([]);
      const fills = mine.flatMap((e) =>
        e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' ? [e.fill] : [],
      );
      expect(fills.map((f) => f.quantity.toFixed())).toEqual([ask.volume.toFixed(), rest.toFixed()]);
      expect(new Set(fills.map((f) => f.fillId)).size).toBe(fills.length);
      const detail = await fx.client.getOrder(created.orderId);
      expect(detail.execution.filledQuantity.eq(quantity)).toBe(true);
      expect(pollErrors).toEqual([]);
    }, 20_000);

    it('lets a create that does not answer hold an order placed elsewhere no longer than orderHoldMs', async () => {
      const streams = new BrokerStreams(fx.client, {
        intervals: { orders: 100 },
        orderHoldMs: 400,
        onError: (e) => pollErrors.push(e),
      });
      const events: OrderEvent[] = [];
      const sub = streams.orderUpdates$().subscribe((e) => events.push(e));
      await sleep(300);
      const bid = (await fx.client.getOrderbook(SYMBOL)).bids.at(-1)!.price;
      const resting = {
        symbol: SYMBOL,
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: new Decimal(1),
        price: bid,
      } as const;

      // Our create waits 2.5 s in the broker before it is even handled.
      fx.sim.injectFault({ kind: 'delay', path: '/api/v1/orders', method: 'POST', count: 1, delayMs: 2500 });
      const mine = newClientOrderId('slow');
      const slow = fx.client.createOrder({ ...resting, clientOrderId: mine });
      while (fx.sim.counters().faultsFired === 0) await sleep(10);
      const [inFlight] = fx.client.orderCommandsInFlight();
      expect({ type: inFlight?.type, clientOrderId: inFlight?.clientOrderId }).toEqual({
        type: 'create',
        clientOrderId: mine,
      });

      // Meanwhile another engine (another client of the account) places an order.
      const accountSeq = await fx.client.accountSeq();
      const other = new BrokerClient({
        config: { ...fx.client.config, accountSeq },
        clock: fx.clock,
        tokenCache,
      });
      const elsewhere = await other.createOrder(resting);
      other.close();
      const accepted = (es: OrderEvent[], id: string) =>
        es.find((e) => e.type === 'OrderAccepted' && e.brokerOrderId === id);
      await until(events, (es) => accepted(es, elsewhere.orderId) !== undefined);
      expect(fx.client.orderCommandsInFlight()).toHaveLength(1);
      expect(accepted(events, elsewhere.orderId)?.clientOrderId).toBe(
        externalClientOrderId(elsewhere.orderId),
      );

      const created = await slow;
      expect(fx.client.orderCommandsInFlight()).toEqual([]);
      expect(await inFlight!.orderId).toBe(created.orderId);
      await until(events, (es) => accepted(es, created.orderId) !== undefined);
      sub.unsubscribe();
      expect(accepted(events, created.orderId)?.clientOrderId).toBe(mine);
      expect(events.map((e) => e.type)).toEqual(['OrderAccepted', 'OrderAccepted']);
      expect(pollErrors).toEqual([]);
    }, 20_000);
  });
});
