import { describe, expect, it } from 'vitest';
import { FaultInjector, globToRegExp } from './faults.js';

describe('globToRegExp', () => {
  it.each([
    ['/api/v1/orders*', '/api/v1/orders', true],
    ['/api/v1/orders*', '/api/v1/orders/abc/cancel', true],
    ['/api/v1/orders', '/api/v1/orders/abc', false],
    ['/api/v1/order?', '/api/v1/orders', true],
    ['/api/v1/prices', '/api/v1/pricesX', false],
    ['/api/v1/a.b', '/api/v1/aXb', false],
    ['*', '/oauth2/token', true],
  ])('matches %s against %s: %s', (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe('FaultInjector', () => {
  describe('.fire', () => {
    it('fires a matching fault until its count is used up', () => {
      const faults = new FaultInjector(7);
      faults.add({ kind: 'internal-error', path: '/api/v1/orders*', method: 'post', count: 2 });
      expect(faults.fire('GET', '/api/v1/orders')).toEqual([]);
      expect(faults.fire('POST', '/api/v1/orders').map((f) => f.kind)).toEqual(['internal-error']);
      expect(faults.fire('POST', '/api/v1/orders/1/cancel')).toHaveLength(1);
      expect(faults.fire('POST', '/api/v1/orders')).toEqual([]);
      expect(faults.list()).toEqual([]);
    });

    it('fires at about the given rate, the same way for the same seed', () => {
      const run = (seed: number): boolean[] => {
        const faults = new FaultInjector(seed);
        faults.add({ kind: 'delay', path: '*', rate: 0.3, delayMs: 1 });
        return Array.from({ length: 1000 }, () => faults.fire('GET', '/x').length > 0);
      };
      const first = run(3);
      expect(run(3)).toEqual(first);
      const hits = first.filter(Boolean).length;
      expect(hits).toBeGreaterThan(230);
      expect(hits).toBeLessThan(370);
    });
  });

  describe('.add', () => {
    it('rejects an unknown kind and a rate above 1', () => {
      const faults = new FaultInjector(1);
      expect(() => faults.add({ kind: 'explode' as 'delay', path: '*' })).toThrow(/kind/);
      expect(() => faults.add({ kind: 'delay', path: '*', rate: 2 })).toThrow();
    });

    it('accepts delay-after-commit with its delayMs', () => {
      const faults = new FaultInjector(1);
      faults.add({
        kind: 'delay-after-commit',
        path: '/api/v1/orders*',
        method: 'post',
        delayMs: 250,
        count: 1,
      });
      expect(faults.fire('POST', '/api/v1/orders/1/modify').map((f) => [f.kind, f.delayMs])).toEqual([
        ['delay-after-commit', 250],
      ]);
      expect(faults.list()).toEqual([]);
    });

    it('gives each fault its own id and lists it', () => {
      const faults = new FaultInjector(1);
      const a = faults.add({ kind: 'maintenance', path: '/a' });
      const b = faults.add({ kind: 'slow-order', path: '/b', delayMs: 500 });
      expect(a).not.toBe(b);
      expect(faults.list().map((f) => [f.id, f.kind, f.delayMs])).toEqual([
        [a, 'maintenance', null],
        [b, 'slow-order', 500],
      ]);
      expect(faults.remove(a)).toBe(true);
      expect(faults.remove(a)).toBe(false);
    });
  });
});
