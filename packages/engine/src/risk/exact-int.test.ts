import { Decimal, exactIntOf } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { addExact, mulExact, subExact } from './exact-int.js';

describe(exactIntOf, () => {
  it('reads whole numbers within ±(2^53 − 1) as numbers, across decimal.js words', () => {
    for (const text of [
      '0',
      '1',
      '-1',
      '9999999',
      '10000000',
      '10000001',
      '-70000',
      '12345678901234',
      '100000000000000',
    ]) {
      expect(exactIntOf(new Decimal(text))).toBe(Number(text));
    }
    expect(exactIntOf(new Decimal('9007199254740991'))).toBe(Number.MAX_SAFE_INTEGER);
    expect(exactIntOf(new Decimal('-9007199254740991'))).toBe(-Number.MAX_SAFE_INTEGER);
    // results of arithmetic, not only parsed text
    expect(exactIntOf(new Decimal('0.5').times(4))).toBe(2);
    expect(exactIntOf(new Decimal(189800).times(10).minus(300))).toBe(1_897_700);
  });

  it('is NaN for fractions, values past the safe range, NaN and infinities', () => {
    for (const text of [
      '0.5',
      '-0.5',
      '1.5',
      '123456789.0000001',
      '1e-7',
      '9007199254740992',
      '-9007199254740992',
      '1e16',
      '1e20',
      'NaN',
      'Infinity',
      '-Infinity',
    ]) {
      expect(exactIntOf(new Decimal(text))).toBeNaN();
    }
  });

  it('agrees with Decimal on a sweep of integers and fractions', () => {
    for (let digits = 0; digits <= 17; digits++) {
      for (const lead of ['1', '7', '9']) {
        const whole = new Decimal(`${lead}${'0'.repeat(digits)}`).minus(1);
        for (const x of [whole, whole.negated(), whole.plus('0.25'), whole.plus(1)]) {
          const expected =
            x.isInteger() && x.abs().lte(Number.MAX_SAFE_INTEGER) ? Number(x.toFixed()) : Number.NaN;
          expect(exactIntOf(x)).toBe(expected);
        }
      }
    }
  });
});

describe('exact operations', () => {
  it('are NaN once a result (or an operand) leaves the safe integers', () => {
    expect(addExact(Number.MAX_SAFE_INTEGER - 1, 1)).toBe(Number.MAX_SAFE_INTEGER);
    expect(addExact(Number.MAX_SAFE_INTEGER, 1)).toBeNaN();
    expect(subExact(-Number.MAX_SAFE_INTEGER, 1)).toBeNaN();
    expect(subExact(5, 7)).toBe(-2);
    expect(mulExact(94_906_265, 94_906_265)).toBe(9_007_199_136_250_225);
    expect(mulExact(94_906_267, 94_906_267)).toBeNaN();
    expect(addExact(Number.NaN, 1)).toBeNaN();
    expect(mulExact(3, Number.NaN)).toBeNaN();
  });
});
