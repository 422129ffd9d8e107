import { Decimal, roundToTick } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { coreInstrument } from './order-validation.js';
import { KR_MORNING, orderView, place, simSetup, US_NIGHT } from './sim-fixture.test-helper.js';

const q = (text: string) => new URLSearchParams(text);

describe('MatchingEngine', () => {
  describe('.advance', () => {
    it('fills a large limit order partly at once, and the rest over time as later books replenish', async () => {
      // ZOM trades around 0.15 USD with a few thousand shares a level: 50,000 shares need many books
      const { brokerage, market, clock } = simSetup(US_NIGHT);
      const best = market.book('ZOM', clock.now()).asks[0]!;
      const quantity = new Decimal(50_000);
      expect(quantity.gt(best.volume.times(3))).toBe(true);
      const orderId = await place(brokerage, {
        symbol: 'ZOM',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: quantity.toFixed(),
        price: best.price.toFixed(),
      });
      expect(orderView(brokerage, orderId)).toMatchObject({
        status: 'PARTIAL_FILLED',
        execution: { filledQuantity: best.volume.toFixed(), averageFilledPrice: best.price.toFixed() },
      });
      market.setPrice('ZOM', best.price);
      const fills: Decimal[] = [best.volume];
      for (let i = 0; i < 240 && orderView(brokerage, orderId).status !== 'FILLED'; i += 1) {
        clock.advance(5_000);
        brokerage.advanceTo(clock.now());
        const filled = new Decimal(orderView(brokerage, orderId).execution.filledQuantity);
        if (!filled.eq(fills.at(-1)!)) fills.push(filled);
      }
      const done = orderView(brokerage, orderId);
      expect(fills.length).toBeGreaterThan(2);
      expect(new Decimal(done.execution.filledQuantity).lte(quantity)).toBe(true);
      expect(new Decimal(done.execution.averageFilledPrice!).lte(best.price)).toBe(true);
      expect(done.status).toBe(fills.at(-1)!.eq(quantity) ? 'FILLED' : 'PARTIAL_FILLED');
    });

    it('fills a resting buy limit at no more than its price once the last price crosses it', async () => {
      const { brokerage, market, clock } = simSetup();
      const instrument = coreInstrument(market.instrument('005930')!);
      const limit = roundToTick(instrument, market.lastPrice('005930', clock.now()).times('0.98'), 'down');
      const orderId = await place(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: limit.toFixed(),
      });
      clock.advance(30_000);
      brokerage.advanceTo(clock.now());
      expect(orderView(brokerage, orderId).status).toBe('PENDING');
      market.setPrice('005930', limit.minus(500));
      clock.advance(5_000);
      brokerage.advanceTo(clock.now());
      const filled = orderView(brokerage, orderId);
      expect(filled.status).toBe('FILLED');
      expect(new Decimal(filled.execution.averageFilledPrice!).lte(limit)).toBe(true);
      expect(filled.execution.commission).toBe(
        new Decimal(filled.execution.filledAmount!).times('0.00015').floor().toFixed(),
      );
    });

    it('charges commission and KR transaction tax on a sell and credits the rest', async () => {
      const { brokerage, market, clock } = simSetup();
      const bid = market.book('005930', clock.now()).bids[0]!;
      expect(bid.volume.gte(10)).toBe(true);
      const cash = () =>
        new Decimal(
          (brokerage.buyingPower(1, q('currency=KRW')) as { cashBuyingPower: string }).cashBuyingPower,
        );
      const before = cash();
      const orderId = await place(brokerage, {
        symbol: '005930',
        side: 'SELL',
        orderType: 'MARKET',
        quantity: '10',
      });
      const amount = bid.price.times(10);
      const commission = amount.times('0.00015').floor();
      const tax = amount.times('0.0015').floor();
      expect(orderView(brokerage, orderId).execution).toMatchObject({
        filledAmount: amount.toFixed(),
        commission: commission.toFixed(),
        tax: tax.toFixed(),
      });
      expect(cash().minus(before).toFixed()).toBe(amount.minus(commission).minus(tax).toFixed());
      expect(brokerage.sellableQuantity(1, q('symbol=005930'))).toEqual({ sellableQuantity: '90' });
    });

    it('fills a US CLS limit at the closing price and cancels one whose limit the close misses', async () => {
      const { brokerage, market, clock } = simSetup(US_NIGHT);
      const last = market.lastPrice('AAPL', clock.now());
      const generous = await place(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'CLS',
        quantity: '2',
        price: last.plus(100).toFixed(2),
      });
      const stingy = await place(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'CLS',
        quantity: '2',
        price: last.minus(100).toFixed(2),
      });
      clock.set('2026-11-24T05:59:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(orderView(brokerage, generous).status).toBe('PENDING');
      clock.set('2026-11-24T06:01:00+09:00');
      // the closing auction's price: the day's official close, its daily candle's close
      const daily = market.candles(q('symbol=AAPL&interval=1d&count=1')) as {
        candles: { timestamp: string; closePrice: string }[];
      };
      expect(daily.candles[0]?.timestamp).toBe('2026-11-23T00:00:00.000+09:00'); // New York's 11-23
      const close = new Decimal(daily.candles[0]?.closePrice ?? '');
      brokerage.advanceTo(clock.now());
      expect(orderView(brokerage, generous)).toMatchObject({
        status: 'FILLED',
        execution: {
          averageFilledPrice: close.toFixed(),
          filledAt: '2026-11-24T06:00:00.000+09:00',
          settlementDate: '2026-11-24',
        },
      });
      expect(orderView(brokerage, stingy)).toMatchObject({
        status: 'CANCELED',
        canceledAt: '2026-11-24T06:00:00.000+09:00',
      });
    });

    it('settles a fill on the day before Thanksgiving on the Friday after it (holidays skipped)', async () => {
      // Thursday 00:30 KST = Wednesday 2026-11-25 10:30 New York; T+1 would be Thanksgiving
      const { brokerage } = simSetup('2026-11-26T00:30:00+09:00');
      const orderId = await place(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: '1',
      });
      expect(orderView(brokerage, orderId)).toMatchObject({
        status: 'FILLED',
        execution: { settlementDate: '2026-11-27' },
      });
    });

    it('cancels a DAY order still open at the end of its trading day and releases its cash', async () => {
      const { brokerage, market, clock } = simSetup();
      const lower = market.priceLimits('005930', clock.now())!.lower;
      const orderId = await place(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: lower.toFixed(),
      });
      clock.set('2026-11-24T08:00:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(orderView(brokerage, orderId)).toMatchObject({
        status: 'CANCELED',
        canceledAt: '2026-11-23T20:00:00.000+09:00',
      });
      expect(brokerage.buyingPower(1, q('currency=KRW'))).toMatchObject({ cashBuyingPower: '50000000' });
    });

    it('does not trade while no session is open, then expires the order at the end of the US trading day', async () => {
      // 07:00 KST = 17:00 New York (after-market); no US session from 18:00 to 20:00 New York
      const { brokerage, market, clock } = simSetup('2026-11-24T07:00:00+09:00');
      const last = market.lastPrice('AAPL', clock.now());
      const orderId = await place(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '1',
        price: last.minus(20).toFixed(2),
      });
      clock.set('2026-11-24T08:30:00+09:00');
      brokerage.advanceTo(clock.now());
      market.setPrice('AAPL', last.minus(40));
      clock.set('2026-11-24T09:59:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(orderView(brokerage, orderId).status).toBe('PENDING');
      clock.set('2026-11-24T10:00:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(orderView(brokerage, orderId)).toMatchObject({
        status: 'CANCELED',
        canceledAt: '2026-11-24T10:00:00.000+09:00',
      });
    });

    it('is deterministic: the same seed and the same requests give the same fills, under ids of their own', async () => {
      const run = async () => {
        const { brokerage, clock } = simSetup(KR_MORNING);
        const id = await place(brokerage, {
          symbol: '005930',
          side: 'BUY',
          orderType: 'MARKET',
          quantity: '50',
        });
        clock.advance(60_000);
        brokerage.advanceTo(clock.now());
        const detail = brokerage.orderDetail(1, id) as { orderId: string };
        return { id, detail: { ...detail, orderId: 'the id' }, holdings: brokerage.holdings(1, q('')) };
      };
      const [a, b] = [await run(), await run()];
      expect(a.detail).toEqual(b.detail);
      expect(a.holdings).toEqual(b.holdings);
      // a broker never hands out an order id twice: a simulator started afresh neither
      expect(a.id).not.toBe(b.id);
      expect(a.id).toMatch(/^[A-Za-z0-9_-]{64}$/);
    });
  });
});
