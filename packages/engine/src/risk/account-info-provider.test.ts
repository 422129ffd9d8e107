import { Decimal, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { AccountInfoProvider, type AccountInfoSource } from './account-info-provider.js';
import { T0 } from './risk-fixture.test-helper.js';

/** An account whose figures the test sets; counts the reads. */
class FixedAccount implements AccountInfoSource {
  cash = new Decimal(1_000_000);
  shares = new Decimal(10);
  async getBuyingPower(): Promise<{ cashBuyingPower: Decimal }> {
    return { cashBuyingPower: this.cash };
  }
  async getSellableQuantity(): Promise<{ sellableQuantity: Decimal }> {
    return { sellableQuantity: this.shares };
  }
}

describe(AccountInfoProvider, () => {
  describe('.refresh', () => {
    it('reads before the first order and again only when the figures are older than the age', async () => {
      const clock = new VirtualClock(T0);
      const source = new FixedAccount();
      const provider = new AccountInfoProvider(source, clock, 5_000);
      await provider.refresh('KRW', '005930');
      expect(provider.reads).toBe(2);
      source.cash = new Decimal(500_000);
      clock.advance(5_000);
      await provider.refresh('KRW', '005930');
      expect(provider.reads).toBe(2);
      expect(provider.cashBuyingPower('KRW')?.toFixed()).toBe('1000000');
      clock.advance(1);
      await provider.refresh('KRW', null);
      expect(provider.reads).toBe(3);
      expect(provider.cashBuyingPower('KRW')?.toFixed()).toBe('500000');
    });
    it('makes one read for concurrent refreshes of the same figure', async () => {
      const provider = new AccountInfoProvider(new FixedAccount(), new VirtualClock(T0), 5_000);
      await Promise.all([provider.refresh('USD', null), provider.refresh('USD', null)]);
      expect(provider.reads).toBe(1);
    });
  });

  describe('.forget', () => {
    it('makes the next refresh re-read, and leaves the figures to a check prepared before it', async () => {
      const clock = new VirtualClock(T0);
      const source = new FixedAccount();
      const provider = new AccountInfoProvider(source, clock, 5_000);
      await provider.refresh('USD', 'AAPL');
      // an order's event between another order's refresh and its check (paper: a rejection
      // booked at once) left that check with no figures: denied risk-account-data-missing
      provider.forget('USD', 'AAPL');
      expect(provider.cashBuyingPower('USD')?.toFixed()).toBe('1000000');
      expect(provider.sellableQuantity('AAPL')?.toFixed()).toBe('10');
      source.cash = new Decimal(400_000);
      await provider.refresh('USD', 'AAPL');
      expect(provider.reads).toBe(4);
      expect(provider.cashBuyingPower('USD')?.toFixed()).toBe('400000');
    });
  });

  describe('.reserve', () => {
    it('takes an accepted buy (with commission) and sell from the cached figures until the next read', async () => {
      const provider = new AccountInfoProvider(new FixedAccount(), new VirtualClock(T0), 5_000);
      await provider.refresh('KRW', '005930');
      const order = {
        symbol: '005930',
        currency: 'KRW' as const,
        price: new Decimal(60_000),
        quantity: new Decimal(10),
        orderAmount: null,
        filledQuantity: new Decimal(0),
        filledAmount: new Decimal(0),
        reservePrice: new Decimal(60_000),
      };
      provider.reserve({ ...order, side: 'BUY' });
      expect(provider.cashBuyingPower('KRW')?.toFixed()).toBe('399910'); // 600,000 + 90 commission
      provider.reserve({ ...order, side: 'SELL', quantity: new Decimal(4) });
      expect(provider.sellableQuantity('005930')?.toFixed()).toBe('6');
    });
  });
});
