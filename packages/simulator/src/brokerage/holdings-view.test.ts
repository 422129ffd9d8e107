import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { simSetup } from './sim-fixture.test-helper.js';

const rate = (n: Decimal, d: Decimal) => n.dividedBy(d).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed();

describe('holdingsPayload', () => {
  it('values an item at the last price with P/L, daily P/L and the cost of a sale', () => {
    const { brokerage, market, clock } = simSetup();
    const last = market.lastPrice('005930', clock.now());
    const reference = market.referencePrice('005930', clock.now());
    const amount = last.times(100);
    const purchase = new Decimal(6_500_000);
    const commission = amount.times('0.00015').floor();
    const tax = amount.times('0.0015').floor();
    const afterCost = amount.minus(commission).minus(tax);
    const daily = last.minus(reference).times(100);
    const result = brokerage.holdings(1, new URLSearchParams('symbol=005930')) as Record<string, unknown>;
    expect(result.items).toEqual([
      {
        symbol: '005930',
        name: '삼성전자',
        marketCountry: 'KR',
        currency: 'KRW',
        quantity: '100',
        lastPrice: last.toFixed(),
        averagePurchasePrice: '65000',
        marketValue: {
          purchaseAmount: '6500000',
          amount: amount.toFixed(),
          amountAfterCost: afterCost.toFixed(),
        },
        profitLoss: {
          amount: amount.minus(purchase).toFixed(),
          amountAfterCost: afterCost.minus(purchase).toFixed(),
          rate: rate(amount.minus(purchase), purchase),
          rateAfterCost: rate(afterCost.minus(purchase), purchase),
        },
        dailyProfitLoss: { amount: daily.toFixed(), rate: rate(daily, reference.times(100)) },
        cost: { commission: commission.toFixed(), tax: tax.toFixed() },
      },
    ]);
    expect(result.totalPurchaseAmount).toEqual({ krw: '6500000', usd: null });
    expect(result.profitLoss).toEqual({
      amount: { krw: amount.minus(purchase).toFixed(), usd: null },
      amountAfterCost: { krw: afterCost.minus(purchase).toFixed(), usd: null },
      rate: rate(amount.minus(purchase), purchase),
      rateAfterCost: rate(afterCost.minus(purchase), purchase),
    });
  });

  it('sums per currency and rates the whole on a KRW-converted basis', () => {
    const { brokerage, market, clock } = simSetup();
    const now = clock.now();
    const result = brokerage.holdings(1, new URLSearchParams()) as {
      items: { symbol: string; cost: { tax: string | null } }[];
      totalPurchaseAmount: { krw: string; usd: string };
      profitLoss: { amount: { krw: string; usd: string }; rate: string };
    };
    expect(result.items.map((i) => i.symbol)).toEqual(['005930', '000660', 'AAPL', 'NVDA']);
    expect(result.items.map((i) => i.cost.tax === null)).toEqual([false, false, true, true]);
    // KRW: 100 × 65000 + 20 × 180000; USD: 10 × 155.3 + 5.5 × 120.25 (661.375 → 661.38)
    expect(result.totalPurchaseAmount).toEqual({ krw: '10100000', usd: '2214.38' });
    const value = (symbol: string, quantity: number, places: number) =>
      market.lastPrice(symbol, now).times(quantity).toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
    const plKrw = value('005930', 100, 0)
      .plus(value('000660', 20, 0))
      .minus(10_100_000);
    const plUsd = value('AAPL', 10, 2)
      .plus(value('NVDA', 5.5, 2))
      .minus('2214.38');
    expect(result.profitLoss.amount).toEqual({ krw: plKrw.toFixed(), usd: plUsd.toFixed() });
    const usdKrw = market.usdKrw(now);
    expect(result.profitLoss.rate).toBe(
      rate(
        plKrw.plus(plUsd.times(usdKrw)),
        new Decimal(10_100_000).plus(new Decimal('2214.38').times(usdKrw)),
      ),
    );
  });

  it('matches the symbol filter the way the market does (case-insensitive for tickers)', () => {
    const { brokerage } = simSetup();
    const result = brokerage.holdings(1, new URLSearchParams('symbol=aapl')) as {
      items: { symbol: string }[];
    };
    expect(result.items.map((i) => i.symbol)).toEqual(['AAPL']);
  });

  it('answers empty sums for a symbol not held', () => {
    const { brokerage } = simSetup();
    expect(brokerage.holdings(1, new URLSearchParams('symbol=035420'))).toEqual({
      totalPurchaseAmount: { krw: '0', usd: null },
      marketValue: { amount: { krw: '0', usd: null }, amountAfterCost: { krw: '0', usd: null } },
      profitLoss: {
        amount: { krw: '0', usd: null },
        amountAfterCost: { krw: '0', usd: null },
        rate: '0',
        rateAfterCost: '0',
      },
      dailyProfitLoss: { amount: { krw: '0', usd: null }, rate: '0' },
      items: [],
    });
  });

  it('rejects a malformed symbol with 400 invalid-request', () => {
    const { brokerage } = simSetup();
    expect(() => brokerage.holdings(1, new URLSearchParams('symbol=a b'))).toThrow(SimApiError);
  });

  it('moves with fills: a buy raises the quantity and the average purchase price', async () => {
    const { brokerage } = simSetup();
    const { orderId } = (await brokerage.createOrder(1, {
      symbol: '005930',
      side: 'BUY',
      orderType: 'MARKET',
      quantity: '100',
    })) as { orderId: string };
    const filledAmount = (brokerage.orderDetail(1, orderId) as { execution: { filledAmount: string } })
      .execution.filledAmount;
    const result = brokerage.holdings(1, new URLSearchParams('symbol=005930')) as {
      items: { quantity: string; averagePurchasePrice: string }[];
    };
    const item = result.items[0]!;
    expect(item.quantity).toBe('200');
    expect(item.averagePurchasePrice).toBe(
      new Decimal(6_500_000)
        .plus(filledAmount)
        .dividedBy(200)
        .toDecimalPlaces(4, Decimal.ROUND_HALF_UP)
        .toFixed(),
    );
  });
});
