import { VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { Brokerage } from './brokerage.js';
import { KR_MORNING, MarketDouble } from './market-double.test-helper.js';

function setup() {
  const clock = new VirtualClock(KR_MORNING);
  const market = new MarketDouble(clock);
  market.references.set('005930', market.lastPrice('005930').minus(1000));
  const brokerage = new Brokerage({ market, clock, seed: 7 });
  return { clock, market, brokerage };
}

describe('holdingsPayload', () => {
  it('values each item at the last price with P/L, daily P/L and the cost of a sale', () => {
    const { brokerage } = setup();
    const result = brokerage.holdings(1, new URLSearchParams('symbol=005930')) as {
      items: unknown[];
      totalPurchaseAmount: unknown;
      profitLoss: unknown;
    };
    // 100 × 72000 = 7,200,000; purchase 100 × 65000; commission floor(7,200,000 × 0.00015) = 1080; tax 10,800
    expect(result.items).toEqual([
      {
        symbol: '005930',
        name: '005930',
        marketCountry: 'KR',
        currency: 'KRW',
        quantity: '100',
        lastPrice: '72000',
        averagePurchasePrice: '65000',
        marketValue: { purchaseAmount: '6500000', amount: '7200000', amountAfterCost: '7188120' },
        profitLoss: { amount: '700000', amountAfterCost: '688120', rate: '0.1077', rateAfterCost: '0.1059' },
        dailyProfitLoss: { amount: '100000', rate: '0.0141' },
        cost: { commission: '1080', tax: '10800' },
      },
    ]);
    expect(result.totalPurchaseAmount).toEqual({ krw: '6500000', usd: null });
    expect(result.profitLoss).toEqual({
      amount: { krw: '700000', usd: null },
      amountAfterCost: { krw: '688120', usd: null },
      rate: '0.1077',
      rateAfterCost: '0.1059',
    });
  });

  it('sums per currency and rates the whole on a KRW-converted basis', () => {
    const { brokerage } = setup();
    const result = brokerage.holdings(1, new URLSearchParams()) as {
      items: { symbol: string; currency: string; profitLoss: { amount: string } }[];
      totalPurchaseAmount: { krw: string; usd: string };
      profitLoss: { amount: { krw: string; usd: string }; rate: string };
    };
    expect(result.items.map((i) => i.symbol)).toEqual(['005930', '000660', 'AAPL', 'NVDA']);
    // KRW: 100 × 65000 + 20 × 180000; USD: 10 × 155.3 + 5.5 × 120.25
    expect(result.totalPurchaseAmount).toEqual({ krw: '10100000', usd: '2214.38' });
    const plUsd = 10 * 180 + 5.5 * 130 - 2214.38;
    expect(result.profitLoss.amount).toEqual({ krw: '700000', usd: plUsd.toFixed(2) });
    const expected = (700000 + plUsd * 1400) / (10100000 + 2214.38 * 1400);
    expect(Number(result.profitLoss.rate)).toBeCloseTo(expected, 4);
  });

  it('answers empty sums for a symbol not held', () => {
    const { brokerage } = setup();
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
    const { brokerage } = setup();
    expect(() => brokerage.holdings(1, new URLSearchParams('symbol=a b'))).toThrow(SimApiError);
  });
});

describe('Brokerage', () => {
  describe('.buyingPower', () => {
    it.each([
      ['KRW', 1, '50000000'],
      ['USD', 1, '20000'],
      ['USD', 2, '50'],
    ])('answers the cash buying power in %s of account %s', (currency, account, expected) => {
      const { brokerage } = setup();
      expect(brokerage.buyingPower(account, new URLSearchParams(`currency=${currency}`))).toEqual({
        currency,
        cashBuyingPower: expected,
      });
    });

    it.each(['', 'currency=EUR', 'currency=krw'])('answers 400 with the allowed values for "%s"', (query) => {
      const { brokerage } = setup();
      try {
        brokerage.buyingPower(1, new URLSearchParams(query));
        throw new Error('expected a rejection');
      } catch (error) {
        expect(error).toMatchObject({
          status: 400,
          code: 'invalid-request',
          data: { field: 'currency', allowedValues: ['KRW', 'USD'] },
        });
      }
    });
  });

  describe('.sellableQuantity', () => {
    it('answers the holding minus open sells, and 0 for a known stock not held', async () => {
      const { brokerage } = setup();
      await brokerage.createOrder(1, {
        symbol: '000660',
        side: 'SELL',
        orderType: 'LIMIT',
        quantity: '5',
        price: '200000',
      });
      expect(brokerage.sellableQuantity(1, new URLSearchParams('symbol=000660'))).toEqual({
        sellableQuantity: '15',
      });
      expect(brokerage.sellableQuantity(1, new URLSearchParams('symbol=NVDA'))).toEqual({
        sellableQuantity: '5.5',
      });
      expect(brokerage.sellableQuantity(1, new URLSearchParams('symbol=069500'))).toEqual({
        sellableQuantity: '0',
      });
    });

    it.each([
      ['', 400, 'invalid-request'],
      ['symbol=ZZZZ', 404, 'stock-not-found'],
    ])('rejects "%s" with %s %s', (query, status, code) => {
      const { brokerage } = setup();
      expect(() => brokerage.sellableQuantity(1, new URLSearchParams(query))).toThrow(
        expect.objectContaining({ status, code }),
      );
    });
  });

  describe('.commissions', () => {
    it('answers decimal-fraction rates per market', () => {
      const { brokerage } = setup();
      expect(brokerage.commissions(1)).toEqual([
        { marketCountry: 'KR', commissionRate: '0.00015', startDate: '2026-01-01', endDate: '2027-12-31' },
        { marketCountry: 'US', commissionRate: '0.001', startDate: null, endDate: null },
      ]);
    });
  });

  describe('.requireAccount', () => {
    it.each([
      [undefined, 400, 'account-header-required'],
      ['', 400, 'account-header-required'],
      ['3', 404, 'account-not-found'],
      ['one', 404, 'account-not-found'],
      ['1.0', 404, 'account-not-found'],
    ])('rejects the header %j with %s %s', (header, status, code) => {
      const { brokerage } = setup();
      expect(() => brokerage.requireAccount(header)).toThrow(expect.objectContaining({ status, code }));
    });

    it('resolves a known account and lists the accounts', () => {
      const { brokerage } = setup();
      expect(brokerage.requireAccount('2')).toBe(2);
      expect(brokerage.accounts()).toEqual([
        { accountNo: '12345678901', accountSeq: 1, accountType: 'BROKERAGE' },
        { accountNo: '12345678902', accountSeq: 2, accountType: 'BROKERAGE' },
      ]);
    });
  });
});
