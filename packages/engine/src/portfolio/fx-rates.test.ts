import { describe, expect, it } from 'vitest';
import { FixedFxRates, LatestFxRates, SteppedFxRates } from './fx-rates.js';

const DAY = 86_400_000;

describe('SteppedFxRates', () => {
  it('answers the rate valid at each instant: from its time until the next, the first before it', () => {
    const fx = new SteppedFxRates([
      [3 * DAY, 1350],
      [DAY, 1300],
      [5 * DAY, 1400],
    ]);
    // any order of asking: forwards, then back in time, then forwards again
    const at = [0, DAY - 1, DAY, 3 * DAY - 1, 3 * DAY, 4 * DAY, 5 * DAY, 9 * DAY, 2 * DAY, 0, 6 * DAY];
    expect(at.map((t) => fx.usdKrwAt(t))).toEqual([
      1300, 1300, 1300, 1300, 1350, 1350, 1400, 1400, 1300, 1300, 1400,
    ]);
  });

  it('refuses no rate, and a rate that is not a positive number, naming it (before: taken, USD valued at 0 or NaN KRW)', () => {
    expect(() => new SteppedFxRates([])).toThrow(RangeError);
    expect(
      () =>
        new SteppedFxRates([
          [DAY, 1300],
          [2 * DAY, 0],
        ]),
    ).toThrow('usdKrw: expected a positive rate, found 0');
    expect(() => new SteppedFxRates([[DAY, Number.NaN]])).toThrow(
      'usdKrw: expected a positive rate, found NaN',
    );
    expect(() => new SteppedFxRates([[Number.NaN, 1300]])).toThrow(RangeError);
  });
});

describe('FixedFxRates and LatestFxRates', () => {
  it('refuse a rate that is not a positive number', () => {
    expect(() => new FixedFxRates(-1)).toThrow('usdKrw: expected a positive rate, found -1');
    const latest = new LatestFxRates(1300);
    expect(() => latest.set(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    latest.set(1400);
    expect(latest.usdKrwAt(0)).toBe(1400);
  });
});
