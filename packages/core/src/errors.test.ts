import { describe, expect, it } from 'vitest';
import {
  DecimalParseError,
  describeValue,
  HogaError,
  IllegalTransitionError,
  ValidationError,
} from './errors.js';

describe(HogaError, () => {
  it('keeps code, message, cause and details', () => {
    const cause = new Error('socket closed');
    const error = new HogaError('network-error', 'request failed', { cause, details: { attempt: 2 } });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('HogaError');
    expect(error.code).toBe('network-error');
    expect(error.message).toBe('request failed');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ attempt: 2 });
  });

  it('names subclasses after themselves', () => {
    class ConnectorError extends HogaError {}
    expect(new ConnectorError('x', 'y').name).toBe('ConnectorError');
  });
});

describe(ValidationError, () => {
  it('defaults its code to invalid-value and keeps the field', () => {
    const error = new ValidationError('symbol', 'symbol: expected a ticker');
    expect(error.code).toBe('invalid-value');
    expect(error.field).toBe('symbol');
  });
});

describe(DecimalParseError, () => {
  it('names the field and quotes the value in its message', () => {
    const error = new DecimalParseError('price', '1e5');
    expect(error.message).toBe('price: expected a decimal string like "72100" or "-0.25", found "1e5"');
  });
});

describe(IllegalTransitionError, () => {
  it('names the state and the event', () => {
    const error = new IllegalTransitionError('FILLED', 'OrderCanceled');
    expect(error.message).toContain('FILLED');
    expect(error.message).toContain('OrderCanceled');
  });
});

describe('describeValue', () => {
  it.each([
    ['abc', '"abc"'],
    [5, 'number 5'],
    [null, 'null'],
    [undefined, 'undefined'],
    [[1], 'array'],
    [{ a: 1 }, 'object'],
    ['x'.repeat(100), `"${'x'.repeat(64)}…"`],
  ])('describes %j as %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});
