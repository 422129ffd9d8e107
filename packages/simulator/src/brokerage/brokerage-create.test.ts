import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { failure, KR_MORNING, orderView, place, simSetup, US_NIGHT } from './sim-fixture.test-helper.js';

const q = (text: string) => new URLSearchParams(text);

function krwPower(brokerage: ReturnType<typeof simSetup>['brokerage'], account = 1): Decimal {
  return new Decimal(
    (brokerage.buyingPower(account, q('currency=KRW')) as { cashBuyingPower: string }).cashBuyingPower,
  );
}

/** Prices of 005930 on the test day: its limits, and the reference price (on the grid, within limits). */
function prices005930() {
  const { market, clock } = simSetup();
  const limits = market.priceLimits('005930', clock.now())!;
  return {
    lower: limits.lower.toFixed(),
    upper: limits.upper.toFixed(),
    belowLower: limits.lower.minus(50).toFixed(),
    aboveUpper: limits.upper.plus(100).toFixed(),
    reference: market.referencePrice('005930', clock.now()).toFixed(),
  };
}
const P = prices005930();

describe('Brokerage', () => {
  describe('.createOrder', () => {
    it('fills a market buy at once by walking the book and books cash, commission and holdings', async () => {
      const { brokerage, market, clock } = simSetup();
      const [first, second] = market.book('069500', clock.now()).asks;
      const before = krwPower(brokerage);
      const orderId = await place(brokerage, {
        symbol: '069500',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: first!.volume.plus(1).toFixed(),
      });
      const order = orderView(brokerage, orderId);
      const amount = first!.price.times(first!.volume).plus(second!.price);
      const commission = first!.price
        .times(first!.volume)
        .times('0.00015')
        .floor()
        .plus(second!.price.times('0.00015').floor());
      expect(order).toMatchObject({
        status: 'FILLED',
        price: null,
        execution: {
          filledQuantity: first!.volume.plus(1).toFixed(),
          filledAmount: amount.toFixed(),
          commission: commission.toFixed(),
          tax: '0',
          averageFilledPrice: amount.dividedBy(first!.volume.plus(1)).toDecimalPlaces(2).toFixed(),
          filledAt: '2026-11-23T10:00:00.000+09:00',
          settlementDate: '2026-11-25',
        },
      });
      expect(before.minus(krwPower(brokerage)).toFixed()).toBe(amount.plus(commission).toFixed());
      expect(brokerage.sellableQuantity(1, q('symbol=069500'))).toEqual({
        sellableQuantity: first!.volume.plus(1).toFixed(),
      });
    });

    it('leaves a non-marketable limit resting and reserves its cash with commission', async () => {
      const { brokerage } = simSetup();
      const orderId = await place(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: P.lower,
      });
      expect(orderView(brokerage, orderId).status).toBe('PENDING');
      const reserved = new Decimal(P.lower).times(10).times('1.00015').ceil();
      expect(krwPower(brokerage).toFixed()).toBe(new Decimal(50_000_000).minus(reserved).toFixed());
    });

    it('rejects a buy beyond the cash buying power with 422 insufficient-buying-power', async () => {
      const { brokerage } = simSetup();
      const error = await failure(
        brokerage.createOrder(2, {
          symbol: '005930',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '3',
          price: P.lower,
        }),
      );
      expect([error.status, error.code]).toEqual([422, 'insufficient-buying-power']);
      expect(error.data).toMatchObject({ currency: 'KRW', cashBuyingPower: '100000' });
    });

    it('never converts currencies: a USD buy needs USD cash', async () => {
      const { brokerage } = simSetup(US_NIGHT);
      const error = await failure(
        brokerage.createOrder(2, {
          symbol: 'AAPL',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '1',
          price: '100',
        }),
      );
      expect(error.code).toBe('insufficient-buying-power');
      expect(error.data).toMatchObject({ currency: 'USD', cashBuyingPower: '50' });
    });

    it('rejects selling more than the sellable quantity with 422 insufficient-buying-power naming quantity', async () => {
      const { brokerage } = simSetup();
      const error = await failure(
        brokerage.createOrder(1, {
          symbol: '005930',
          side: 'SELL',
          orderType: 'LIMIT',
          quantity: '101',
          price: P.upper,
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
      const { brokerage } = simSetup();
      await place(brokerage, {
        symbol: '005930',
        side: 'SELL',
        orderType: 'LIMIT',
        quantity: '1',
        price: P.upper,
      });
      const error = await failure(
        brokerage.createOrder(1, {
          symbol: '005930',
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '1',
          price: P.lower,
        }),
      );
      expect([error.status, error.code]).toEqual([422, 'opposite-pending-order-exists']);
    });

    it('allows opposite sides on a US stock', async () => {
      const { brokerage } = simSetup(US_NIGHT);
      await place(brokerage, {
        symbol: 'AAPL',
        side: 'SELL',
        orderType: 'LIMIT',
        quantity: '1',
        price: '900',
      });
      await expect(
        place(brokerage, { symbol: 'AAPL', side: 'BUY', orderType: 'LIMIT', quantity: '1', price: '100' }),
      ).resolves.toMatch(/^[A-Za-z0-9_-]{64}$/);
    });

    it.each([
      [
        'order-hours-closed',
        'on a Sunday',
        '2026-11-22T10:00:00+09:00',
        { symbol: '005930', price: P.reference },
      ],
      [
        'order-hours-closed',
        'after 20:00',
        '2026-11-23T20:00:00+09:00',
        { symbol: '005930', price: P.reference },
      ],
      ['stock-restricted', 'on a suspended stock', KR_MORNING, { symbol: '900110', price: '150' }],
      ['prerequisite-required', 'on SOXL', US_NIGHT, { symbol: 'SOXL', price: '30' }],
      [
        'market-not-supported-for-stock',
        'on a KRX-only ETF after hours',
        '2026-11-23T16:00:00+09:00',
        { symbol: '069500', price: '35000' },
      ],
      ['price-out-of-range', 'above the upper limit', KR_MORNING, { symbol: '005930', price: P.aboveUpper }],
      ['price-out-of-range', 'below the lower limit', KR_MORNING, { symbol: '005930', price: P.belowLower }],
      [
        'max-order-amount-exceeded',
        'at 3,000,000,000 KRW',
        KR_MORNING,
        {
          symbol: '005930',
          price: P.reference,
          quantity: new Decimal(3e9).dividedBy(P.reference).ceil().toFixed(),
        },
      ],
    ])('answers 422 %s %s', async (code, _label, at, body) => {
      const { brokerage } = simSetup(at);
      const error = await failure(
        brokerage.createOrder(1, {
          side: 'BUY',
          orderType: 'LIMIT',
          quantity: '1',
          confirmHighValueOrder: true,
          ...body,
        }),
      );
      expect([error.status, error.code]).toEqual([422, code]);
    });

    it.each([
      ['005930', '2026-11-22T10:00:00+09:00', '2026-11-23T08:00:00.000+09:00'],
      ['005930', '2026-11-23T20:00:00+09:00', '2026-11-24T08:00:00.000+09:00'],
      ['AAPL', '2026-11-22T10:00:00+09:00', '2026-11-23T10:00:00.000+09:00'],
    ])('tells when %s orders are accepted again after %s: %s', async (symbol, at, next) => {
      const { brokerage } = simSetup(at);
      const error = await failure(
        brokerage.createOrder(1, { symbol, side: 'BUY', orderType: 'LIMIT', quantity: '1', price: '100' }),
      );
      expect([error.code, error.data?.retryAfterAt]).toEqual(['order-hours-closed', next]);
    });

    it('answers 422 order-type-not-allowed for a MARKET order outside the regular session', async () => {
      const { brokerage } = simSetup('2026-11-23T16:00:00+09:00');
      const error = await failure(
        brokerage.createOrder(1, { symbol: '005930', side: 'BUY', orderType: 'MARKET', quantity: '1' }),
      );
      expect([error.status, error.code]).toEqual([422, 'order-type-not-allowed']);
    });

    it('answers 400 confirm-high-value-required at 100,000,000 KRW, USD converted at the display rate', async () => {
      const { brokerage, market, clock } = simSetup(US_NIGHT);
      const quantity = new Decimal(1e8).dividedBy(market.usdKrw(clock.now()).times(100)).ceil();
      const body = {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: quantity.toFixed(),
        price: '100',
      };
      const error = await failure(brokerage.createOrder(1, body));
      expect([error.status, error.code, error.data?.field]).toEqual([
        400,
        'confirm-high-value-required',
        'confirmHighValueOrder',
      ]);
      const below = await failure(
        brokerage.createOrder(1, { ...body, quantity: quantity.minus(1).toFixed() }),
      );
      expect(below.code).toBe('insufficient-buying-power');
      const confirmed = await failure(brokerage.createOrder(1, { ...body, confirmHighValueOrder: true }));
      expect(confirmed.code).toBe('insufficient-buying-power');
    });

    it('accepts an amount order in the US regular session and fills a fractional quantity', async () => {
      const { brokerage } = simSetup(US_NIGHT);
      const orderId = await place(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'MARKET',
        orderAmount: '100.50',
      });
      const order = orderView(brokerage, orderId);
      expect(order).toMatchObject({ status: 'FILLED', orderAmount: '100.5', price: null });
      expect(new Decimal(order.execution.filledQuantity).decimalPlaces()).toBeLessThanOrEqual(6);
      expect(new Decimal(order.execution.filledAmount!).minus('100.5').abs().lte('0.01')).toBe(true);
      expect(order.quantity).toBe(order.execution.filledQuantity);
    });

    it.each([
      ['in the pre-market', '2026-11-23T22:00:00+09:00'],
      ['in the last hour of the regular session', '2026-11-24T05:10:00+09:00'],
      ['in the day market', KR_MORNING],
    ])('answers 422 amount-order-outside-regular-hours %s', async (_label, at) => {
      const { brokerage } = simSetup(at);
      for (const body of [
        { symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '100' },
        { symbol: 'NVDA', side: 'SELL', orderType: 'MARKET', quantity: '0.5' },
      ]) {
        const error = await failure(brokerage.createOrder(1, body));
        expect([error.status, error.code]).toEqual([422, 'amount-order-outside-regular-hours']);
      }
    });

    it('accepts a fractional US market sell inside the window and sells it', async () => {
      const { brokerage } = simSetup(US_NIGHT);
      const orderId = await place(brokerage, {
        symbol: 'NVDA',
        side: 'SELL',
        orderType: 'MARKET',
        quantity: '0.5',
      });
      expect(orderView(brokerage, orderId)).toMatchObject({
        status: 'FILLED',
        execution: { filledQuantity: '0.5' },
      });
      expect(brokerage.sellableQuantity(1, q('symbol=NVDA'))).toEqual({ sellableQuantity: '5' });
    });

    it('creates an amount order under 1 USD and then rejects it', async () => {
      const { brokerage } = simSetup(US_NIGHT);
      const orderId = await place(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'MARKET',
        orderAmount: '0.5',
      });
      expect(orderView(brokerage, orderId)).toMatchObject({
        status: 'REJECTED',
        execution: { filledQuantity: '0' },
      });
    });

    it('counts created orders, and orders per clientOrderId', async () => {
      const { brokerage } = simSetup();
      const body = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '1', price: P.lower };
      await brokerage.createOrder(1, { ...body, clientOrderId: 'a-1' });
      await brokerage.createOrder(1, { ...body, clientOrderId: 'a-1' });
      await brokerage.createOrder(1, body);
      expect(brokerage.counters()).toEqual({
        ordersCreated: 2,
        ordersModified: 0,
        ordersCanceled: 0,
        ordersPerClientOrderId: { 'a-1': 1 },
      });
    });
  });
});
