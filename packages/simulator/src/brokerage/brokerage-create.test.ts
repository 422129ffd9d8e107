import { Decimal, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { Brokerage } from './brokerage.js';
import { KR_MORNING, MarketDouble, US_NIGHT } from './market-double.test-helper.js';

function setup(at = KR_MORNING) {
  const clock = new VirtualClock(at);
  const market = new MarketDouble(clock);
  const brokerage = new Brokerage({ market, clock, seed: 7 });
  return { clock, market, brokerage };
}

async function failure(promise: Promise<unknown>): Promise<SimApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SimApiError)) throw new Error(`expected a SimApiError, got ${String(error)}`);
  return error;
}

interface Detail {
  status: string;
  quantity: string;
  price: string | null;
  execution: { filledQuantity: string; averageFilledPrice: string | null; commission: string | null };
}

function detail(brokerage: Brokerage, orderId: string): Detail {
  return brokerage.orderDetail(1, orderId) as Detail;
}

describe('Brokerage', () => {
  describe('.createOrder', () => {
    it('fills a KR market buy at once by walking the book and books cash and holdings', async () => {
      const { brokerage } = setup();
      const before = brokerage.buyingPower(1, new URLSearchParams('currency=KRW')) as {
        cashBuyingPower: string;
      };
      const result = (await brokerage.createOrder(1, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: '150',
      })) as { orderId: string; clientOrderId: string | null };
      expect(result.clientOrderId).toBeNull();
      expect(result.orderId).toMatch(/^[A-Za-z0-9_-]{64}$/);
      const order = detail(brokerage, result.orderId);
      expect(order.status).toBe('FILLED');
      expect(order.execution.filledQuantity).toBe('150');
      // 100 at the best ask (72100), 50 at the next level (72200)
      expect(order.execution.averageFilledPrice).toBe(
        new Decimal(72100 * 100 + 72200 * 50).div(150).toFixed(2),
      );
      const amount = 72100 * 100 + 72200 * 50;
      const commission = Math.floor(72100 * 100 * 0.00015) + Math.floor(72200 * 50 * 0.00015);
      expect(order.execution.commission).toBe(String(commission));
      const after = brokerage.buyingPower(1, new URLSearchParams('currency=KRW')) as {
        cashBuyingPower: string;
      };
      expect(new Decimal(before.cashBuyingPower).minus(after.cashBuyingPower).toFixed()).toBe(
        String(amount + commission),
      );
      const sellable = brokerage.sellableQuantity(1, new URLSearchParams('symbol=005930')) as {
        sellableQuantity: string;
      };
      expect(sellable.sellableQuantity).toBe('250');
    });

    it('leaves a non-marketable limit resting and reserves its cash with commission', async () => {
      const { brokerage } = setup();
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: '70000',
      })) as { orderId: string };
      expect(detail(brokerage, orderId).status).toBe('PENDING');
      const power = brokerage.buyingPower(1, new URLSearchParams('currency=KRW')) as {
        cashBuyingPower: string;
      };
      expect(power.cashBuyingPower).toBe(
        new Decimal(50_000_000).minus(new Decimal(700_000).times('1.00015')).toFixed(0),
      );
    });

    it('rejects a buy beyond the cash buying power with 422 insufficient-buying-power', async () => {
      const { brokerage } = setup();
      const error = await failure(
        brokerage.createOrder(2, {
          symbol: '005930',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '2',
          price: '72000',
        }),
      );
      expect([error.status, error.code]).toEqual([422, 'insufficient-buying-power']);
    });

    it('never converts currencies: a USD buy needs USD cash', async () => {
      const { brokerage } = setup(US_NIGHT);
      const error = await failure(
        brokerage.createOrder(2, {
          symbol: 'AAPL',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '1',
          price: '180',
        }),
      );
      expect(error.code).toBe('insufficient-buying-power');
      expect(error.data).toMatchObject({ currency: 'USD', cashBuyingPower: '50' });
    });

    it('rejects selling more than the sellable quantity with 422 insufficient-buying-power naming quantity', async () => {
      const { brokerage } = setup();
      const error = await failure(
        brokerage.createOrder(1, {
          symbol: '005930',
          side: 'SELL',
          orderType: 'LIMIT',
          quantity: '101',
          price: '80000',
        }),
      );
      expect([error.status, error.code, error.data?.field]).toEqual([
        422,
        'insufficient-buying-power',
        'quantity',
      ]);
      expect(error.data?.sellableQuantity).toBe('100');
    });

    it('rejects a KR order against an opposite-side open order even when prices do not overlap', async () => {
      const { brokerage } = setup();
      await brokerage.createOrder(1, {
        symbol: '005930',
        side: 'SELL',
        orderType: 'LIMIT',
        quantity: '1',
        price: '90000',
      });
      const error = await failure(
        brokerage.createOrder(1, {
          symbol: '005930',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '1',
          price: '60000',
        }),
      );
      expect([error.status, error.code]).toEqual([422, 'opposite-pending-order-exists']);
    });

    it('allows opposite sides on a US stock', async () => {
      const { brokerage } = setup(US_NIGHT);
      await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'SELL',
        orderType: 'LIMIT',
        quantity: '1',
        price: '250',
      });
      const result = await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '1',
        price: '100',
      });
      expect(result).toHaveProperty('orderId');
    });

    it.each([
      [
        'order-hours-closed',
        '2026-11-22T10:00:00+09:00',
        { symbol: '005930', quantity: '1', price: '72000' },
      ],
      [
        'order-hours-closed',
        '2026-11-23T21:00:00+09:00',
        { symbol: '005930', quantity: '1', price: '72000' },
      ],
      ['stock-restricted', KR_MORNING, { symbol: '000020', quantity: '1', price: '9000' }],
      ['prerequisite-required', US_NIGHT, { symbol: 'SOXL', quantity: '1', price: '30' }],
      [
        'market-not-supported-for-stock',
        '2026-11-23T16:00:00+09:00',
        { symbol: '069500', quantity: '1', price: '35000' },
      ],
      ['price-out-of-range', KR_MORNING, { symbol: '005930', quantity: '1', price: '94000' }],
      ['price-out-of-range', KR_MORNING, { symbol: '005930', quantity: '1', price: '50000' }],
      ['max-order-amount-exceeded', KR_MORNING, { symbol: '005930', quantity: '42000', price: '72000' }],
    ])('answers 422 %s (%s)', async (code, at, body) => {
      const { brokerage } = setup(at);
      const error = await failure(
        brokerage.createOrder(1, { side: 'BUY', orderType: 'LIMIT', confirmHighValueOrder: true, ...body }),
      );
      expect([error.status, error.code]).toEqual([422, code]);
    });

    it('answers 422 order-type-not-allowed for a MARKET order outside the regular session', async () => {
      const { brokerage } = setup('2026-11-23T16:00:00+09:00');
      const error = await failure(
        brokerage.createOrder(1, { symbol: '005930', side: 'BUY', orderType: 'MARKET', quantity: '1' }),
      );
      expect([error.status, error.code]).toEqual([422, 'order-type-not-allowed']);
    });

    it('answers 400 confirm-high-value-required at 100,000,000 KRW, USD converted at the display rate', async () => {
      const { brokerage } = setup(US_NIGHT);
      // 400 × 180 USD × 1400 = 100,800,000 KRW
      const body = { symbol: 'AAPL', side: 'BUY', orderType: 'LIMIT', quantity: '400', price: '180' };
      const error = await failure(brokerage.createOrder(1, body));
      expect([error.status, error.code, error.data?.field]).toEqual([
        400,
        'confirm-high-value-required',
        'confirmHighValueOrder',
      ]);
      const confirmed = await failure(brokerage.createOrder(1, { ...body, confirmHighValueOrder: true }));
      expect(confirmed.code).toBe('insufficient-buying-power');
    });

    it('accepts an amount order in the US regular session and fills a fractional quantity', async () => {
      const { brokerage } = setup(US_NIGHT);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'MARKET',
        orderAmount: '100.50',
      })) as { orderId: string };
      const order = brokerage.orderDetail(1, orderId) as Detail & { orderAmount: string };
      expect(order.status).toBe('FILLED');
      expect(order.orderAmount).toBe('100.5');
      expect(new Decimal(order.execution.filledQuantity).decimalPlaces()).toBeLessThanOrEqual(6);
      expect(order.quantity).toBe(order.execution.filledQuantity);
    });

    it.each([
      ['before the regular session', '2026-11-23T22:00:00+09:00'],
      ['in its last hour', '2026-11-24T05:10:00+09:00'],
    ])('answers 422 amount-order-outside-regular-hours %s', async (_label, at) => {
      const { brokerage } = setup(at);
      const error = await failure(
        brokerage.createOrder(1, { symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '100' }),
      );
      expect([error.status, error.code]).toEqual([422, 'amount-order-outside-regular-hours']);
    });

    it('accepts a fractional US market sell inside the window and sells it', async () => {
      const { brokerage } = setup(US_NIGHT);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'NVDA',
        side: 'SELL',
        orderType: 'MARKET',
        quantity: '0.5',
      })) as { orderId: string };
      expect(detail(brokerage, orderId).execution.filledQuantity).toBe('0.5');
      expect(brokerage.sellableQuantity(1, new URLSearchParams('symbol=NVDA'))).toEqual({
        sellableQuantity: '5',
      });
    });

    it('creates an amount order under 1 USD and then rejects it', async () => {
      const { brokerage } = setup(US_NIGHT);
      const { orderId } = (await brokerage.createOrder(1, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'MARKET',
        orderAmount: '0.5',
      })) as { orderId: string };
      expect(detail(brokerage, orderId).status).toBe('REJECTED');
    });

    it('counts created orders per clientOrderId', async () => {
      const { brokerage } = setup();
      const body = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1', price: '70000' };
      await brokerage.createOrder(1, { ...body, clientOrderId: 'a-1' });
      await brokerage.createOrder(1, { ...body, clientOrderId: 'a-1' });
      await brokerage.createOrder(1, body);
      expect(brokerage.counters()).toEqual({ ordersCreated: 2, ordersPerClientOrderId: { 'a-1': 1 } });
    });
  });
});
