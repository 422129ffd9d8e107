/**
 * What a strategy's hook failure says when the strategy threw something that is not an Error (a
 * plain object, a string, a number): the value as it reads in code, never `[object Object]`.
 */
import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from './backtest/backtest-fixture.test-helper.js';
import { StrategyHookError } from './engine-error.js';
import { Strategy } from './strategy/strategy.js';

describe('StrategyHookError', () => {
  const cyclic: { self?: unknown; code: number } = { code: 7 };
  cyclic.self = cyclic;
  it.each([
    ['an object', { code: 42 }, '{ code: 42 }'],
    [
      'a nested object',
      { code: 'E1', data: { field: 'price', values: [1, 2] } },
      "{ code: 'E1', data: { field: 'price', values: [ 1, 2 ] } }",
    ],
    ['a cyclic object', cyclic, '<ref *1> { code: 7, self: [Circular *1] }'],
    ['a string, as it is', 'out of lots', 'out of lots'],
    ['a number', 42, '42'],
    ['a bigint', 10n, '10n'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['an Error, by its message', new RangeError('too far'), 'too far'],
  ])('names %s a hook threw', (_, thrown, shown) => {
    expect(new StrategyHookError('Mine', 'onBar', thrown).message).toBe(
      `strategy Mine threw in onBar: ${shown}`,
    );
  });

  it('is what a backtest whose strategy throws a plain object fails with', async () => {
    class ThrowsObject extends Strategy {
      override onBar(_bar: Bar): void {
        throw { code: 42, reason: 'no lot' };
      }
    }
    const { outcome } = await backtestBars([{ strategyClass: ThrowsObject }], minuteBars('005930', [70000]));
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toBe(
      "strategy ThrowsObject threw in onBar: { code: 42, reason: 'no lot' }",
    );
  });
});
