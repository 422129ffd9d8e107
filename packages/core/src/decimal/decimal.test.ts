import DecimalJs from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { DecimalParseError, HogaError, ValidationError } from '../errors.js';
import { Decimal, formatDecimal, parseDecimal, parseNullableDecimal } from './decimal.js';

describe('parseDecimal', () => {
  it.each([
    ['72100', '72100'],
    ['-0.25', '-0.25'],
    ['0', '0'],
    ['0.000001', '0.000001'],
    ['1.50', '1.5'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
  ])('parses %j exactly', (input, expected) => {
    expect(formatDecimal(parseDecimal(input, 'price'))).toBe(expected);
  });

  it.each([
    ['exponent', '1e5'],
    ['empty string', ''],
    ['NaN', 'NaN'],
    ['leading space', ' 1'],
    ['trailing space', '1 '],
    ['trailing dot', '1.'],
    ['leading dot', '.5'],
    ['hex', '0x10'],
    ['Infinity', 'Infinity'],
    ['-Infinity', '-Infinity'],
    ['plus sign', '+1'],
    ['thousands separator', '1,000'],
    ['double minus', '--1'],
    ['number', 5],
    ['null', null],
    ['undefined', undefined],
    ['object', { value: '1' }],
    ['array', ['1']],
    ['boolean', true],
    ['bigint', 1n],
  ])('throws DecimalParseError naming the field when given %s', (_label, input) => {
    let caught: unknown;
    try {
      parseDecimal(input, 'lastPrice');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DecimalParseError);
    expect(caught).toBeInstanceOf(ValidationError);
    expect(caught).toBeInstanceOf(HogaError);
    const error = caught as DecimalParseError;
    expect(error.code).toBe('invalid-decimal');
    expect(error.field).toBe('lastPrice');
    expect(error.value).toBe(input);
    expect(error.message).toContain('lastPrice');
  });

  it('returns instances of the plain decimal.js class when consumers import it themselves', () => {
    const parsed = parseDecimal('1', 'x');
    expect(parsed).toBeInstanceOf(DecimalJs);
    expect(Decimal).toBe(DecimalJs);
  });

  it('divides with 40 significant digits when the result does not terminate', () => {
    const third = new Decimal(1).dividedBy(3);
    expect(third.precision()).toBe(40);
  });
});

describe('parseNullableDecimal', () => {
  it('returns null when the value is null', () => {
    expect(parseNullableDecimal(null, 'upperLimitPrice')).toBeNull();
  });

  it('parses a decimal string when the value is not null', () => {
    expect(parseNullableDecimal('93700', 'upperLimitPrice')?.toFixed()).toBe('93700');
  });

  it('throws naming the field when the value is undefined', () => {
    expect(() => parseNullableDecimal(undefined, 'upperLimitPrice')).toThrow(/upperLimitPrice/);
  });
});

describe('formatDecimal', () => {
  it.each([
    ['1e-7', '0.0000001'],
    ['1e21', '1000000000000000000000'],
    ['-0', '0'],
    ['1.500', '1.5'],
    ['-72100', '-72100'],
  ])('writes %s as %s without an exponent', (input, expected) => {
    expect(formatDecimal(new Decimal(input))).toBe(expected);
  });
});
