import DecimalJs from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { DecimalParseError, HogaError, ValidationError } from '../errors.js';
import {
  Decimal,
  decimalOfNumber,
  exactIntOf,
  formatDecimal,
  parseDecimal,
  parseNullableDecimal,
  timesExact,
} from './decimal.js';

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

describe('formatDecimal on safe integers and beyond', () => {
  it.each([
    ['9007199254740991', '9007199254740991'],
    ['9007199254740992', '9007199254740992'],
    ['-9007199254740991', '-9007199254740991'],
    ['10000000', '10000000'],
    ['123456789012345', '123456789012345'],
    ['1e20', '100000000000000000000'],
    ['70000.50', '70000.5'],
  ])('writes %s as %s (the number path and decimal.js agree)', (input, expected) => {
    expect(formatDecimal(new Decimal(input))).toBe(expected);
    expect(formatDecimal(new Decimal(input))).toBe(new Decimal(input).toFixed());
  });
});

describe('exactIntOf', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['72100', 72100],
    ['-72100', -72100],
    ['10000000', 10_000_000],
    ['9007199254740991', 9_007_199_254_740_991],
  ])('reads %s as the number %d', (input, expected) => {
    expect(exactIntOf(new Decimal(input))).toBe(expected);
  });

  it.each(['0.5', '72100.01', '9007199254740992', '1e20', 'NaN', 'Infinity'])('reads %s as NaN', (input) => {
    expect(exactIntOf(new Decimal(input))).toBeNaN();
  });
});

describe('decimalOfNumber', () => {
  it('makes the Decimal of a number, sharing one per safe integer', () => {
    expect(decimalOfNumber(72100).eq(72100)).toBe(true);
    expect(decimalOfNumber(72100)).toBe(decimalOfNumber(72100));
    expect(decimalOfNumber(1.5).toFixed()).toBe('1.5');
    expect(decimalOfNumber(1.5)).not.toBe(decimalOfNumber(1.5));
    expect(decimalOfNumber(2 ** 53).toFixed()).toBe('9007199254740992');
  });

  it('answers the positive 0 for -0 and 0 alike', () => {
    expect(decimalOfNumber(-0).isNegative()).toBe(false);
    expect(decimalOfNumber(0).toFixed()).toBe('0');
  });

  it('stays right past the number of integers it keeps', () => {
    const wrong: number[] = [];
    for (let i = 0; i < 40_000; i++) if (decimalOfNumber(i * 7).toNumber() !== i * 7) wrong.push(i * 7);
    expect(wrong).toEqual([]);
  });
});

describe('timesExact', () => {
  it.each([
    ['53500', '10'],
    ['94906265', '94906265'], // 2^53 is passed: Decimal's product
    ['221.72', '3'],
    ['1.353057', '221.72'],
    ['0', '70000'],
    ['-3', '7'],
  ])('gives the same value as Decimal.times for %s × %s', (a, b) => {
    expect(timesExact(new Decimal(a), new Decimal(b)).toFixed()).toBe(new Decimal(a).times(b).toFixed());
  });
});
