import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from '../market/sim-market.js';
import { Brokerage } from './brokerage.js';

const KR_MORNING = '2026-11-23T10:00:00+09:00';

interface Page {
  orders: { orderId: string; status: string; orderedAt: string }[];
  nextCursor: string | null;
  hasNext: boolean;
}

async function withClosedOrders(count: number) {
  const clock = new VirtualClock(KR_MORNING);
  const brokerage = new Brokerage({ market: new SimMarket({ seed: 7, clock }), clock, seed: 7 });
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { orderId } = (await brokerage.createOrder(1, {
      symbol: '005930',
      side: 'BUY',
      orderType: 'MARKET',
      quantity: '1',
    })) as { orderId: string };
    ids.push(orderId);
    clock.advance(1_000);
  }
  return { clock, brokerage, ids };
}

function list(brokerage: Brokerage, query: string): Page {
  return brokerage.listOrders(1, new URLSearchParams(query)) as Page;
}

function rejection(run: () => unknown): SimApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof SimApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('OrderStore', () => {
  describe('.list', () => {
    it('pages CLOSED orders newest first with an opaque cursor until hasNext is false', async () => {
      const { brokerage, ids } = await withClosedOrders(25);
      const first = list(brokerage, 'status=CLOSED');
      expect(first.orders).toHaveLength(20);
      expect(first.hasNext).toBe(true);
      expect(first.orders[0]?.orderId).toBe(ids[24]);
      const second = list(brokerage, `status=CLOSED&cursor=${first.nextCursor}`);
      expect(second.orders.map((o) => o.orderId)).toEqual(ids.slice(0, 5).reverse());
      expect([second.hasNext, second.nextCursor]).toEqual([false, null]);
    });

    it('honours limit up to 100 and returns every OPEN order without paging', async () => {
      const { brokerage } = await withClosedOrders(3);
      expect(list(brokerage, 'status=CLOSED&limit=2').orders).toHaveLength(2);
      expect(list(brokerage, 'status=CLOSED&limit=100').orders).toHaveLength(3);
      for (let i = 0; i < 25; i += 1) {
        await brokerage.createOrder(1, {
          symbol: 'AAPL',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '1',
          price: '100',
        });
      }
      const open = list(brokerage, 'status=OPEN&limit=1');
      expect([open.orders.length, open.hasNext, open.nextCursor]).toEqual([25, false, null]);
    });

    it('filters by symbol and by KST order date', async () => {
      const { brokerage, clock } = await withClosedOrders(2);
      clock.set('2026-11-24T10:00:00+09:00');
      await brokerage.createOrder(1, { symbol: '000660', side: 'BUY', orderType: 'MARKET', quantity: '1' });
      expect(list(brokerage, 'status=CLOSED&symbol=000660').orders).toHaveLength(1);
      await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '1',
        price: '100',
      });
      expect(list(brokerage, 'status=OPEN&symbol=aapl').orders).toHaveLength(1);
      expect(list(brokerage, 'status=CLOSED&from=2026-11-24').orders).toHaveLength(1);
      expect(list(brokerage, 'status=CLOSED&to=2026-11-23').orders).toHaveLength(2);
      expect(list(brokerage, 'status=CLOSED&from=2026-11-23&to=2026-11-24').orders).toHaveLength(3);
    });

    it.each([
      ['', 'status'],
      ['status=ALL', 'status'],
      ['status=CLOSED&limit=0', 'limit'],
      ['status=CLOSED&limit=101', 'limit'],
      ['status=CLOSED&limit=x', 'limit'],
      ['status=CLOSED&cursor=garbage', 'cursor'],
      ['status=CLOSED&from=2026-13-01', 'from'],
      ['status=CLOSED&to=20261123', 'to'],
      ['status=CLOSED&from=2026-11-24&to=2026-11-23', 'from,to'],
      ['status=OPEN&symbol=a%20b', 'symbol'],
    ])('answers 400 invalid-request for "%s" naming %s', async (query, field) => {
      const { brokerage } = await withClosedOrders(0);
      const error = rejection(() => list(brokerage, query));
      expect([error.status, error.code, error.data?.field]).toEqual([400, 'invalid-request', field]);
    });

    it('leaves orders hidden by the hide-new-orders fault out of lists, but not out of detail', async () => {
      const { brokerage, clock } = await withClosedOrders(0);
      brokerage.hideNewOrdersFor(30_000);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '1',
        price: '100',
      })) as { orderId: string };
      expect(list(brokerage, 'status=OPEN').orders).toEqual([]);
      expect(brokerage.orderDetail(1, orderId)).toMatchObject({ orderId, status: 'PENDING' });
      clock.advance(30_000);
      expect(list(brokerage, 'status=OPEN').orders.map((o) => o.orderId)).toEqual([orderId]);
    });
  });
});
