import { describe, expect, it } from 'vitest';
import { simSetup } from './sim-fixture.test-helper.js';

describe('Brokerage', () => {
  describe('.buyingPower', () => {
    it.each([
      ['KRW', 1, '50000000'],
      ['USD', 1, '20000'],
      ['USD', 2, '50'],
    ])('answers the cash buying power in %s of account %s', (currency, account, expected) => {
      const { brokerage } = simSetup();
      expect(brokerage.buyingPower(account, new URLSearchParams(`currency=${currency}`))).toEqual({
        currency,
        cashBuyingPower: expected,
      });
    });

    it.each(['', 'currency=EUR', 'currency=krw'])('answers 400 with the allowed values for "%s"', (query) => {
      const { brokerage } = simSetup();
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
      const { brokerage, market, clock } = simSetup();
      const upper = market.priceLimits('000660', clock.now())!.upper.toFixed();
      await brokerage.createOrder(1, {
        symbol: '000660',
        side: 'SELL',
        orderType: 'LIMIT',
        quantity: '5',
        price: upper,
      });
      expect(brokerage.sellableQuantity(1, new URLSearchParams('symbol=000660'))).toEqual({
        sellableQuantity: '15',
      });
      expect(brokerage.sellableQuantity(1, new URLSearchParams('symbol=nvda'))).toEqual({
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
      const { brokerage } = simSetup();
      expect(() => brokerage.sellableQuantity(1, new URLSearchParams(query))).toThrow(
        expect.objectContaining({ status, code }),
      );
    });
  });

  describe('.commissions', () => {
    it('answers decimal-fraction rates per market', () => {
      const { brokerage } = simSetup();
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
      const { brokerage } = simSetup();
      expect(() => brokerage.requireAccount(header)).toThrow(expect.objectContaining({ status, code }));
    });

    it('resolves a known account and lists the accounts', () => {
      const { brokerage } = simSetup();
      expect(brokerage.requireAccount('2')).toBe(2);
      expect(brokerage.accounts()).toEqual([
        { accountNo: '12345678901', accountSeq: 1, accountType: 'BROKERAGE' },
        { accountNo: '12345678902', accountSeq: 2, accountType: 'BROKERAGE' },
      ]);
    });
  });
});
