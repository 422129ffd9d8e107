import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { changeSubject, createSubject, ctx, fixtureClock, openOrder } from '../risk-fixture.test-helper.js';
import {
  checkAllowedSymbol,
  checkMaxOpenOrders,
  checkMaxOrderValue,
  checkPositionValue,
  checkUsPriceGrid,
} from './strategy-guards.js';

describe('strategy guards', () => {
  describe('checkUsPriceGrid', () => {
    it.each([
      ['AAPL', '200.005', 'risk-price-off-grid'],
      ['AAPL', '0.12345', 'risk-price-off-grid'],
      ['AAPL', '200.01', 'accepted'],
      ['AAPL', '0.1234', 'accepted'],
      // a KR price is judged by the broker's own tick rule, before the owner's guards
      ['005930', '70000', 'accepted'],
    ])('%s at %s: %s', (symbol, price, expected) => {
      const v = checkUsPriceGrid(ctx(fixtureClock()), createSubject({ symbol, price }));
      expect(v.accepted ? 'accepted' : v.code).toBe(expected);
    });
    it('denies a modify to a price off the grid, and leaves a cancel alone', () => {
      const us = openOrder({ symbol: 'AAPL', market: 'US', currency: 'USD', price: new Decimal('200') });
      const modify = checkUsPriceGrid(ctx(fixtureClock()), changeSubject('modify', us, '200.019'));
      expect(modify).toMatchObject({
        code: 'risk-price-off-grid',
        data: { nearestPrices: ['200.01', '200.02'] },
      });
      const off = { ...us, price: new Decimal('200.005') };
      expect(checkUsPriceGrid(ctx(fixtureClock()), changeSubject('cancel', off)).accepted).toBe(true);
    });
  });

  describe('checkAllowedSymbol', () => {
    it('accepts any symbol when the strategy lists none', () => {
      expect(checkAllowedSymbol(ctx(fixtureClock()), createSubject({ symbol: 'AAPL' }))).toEqual({
        accepted: true,
      });
    });
    it('accepts a listed symbol and denies another, naming the cap', () => {
      const c = ctx(fixtureClock(), { rawConfig: { strategies: { s1: { allowedSymbols: ['005930'] } } } });
      expect(checkAllowedSymbol(c, createSubject({ symbol: '005930' })).accepted).toBe(true);
      const v = checkAllowedSymbol(c, createSubject({ symbol: 'AAPL' }));
      expect(v).toMatchObject({
        accepted: false,
        code: 'risk-symbol-not-allowed',
        data: { cap: 'allowedSymbols' },
      });
    });
    it('lets a cancel of an order in a symbol no longer allowed through', () => {
      const c = ctx(fixtureClock(), { rawConfig: { strategies: { s1: { allowedSymbols: [] } } } });
      expect(checkAllowedSymbol(c, changeSubject('cancel', openOrder())).accepted).toBe(true);
    });
  });

  describe('checkMaxOrderValue', () => {
    it('accepts an order at the maximum (default 30,000,000 KRW)', () => {
      const v = checkMaxOrderValue(ctx(fixtureClock()), createSubject({ quantity: '300', price: '100000' }));
      expect(v.accepted).toBe(true);
    });
    it('denies one won over, USD through the exchange rate', () => {
      const c = ctx(fixtureClock(), { rawConfig: { defaults: { maxOrderValueKrw: '2800000' } } });
      expect(
        checkMaxOrderValue(c, createSubject({ symbol: 'AAPL', quantity: '10', price: '200' })).accepted,
      ).toBe(true);
      const v = checkMaxOrderValue(c, createSubject({ symbol: 'AAPL', quantity: '10', price: '200.01' }));
      expect(v).toMatchObject({
        accepted: false,
        code: 'risk-max-order-value',
        data: { limit: '2800000', valueKrw: '2800140' },
      });
    });
    it('shows a value a fraction of a won over the maximum rounded up, not down to the maximum', () => {
      const c = ctx(fixtureClock(), { rawConfig: { defaults: { maxOrderValueKrw: '2800000' } } });
      // 3 × 666.6667 USD = 2,000.0001 USD = 2,800,000.14 KRW (before: 'worth 2800000 KRW, over … 2800000')
      const v = checkMaxOrderValue(c, createSubject({ symbol: 'AAPL', quantity: '3', price: '666.6667' }));
      expect(v).toMatchObject({
        accepted: false,
        reason: "The order is worth 2,800,001 KRW, over the strategy's maximum of 2,800,000 KRW",
        data: { valueKrw: '2800001' },
      });
    });
    it('checks a modify at its new value', () => {
      const c = ctx(fixtureClock(), { rawConfig: { defaults: { maxOrderValueKrw: '700000' } } });
      expect(checkMaxOrderValue(c, changeSubject('modify', openOrder(), '70000')).accepted).toBe(true);
      expect(checkMaxOrderValue(c, changeSubject('modify', openOrder(), '70100')).accepted).toBe(false);
    });
  });

  describe('checkMaxOpenOrders', () => {
    it('accepts the order that makes the maximum and denies the next', () => {
      const c2 = (n: number) =>
        ctx(fixtureClock(), {
          rawConfig: { strategies: { s1: { maxOpenOrders: 3 } } },
          openOrders: Array.from({ length: n }, (_, i) => openOrder({ clientOrderId: `o-${i}` })),
        });
      expect(checkMaxOpenOrders(c2(2), createSubject()).accepted).toBe(true);
      expect(checkMaxOpenOrders(c2(3), createSubject())).toMatchObject({
        accepted: false,
        code: 'risk-max-open-orders',
        data: { limit: 3, open: 3 },
      });
    });
    it('counts only the strategy own orders, and never stops a modify', () => {
      const c = ctx(fixtureClock(), {
        rawConfig: { strategies: { s1: { maxOpenOrders: 1 } } },
        openOrders: [openOrder({ strategyId: 'other' })],
      });
      expect(checkMaxOpenOrders(c, createSubject()).accepted).toBe(true);
      const full = ctx(fixtureClock(), {
        rawConfig: { strategies: { s1: { maxOpenOrders: 1 } } },
        openOrders: [openOrder()],
      });
      expect(checkMaxOpenOrders(full, changeSubject('modify', openOrder(), '69900')).accepted).toBe(true);
    });
  });

  describe('checkPositionValue', () => {
    const held = { symbol: '005930', currency: 'KRW' as const, quantity: new Decimal(100) };
    it('accepts a buy that brings position plus open buys to the symbol maximum', () => {
      const c = ctx(fixtureClock(), {
        rawConfig: { defaults: { maxPositionValuePerSymbolKrw: '8400000' } },
        positions: [held],
        openOrders: [openOrder()],
      });
      // 7,000,000 held + 700,000 open + 700,000 new = 8,400,000
      expect(checkPositionValue(c, createSubject()).accepted).toBe(true);
      const v = checkPositionValue(c, createSubject({ quantity: '11' }));
      expect(v).toMatchObject({
        accepted: false,
        code: 'risk-max-position-value-symbol',
        data: { valueAfterKrw: '8470000' },
      });
    });
    it('denies past the total maximum across symbols', () => {
      const c = ctx(fixtureClock(), {
        rawConfig: { defaults: { maxTotalPositionValueKrw: '7280000' } },
        positions: [held],
      });
      // 7,000,000 held in 005930, a buy of 1 AAPL at 200 USD = 280,000 KRW
      expect(checkPositionValue(c, createSubject({ symbol: 'AAPL', quantity: '1' })).accepted).toBe(true);
      expect(checkPositionValue(c, createSubject({ symbol: 'AAPL', quantity: '2' }))).toMatchObject({
        accepted: false,
        code: 'risk-max-position-value-total',
      });
    });
    it('lets sells through however large the position, and a modify does not count its own order twice', () => {
      const c = ctx(fixtureClock(), {
        rawConfig: { defaults: { maxPositionValuePerSymbolKrw: '700000' } },
        positions: [held],
        openOrders: [openOrder()],
      });
      expect(checkPositionValue(c, createSubject({ side: 'SELL' })).accepted).toBe(true);
      const noHeld = ctx(fixtureClock(), {
        rawConfig: { defaults: { maxPositionValuePerSymbolKrw: '700000' } },
        openOrders: [openOrder()],
      });
      expect(checkPositionValue(noHeld, changeSubject('modify', openOrder(), '70000')).accepted).toBe(true);
      expect(checkPositionValue(noHeld, changeSubject('modify', openOrder(), '70100')).accepted).toBe(false);
    });
  });
});
