import { Decimal, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { Brokerage } from './brokerage.js';
import { KR_MORNING, MarketDouble, US_NIGHT } from './market-double.test-helper.js';

function setup(at = KR_MORNING) {
  const clock = new VirtualClock(at);
  const market = new MarketDouble(clock);
  const brokerage = new Brokerage({ market, clock, seed: 7 });
  return { clock, market, brokerage };
}

interface Record {
  status: string;
  quantity: string;
  execution: {
    filledQuantity: string;
    averageFilledPrice: string | null;
    filledAmount: string | null;
    commission: string | null;
    tax: string | null;
    filledAt: string | null;
    settlementDate: string | null;
  };
}

async function create(brokerage: Brokerage, body: object): Promise<string> {
  return ((await brokerage.createOrder(1, body)) as { orderId: string }).orderId;
}

function record(brokerage: Brokerage, orderId: string): Record {
  return brokerage.orderDetail(1, orderId) as Record;
}

describe('MatchingEngine', () => {
  describe('.advance', () => {
    it('fills a large market order partially over time as the book replenishes', async () => {
      const { brokerage, market, clock } = setup();
      market.levelVolume = new Decimal(5);
      market.levels = 2;
      const orderId = await create(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'MARKET',
        quantity: '25',
      });
      expect(record(brokerage, orderId)).toMatchObject({
        status: 'PARTIAL_FILLED',
        execution: { filledQuantity: '10' },
      });
      clock.advance(5_000);
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId).execution.filledQuantity).toBe('20');
      clock.advance(5_000);
      brokerage.advanceTo(clock.now());
      const done = record(brokerage, orderId);
      expect(done.status).toBe('FILLED');
      expect(done.execution.filledQuantity).toBe('25');
      expect(done.execution.filledAt).toBe('2026-11-23T10:00:10.000+09:00');
      expect(done.execution.settlementDate).toBe('2026-11-25');
    });

    it('fills a resting buy limit at its price once the last price crosses it', async () => {
      const { brokerage, market, clock } = setup();
      const orderId = await create(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: '71000',
      });
      clock.advance(30_000);
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId).status).toBe('PENDING');
      market.setPrice('005930', '70900');
      clock.advance(5_000);
      brokerage.advanceTo(clock.now());
      const filled = record(brokerage, orderId);
      expect(filled.status).toBe('FILLED');
      // the book around 70900 offers 71000 as the best ask: the walk fills at the limit
      expect(filled.execution.averageFilledPrice).toBe('71000');
      expect(filled.execution.filledAmount).toBe('710000');
      expect(filled.execution.commission).toBe('106');
      expect(filled.execution.tax).toBe('0');
    });

    it('charges commission and KR transaction tax on a sell and credits the rest', async () => {
      const { brokerage } = setup();
      const before = new Decimal(
        (brokerage.buyingPower(1, new URLSearchParams('currency=KRW')) as { cashBuyingPower: string })
          .cashBuyingPower,
      );
      const orderId = await create(brokerage, {
        symbol: '005930',
        side: 'SELL',
        orderType: 'MARKET',
        quantity: '10',
      });
      const sold = record(brokerage, orderId);
      // best bid: 72000 − 7.2 rounded down to the 100-won grid = 71900
      expect(sold.execution).toMatchObject({ filledAmount: '719000', commission: '107', tax: '1078' });
      const after = new Decimal(
        (brokerage.buyingPower(1, new URLSearchParams('currency=KRW')) as { cashBuyingPower: string })
          .cashBuyingPower,
      );
      expect(after.minus(before).toFixed()).toBe(String(719000 - 107 - 1078));
    });

    it('fills a US CLS limit at the close price and settles T+1', async () => {
      const { brokerage, market, clock } = setup(US_NIGHT);
      const orderId = await create(brokerage, {
        symbol: 'AAPL',
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'CLS',
        quantity: '2',
        price: '185',
      });
      market.setPrice('AAPL', '184.5');
      clock.set('2026-11-24T05:59:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId).status).toBe('PENDING');
      clock.set('2026-11-24T06:01:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId)).toMatchObject({
        status: 'FILLED',
        execution: {
          averageFilledPrice: '184.5',
          filledAt: '2026-11-24T06:00:00.000+09:00',
          settlementDate: '2026-11-24',
        },
      });
    });

    it('cancels a DAY order still open at the end of its trading day and releases its cash', async () => {
      const { brokerage, clock } = setup();
      const orderId = await create(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: '60000',
      });
      clock.set('2026-11-24T08:00:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId)).toMatchObject({ status: 'CANCELED' });
      expect(brokerage.buyingPower(1, new URLSearchParams('currency=KRW'))).toMatchObject({
        cashBuyingPower: '50000000',
      });
    });

    it('does not trade a KR stock outside its sessions and resumes when the market opens', async () => {
      const { brokerage, market, clock } = setup('2026-11-23T08:10:00+09:00');
      const orderId = await create(brokerage, {
        symbol: '005930',
        side: 'BUY',
        orderType: 'LIMIT',
        quantity: '10',
        price: '71000',
      });
      clock.set('2026-11-23T08:50:00+09:00');
      brokerage.advanceTo(clock.now());
      market.setPrice('005930', '70000');
      clock.set('2026-11-23T08:59:00+09:00');
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId).status).toBe('PENDING');
      clock.set('2026-11-23T09:00:05+09:00');
      brokerage.advanceTo(clock.now());
      expect(record(brokerage, orderId).status).toBe('FILLED');
    });

    it('is deterministic: the same seed and the same requests give the same ids and fills', async () => {
      const run = async () => {
        const { brokerage, clock, market } = setup();
        market.levelVolume = new Decimal(7);
        const id = await create(brokerage, {
          symbol: '005930',
          side: 'BUY',
          orderType: 'MARKET',
          quantity: '50',
        });
        clock.advance(60_000);
        brokerage.advanceTo(clock.now());
        return [id, brokerage.orderDetail(1, id)];
      };
      expect(await run()).toEqual(await run());
    });
  });
});
