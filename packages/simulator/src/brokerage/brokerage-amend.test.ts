import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from '../market/sim-market.js';
import { Brokerage } from './brokerage.js';

const KR_MORNING = '2026-11-23T10:00:00+09:00';
/** Inside the US regular session (10:30 New York). */
const US_NIGHT = '2026-11-24T00:30:00+09:00';

function setup(at = KR_MORNING) {
  const clock = new VirtualClock(at);
  const market = new SimMarket({ seed: 7, clock });
  const brokerage = new Brokerage({ market, clock, seed: 7 });
  return { clock, market, brokerage };
}

/** Prices of 005930 on the test day: the lower limit rests far below the market. */
const limits = setup().market.priceLimits('005930', setup().clock.now())!;
const LOW = limits.lower.toFixed();
const LOW_UP = limits.lower.plus(100).toFixed();
const OFF_TICK = limits.lower.plus(25).toFixed();
const ABOVE_LIMIT = limits.upper.plus(1000).toFixed();

async function failure(promise: Promise<unknown>): Promise<SimApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SimApiError)) throw new Error(`expected a SimApiError, got ${String(error)}`);
  return error;
}

interface Record {
  orderId: string;
  status: string;
  quantity: string;
  price: string | null;
  canceledAt: string | null;
  execution: { filledQuantity: string };
}

async function restingBuy(brokerage: Brokerage, quantity = '10', price = LOW): Promise<string> {
  const r = (await brokerage.createOrder(1, {
    symbol: '005930',
    side: 'BUY',
    orderType: 'LIMIT',
    quantity,
    price,
  })) as {
    orderId: string;
  };
  return r.orderId;
}

function record(brokerage: Brokerage, orderId: string): Record {
  return brokerage.orderDetail(1, orderId) as Record;
}

