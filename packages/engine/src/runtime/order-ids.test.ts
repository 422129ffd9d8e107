import { ValidationError } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SequentialOrderIds } from './order-ids.js';

describe('SequentialOrderIds', () => {
  it('numbers the ids of a run from 1 after its prefix', () => {
    const ids = new SequentialOrderIds('bt1a2b3c4d5e6');
    expect([ids.next('s'), ids.next('s'), ids.next('t')]).toEqual([
      'bt1a2b3c4d5e6-1',
      'bt1a2b3c4d5e6-2',
      'bt1a2b3c4d5e6-3',
    ]);
  });

  it('refuses at once a prefix that would make an invalid client order id (checked once, not per id)', () => {
    expect(() => new SequentialOrderIds('run.1')).toThrow(ValidationError);
    expect(() => new SequentialOrderIds('x'.repeat(25))).toThrow(/at most 24 characters/);
    expect(new SequentialOrderIds('x'.repeat(24)).next('s')).toBe(`${'x'.repeat(24)}-1`);
  });
});
