import { describe, expect, it } from 'vitest';
import { Router } from './router.js';

const routes = [
  { method: 'GET', pattern: '/api/v1/orders', name: 'list' },
  { method: 'POST', pattern: '/api/v1/orders', name: 'create' },
  { method: 'GET', pattern: '/api/v1/orders/{orderId}', name: 'detail' },
  { method: 'POST', pattern: '/api/v1/orders/{orderId}/cancel', name: 'cancel' },
  { method: 'GET', pattern: '/api/v1/stocks/{symbol}/warnings', name: 'warnings' },
] as const;

describe('Router', () => {
  describe('.match', () => {
    it.each([
      ['GET', '/api/v1/orders', 'list', {}],
      ['POST', '/api/v1/orders', 'create', {}],
      ['GET', '/api/v1/orders/42', 'detail', { orderId: '42' }],
      ['POST', '/api/v1/orders/a%2Fb/cancel', 'cancel', { orderId: 'a/b' }],
      ['GET', '/api/v1/stocks/BRK.B/warnings', 'warnings', { symbol: 'BRK.B' }],
    ])('routes %s %s to %s', (method, path, name, params) => {
      const match = new Router(routes).match(method, path);
      expect(match?.route.name).toBe(name);
      expect(match?.params).toEqual(params);
    });

    it.each([
      ['DELETE', '/api/v1/orders'],
      ['GET', '/api/v1/orders/'],
      ['GET', '/api/v1/order'],
      ['GET', '/api/v1/orders/%E0%A4%A/x'],
      ['POST', '/api/v1/orders/1/cancel/x'],
    ])('finds nothing for %s %s', (method, path) => {
      expect(new Router(routes).match(method, path)).toBeUndefined();
    });
  });
});
