import { Decimal, instrumentOf, SecurityType } from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { krPriceLimits, krPriceLimitsOfNumber } from './price-limits.js';

const STOCK = instrumentOf('005930');
const ETF = instrumentOf('069500', SecurityType.ETF);

/** The Decimal version's limits, as numbers. */
function inDecimals(instrument: typeof STOCK, reference: number) {
  const { upper, lower } = krPriceLimits(instrument, new Decimal(reference));
  return { upper: upper.toNumber(), lower: lower.toNumber() };
}

describe('krPriceLimitsOfNumber', () => {
  it('answers the Decimal version’s limits for every whole-won reference (stocks and ETFs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.boolean(), (reference, etf) => {
        const instrument = etf ? ETF : STOCK;
        expect(krPriceLimitsOfNumber(instrument, reference)).toEqual(inDecimals(instrument, reference));
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers them around every tick band’s bounds, where the rounding changes ticks', () => {
    // references whose ×1.3 or ×0.7 lands within a few won of a band bound (2,000 … 500,000)
    for (const bound of [2_000, 5_000, 20_000, 50_000, 200_000, 500_000]) {
      for (const rate of [1.3, 0.7]) {
        const centre = Math.round(bound / rate);
        for (let reference = centre - 50; reference <= centre + 50; reference++) {
          expect(krPriceLimitsOfNumber(STOCK, reference), `${reference}`).toEqual(
            inDecimals(STOCK, reference),
          );
        }
      }
    }
    expect(krPriceLimitsOfNumber(STOCK, 72_100)).toEqual({ upper: 93_700, lower: 50_500 });
  });

  it('leaves a reference that is not a positive whole number of won to the Decimal version', () => {
    for (const reference of [0, -100, 70_000.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(krPriceLimitsOfNumber(STOCK, reference)).toBeNull();
    }
  });
});