describe('Brokerage', () => {
  describe('.modifyOrder', () => {
    it('replaces the order by a new one and marks the original REPLACED', async () => {
      const { brokerage } = setup();
      const original = await restingBuy(brokerage);
      const { orderId } = (await brokerage.modifyOrder(1, original, {
        orderType: 'LIMIT',
        price: LOW_UP,
        quantity: '8',
      })) as { orderId: string };
      expect(orderId).not.toBe(original);
      expect(record(brokerage, original).status).toBe('REPLACED');
      expect(record(brokerage, orderId)).toMatchObject({ status: 'PENDING', quantity: '8', price: LOW_UP });
      const error = await failure(
        brokerage.modifyOrder(1, original, { orderType: 'LIMIT', price: LOW_UP, quantity: '8' }),
      );
      expect([error.status, error.code]).toEqual([409, 'already-modified']);
    });

    it('fills the replacement at once when the new price is marketable', async () => {
      const { brokerage } = setup();
      const original = await restingBuy(brokerage);
      const { orderId } = (await brokerage.modifyOrder(1, original, {
        orderType: 'MARKET',
        quantity: '10',
      })) as {
        orderId: string;
      };
      expect(record(brokerage, orderId)).toMatchObject({ status: 'FILLED', price: null });
    });

    it.each([
      ['a KR modify without quantity', { orderType: 'LIMIT', price: LOW_UP }, 400, 'invalid-request'],
      [
        'a KR modify with a fractional quantity',
        { orderType: 'LIMIT', price: LOW_UP, quantity: '1.5' },
        400,
        'invalid-request',
      ],
      [
        'a KR modify above the unfilled quantity',
        { orderType: 'LIMIT', price: LOW_UP, quantity: '11' },
        400,
        'invalid-request',
      ],
      ['a LIMIT modify without price', { orderType: 'LIMIT', quantity: '1' }, 400, 'invalid-request'],
      [
        'a MARKET modify with a price',
        { orderType: 'MARKET', price: LOW_UP, quantity: '1' },
        400,
        'invalid-request',
      ],
      [
        'a price off the tick grid',
        { orderType: 'LIMIT', price: OFF_TICK, quantity: '1' },
        400,
        'invalid-request',
      ],
      [
        'a price above the upper limit',
        { orderType: 'LIMIT', price: ABOVE_LIMIT, quantity: '1' },
        422,
        'price-out-of-range',
      ],
      ['a missing orderType', { price: LOW_UP, quantity: '1' }, 400, 'invalid-request'],
    ])('rejects %s', async (_label, body, status, code) => {
      const { brokerage } = setup();
      const original = await restingBuy(brokerage);
      const error = await failure(brokerage.modifyOrder(1, original, body));
      expect([error.status, error.code]).toEqual([status, code]);
      expect(record(brokerage, original).status).toBe('PENDING');
    });

    it('answers 400 us-modify-quantity-not-supported when a US modify carries a quantity', async () => {
      const { brokerage } = setup(US_NIGHT);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '2',
        price: '150',
      })) as { orderId: string };
      const error = await failure(
        brokerage.modifyOrder(1, orderId, { orderType: 'LIMIT', price: '151', quantity: '2' }),
      );
      expect([error.status, error.code, error.data?.field]).toEqual([
        400,
        'us-modify-quantity-not-supported',
        'quantity',
      ]);
      const ok = (await brokerage.modifyOrder(1, orderId, { orderType: 'LIMIT', price: '151.239' })) as {
        orderId: string;
      };
      expect(record(brokerage, ok.orderId)).toMatchObject({ quantity: '2', price: '151.23' });
    });

    it('answers 400 confirm-high-value-required when the modified order reaches 100,000,000 KRW', async () => {
      const { brokerage } = setup(US_NIGHT);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '110',
        price: '150',
      })) as { orderId: string };
      // 110 × 700 USD × 1400 = 107,800,000 KRW
      const error = await failure(brokerage.modifyOrder(1, orderId, { orderType: 'LIMIT', price: '700' }));
      expect([error.status, error.code]).toEqual([400, 'confirm-high-value-required']);
    });

    it('answers 409 already-processing while another modify of the order is processing', async () => {
      const { brokerage } = setup();
      const original = await restingBuy(brokerage);
      const slow = brokerage.modifyOrder(
        1,
        original,
        { orderType: 'LIMIT', price: LOW_UP, quantity: '10' },
        {
          processingDelayMs: 150,
        },
      );
      expect(record(brokerage, original).status).toBe('PENDING_REPLACE');
      const error = await failure(brokerage.cancelOrder(1, original, {}));
      expect([error.status, error.code]).toEqual([409, 'already-processing']);
      await slow;
      expect(record(brokerage, original).status).toBe('REPLACED');
    });

    it('refuses to change a CLS order in the last 10 minutes before the close (422 *-restricted)', async () => {
      const { brokerage, clock } = setup(US_NIGHT);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'CLS',
        quantity: '1',
        price: '100',
      })) as { orderId: string };
      clock.set('2026-11-24T05:50:00+09:00');
      const modify = await failure(brokerage.modifyOrder(1, orderId, { orderType: 'LIMIT', price: '101' }));
      expect([modify.status, modify.code]).toEqual([422, 'modify-restricted']);
      const cancel = await failure(brokerage.cancelOrder(1, orderId, {}));
      expect([cancel.status, cancel.code]).toEqual([422, 'cancel-restricted']);
      clock.set('2026-11-24T05:49:59+09:00');
      await expect(brokerage.cancelOrder(1, orderId, {})).resolves.toHaveProperty('orderId');
    });

    it('answers 404 order-not-found for an unknown id or an order of another account', async () => {
      const { brokerage } = setup();
      const original = await restingBuy(brokerage);
      for (const [account, id] of [
        [1, 'nope'],
        [2, original],
      ] as const) {
        const error = await failure(
          brokerage.modifyOrder(account, id, { orderType: 'MARKET', quantity: '1' }),
        );
        expect([error.status, error.code]).toEqual([404, 'order-not-found']);
      }
    });
  });

  describe('.cancelOrder', () => {
    it('cancels with a new id, keeps the original CANCELED and records the cancelled remainder', async () => {
      const { brokerage } = setup();
      const original = await restingBuy(brokerage);
      const { orderId } = (await brokerage.cancelOrder(1, original, {})) as { orderId: string };
      expect(orderId).not.toBe(original);
      expect(record(brokerage, original).status).toBe('CANCELED');
      expect(record(brokerage, original).canceledAt).not.toBeNull();
      expect(record(brokerage, orderId)).toMatchObject({
        status: 'CANCELED',
        quantity: '10',
        price: LOW,
      });
      expect(brokerage.buyingPower(1, new URLSearchParams('currency=KRW'))).toEqual({
        currency: 'KRW',
        cashBuyingPower: '50000000',
      });
    });

    it('tolerates a missing body and rejects a non-object body', async () => {
      const { brokerage } = setup();
      const a = await restingBuy(brokerage);
      await expect(brokerage.cancelOrder(1, a, undefined)).resolves.toHaveProperty('orderId');
      const b = await restingBuy(brokerage);
      expect((await failure(brokerage.cancelOrder(1, b, 'x'))).code).toBe('invalid-request');
    });

    it.each([
      ['already-filled', 'a filled order'],
      ['already-canceled', 'a cancelled order'],
      ['already-canceled', 'a cancel record'],
      ['already-rejected', 'a rejected order'],
    ])('answers 409 %s for %s', async (code, label) => {
      const { brokerage, clock } = setup(label === 'a rejected order' ? US_NIGHT : KR_MORNING);
      let target: string;
      if (label === 'a filled order') {
        target = (
          (await brokerage.createOrder(1, {
            symbol: '005930',
            side: 'BUY',
            orderType: 'MARKET',
            quantity: '1',
          })) as {
            orderId: string;
          }
        ).orderId;
      } else if (label === 'a rejected order') {
        target = (
          (await brokerage.createOrder(1, {
            symbol: 'AAPL',
            side: 'BUY',
            orderType: 'MARKET',
            orderAmount: '0.5',
          })) as {
            orderId: string;
          }
        ).orderId;
      } else {
        const original = await restingBuy(brokerage);
        const cancel = (await brokerage.cancelOrder(1, original, {})) as { orderId: string };
        target = label === 'a cancel record' ? cancel.orderId : original;
      }
      clock.advance(1000);
      const error = await failure(brokerage.cancelOrder(1, target, {}));
      expect([error.status, error.code]).toEqual([409, code]);
    });

    it('answers 422 order-hours-closed between the US after-market and the end of the US trading day', async () => {
      // 07:00 KST = 17:00 New York: after-market; 08:30 KST = 18:30 New York: no session, order still open
      const { brokerage, clock } = setup('2026-11-24T07:00:00+09:00');
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '1',
        price: '100',
      })) as { orderId: string };
      clock.set('2026-11-24T08:30:00+09:00');
      const error = await failure(brokerage.cancelOrder(1, orderId, {}));
      expect([error.status, error.code]).toEqual([422, 'order-hours-closed']);
      expect(record(brokerage, orderId).status).toBe('PENDING');
    });

    it('answers 409 already-canceled once a DAY order expired at the end of its trading day', async () => {
      const { brokerage, clock } = setup();
      const original = await restingBuy(brokerage);
      clock.set('2026-11-24T09:00:00+09:00');
      const error = await failure(brokerage.cancelOrder(1, original, {}));
      expect(error.code).toBe('already-canceled');
      expect(record(brokerage, original).canceledAt).toBe('2026-11-23T20:00:00.000+09:00');
    });

    it('lists a partly filled then cancelled order as CLOSED with its filled quantity kept', async () => {
      const { brokerage, market, clock } = setup();
      // a KR stock whose best ask, plus a few shares, fits the account's cash
      const candidate = ['069500', '035720', '247540', '000660', '035420']
        .map((symbol) => ({ symbol, best: market.book(symbol, clock.now()).asks[0]! }))
        .find((c) => c.best.volume.plus(5).times(c.best.price).lt(45_000_000));
      if (!candidate) throw new Error('no KR best ask small enough for this test');
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: candidate.symbol,
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: candidate.best.volume.plus(5).toFixed(),
        price: candidate.best.price.toFixed(),
      })) as { orderId: string };
      const filled = candidate.best.volume.toFixed();
      expect(record(brokerage, orderId)).toMatchObject({
        status: 'PARTIAL_FILLED',
        execution: { filledQuantity: filled },
      });
      await brokerage.cancelOrder(1, orderId, {});
      const closed = brokerage.listOrders(1, new URLSearchParams('status=CLOSED')) as { orders: Record[] };
      const listed = closed.orders.find((o) => o.orderId === orderId);
      expect(listed).toMatchObject({ status: 'CANCELED', execution: { filledQuantity: filled } });
      const open = brokerage.listOrders(1, new URLSearchParams('status=OPEN')) as { orders: Record[] };
      expect(open.orders).toEqual([]);
    });
  });
});
