/**
 * The order of the checks on order creation, over HTTP: request validation
 * (400) before business rules (422), and business rules before buying power.
 * Each pair below sends one request that breaks two rules and shows which
 * answer wins, beside a control request that breaks only the later rule (so
 * the later rule is known to fire on its own).
 */
import { describe, expect, it } from 'vitest';
import { limits, useSimulators } from './conformance-kit.js';
import { krLimit } from './kr-orders.test-helper.js';
import { KR_OPEN, outcome, TestClient } from './sim-client.js';

/** Sunday 2026-11-22 10:00 KST: no market takes orders. */
const SUNDAY = '2026-11-22T10:00:00+09:00';

const withSim = useSimulators();

const krLimitBuy = (price: string, quantity: string) => krLimit('BUY', quantity, price);

describe('order creation check order', () => {
  describe('request validation (400) before business rules (422)', () => {
    it('answers 400 for a KR price off the tick grid even when the market is closed', async () => {
      const { client } = await withSim({ start: SUNDAY });
      const valid = await client.post('/api/v1/orders', krLimitBuy('65000', '1'));
      expect(outcome(valid)).toBe('422 order-hours-closed');
      const offTick = await client.post('/api/v1/orders', krLimitBuy('65050', '1'));
      expect(outcome(offTick)).toBe('400 invalid-request');
      expect(offTick.body.error.data.field).toBe('price');
    });

    it('answers 400 confirm-high-value-required even when the market is closed', async () => {
      const { client } = await withSim({ start: SUNDAY });
      const res = await client.post('/api/v1/orders', krLimitBuy('65000', '2000'));
      expect(outcome(res)).toBe('400 confirm-high-value-required');
    });

    it('answers 400 for a fractional KR quantity on a suspended stock', async () => {
      const { client } = await withSim({ start: KR_OPEN });
      const { lower } = await limits(client, '900110');
      const body = { symbol: '900110', side: 'BUY', orderType: 'LIMIT', price: lower.toFixed() };
      expect(outcome(await client.post('/api/v1/orders', { ...body, quantity: '1' }))).toBe(
        '422 stock-restricted',
      );
      expect(outcome(await client.post('/api/v1/orders', { ...body, quantity: '1.5' }))).toBe(
        '400 invalid-request',
      );
    });
  });

  describe('business rules (422) before buying power', () => {
    it('answers the rule, not insufficient-buying-power, for an account that cannot pay', async () => {
      const { sim } = await withSim({ start: KR_OPEN });
      const poor = new TestClient(sim.url, '2');
      const { upper, lower } = await limits(poor, '005930');
      const cannotPay = await poor.post('/api/v1/orders', krLimitBuy(lower.toFixed(), '100'));
      expect(outcome(cannotPay)).toBe('422 insufficient-buying-power');
      const aboveLimit = await poor.post('/api/v1/orders', krLimitBuy(upper.plus(100).toFixed(), '100'));
      expect(outcome(aboveLimit)).toBe('422 price-out-of-range');
      // US day market is open at 10:00 KST; account 2 holds $50, far from 100 SOXL.
      const soxl = await poor.post('/api/v1/orders', {
        symbol: 'SOXL',
        side: 'BUY',
        orderType: 'LIMIT',
        price: '40.00',
        quantity: '100',
      });
      expect(outcome(soxl)).toBe('422 prerequisite-required');
    });

    it('answers the opposite-side rule before the sellable quantity', async () => {
      const { client } = await withSim({ start: KR_OPEN });
      const { lower, upper } = await limits(client, '005930');
      const buy = await client.post('/api/v1/orders', krLimitBuy(lower.toFixed(), '1'));
      expect(outcome(buy)).toBe('200');
      // Account 1 holds 100 005930: selling 1,000 is beyond the sellable quantity.
      const sell = await client.post('/api/v1/orders', {
        symbol: '005930',
        side: 'SELL',
        orderType: 'LIMIT',
        price: upper.toFixed(),
        quantity: '1000',
      });
      expect(outcome(sell)).toBe('422 opposite-pending-order-exists');
    });
  });
});
