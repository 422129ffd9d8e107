import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { brokerOrderId, clientOrderId, newClientOrderId, newEventId, strategyId } from './ids.js';

const VALID_CLIENT_ORDER_ID = /^[A-Za-z0-9_-]{1,36}$/;

describe('newClientOrderId', () => {
  it('returns distinct valid ids when called twice', () => {
    const a = newClientOrderId();
    const b = newClientOrderId();
    expect(a).toMatch(VALID_CLIENT_ORDER_ID);
    expect(b).toMatch(VALID_CLIENT_ORDER_ID);
    expect(a).not.toBe(b);
  });

  it.each([['s'], ['momentum_kr1'], ['abcdefghijkl']])('keeps prefix %s within 36 characters', (prefix) => {
    const id = newClientOrderId(prefix);
    expect(id.startsWith(`${prefix}-`)).toBe(true);
    expect(id).toMatch(VALID_CLIENT_ORDER_ID);
    expect(id.length).toBeLessThanOrEqual(36);
    expect(id.length - prefix.length - 1).toBeGreaterThanOrEqual(23);
  });

  it.each([[''], ['has space'], ['toolongprefix1']])(
    'throws a ValidationError when the prefix is %j',
    (prefix) => {
      expect(() => newClientOrderId(prefix)).toThrow(ValidationError);
    },
  );
});

describe('clientOrderId', () => {
  it('accepts 36 characters of the allowed alphabet', () => {
    expect(clientOrderId(`${'A'.repeat(30)}_-0123`)).toHaveLength(36);
  });

  it.each([[''], ['a'.repeat(37)], ['a.b'], ['ü'], [42], [null]])(
    'throws naming clientOrderId when given %j',
    (value) => {
      let caught: unknown;
      try {
        clientOrderId(value);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ValidationError);
      expect((caught as ValidationError).field).toBe('clientOrderId');
      expect((caught as ValidationError).code).toBe('invalid-client-order-id');
    },
  );
});

describe('brokerOrderId', () => {
  it('accepts a non-empty string', () => {
    expect(brokerOrderId('ord-1')).toBe('ord-1');
  });

  it.each([[''], [7], [undefined]])('throws when given %j', (value) => {
    expect(() => brokerOrderId(value)).toThrow(ValidationError);
  });
});

describe('strategyId', () => {
  it('accepts dotted names', () => {
    expect(strategyId('sma.cross-1')).toBe('sma.cross-1');
  });

  it('throws when the id has spaces', () => {
    expect(() => strategyId('sma cross')).toThrow(/strategyId/);
  });
});

describe('newEventId', () => {
  it('returns distinct ids', () => {
    expect(newEventId()).not.toBe(newEventId());
  });
});
