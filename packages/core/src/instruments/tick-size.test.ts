import { describe, expect, it } from 'vitest';
import { Decimal } from '../decimal/decimal.js';
import { ValidationError } from '../errors.js';
import type { Instrument } from './instrument.js';
import { isOnTick, krTickSizeOfNumber, roundToTick, tickSize } from './tick-size.js';

const krStock: Instrument = { symbol: '005930', market: 'KR', currency: 'KRW', securityType: 'STOCK' };
const krEtf: Instrument = { symbol: '069500', market: 'KR', currency: 'KRW', securityType: 'ETF' };
const krEtn: Instrument = { symbol: '500001', market: 'KR', currency: 'KRW', securityType: 'ETN' };
const krUnknownType: Instrument = { symbol: '0088M0', market: 'KR', currency: 'KRW', securityType: 'REIT' };
const usStock: Instrument = { symbol: 'AAPL', market: 'US', currency: 'USD', securityType: 'STOCK' };

// [instrument, price, tick, round down, round up, on tick]
const rows: ReadonlyArray<readonly [string, Instrument, string, string, string, string, boolean]> = [
  ['KR stock', krStock, '1', '1', '1', '1', true],
  ['KR stock', krStock, '1999', '1', '1999', '1999', true],
  ['KR stock', krStock, '1999.5', '1', '1999', '2000', false],
  ['KR stock', krStock, '2000', '5', '2000', '2000', true],
  ['KR stock', krStock, '2001', '5', '2000', '2005', false],
  ['KR stock', krStock, '4995', '5', '4995', '4995', true],
  ['KR stock', krStock, '4999', '5', '4995', '5000', false],
  ['KR stock', krStock, '5000', '10', '5000', '5000', true],
  ['KR stock', krStock, '5005', '10', '5000', '5010', false],
  ['KR stock', krStock, '19990', '10', '19990', '19990', true],
  ['KR stock', krStock, '19999', '10', '19990', '20000', false],
  ['KR stock', krStock, '20000', '50', '20000', '20000', true],
  ['KR stock', krStock, '20010', '50', '20000', '20050', false],
  ['KR stock', krStock, '49950', '50', '49950', '49950', true],
  ['KR stock', krStock, '49999', '50', '49950', '50000', false],
  ['KR stock', krStock, '50000', '100', '50000', '50000', true],
  ['KR stock', krStock, '72150', '100', '72100', '72200', false],
  ['KR stock', krStock, '199900', '100', '199900', '199900', true],
  ['KR stock', krStock, '199999', '100', '199900', '200000', false],
  ['KR stock', krStock, '200000', '500', '200000', '200000', true],
  ['KR stock', krStock, '200100', '500', '200000', '200500', false],
  ['KR stock', krStock, '499500', '500', '499500', '499500', true],
  ['KR stock', krStock, '499999', '500', '499500', '500000', false],
  ['KR stock', krStock, '500000', '1000', '500000', '500000', true],
  ['KR stock', krStock, '500500', '1000', '500000', '501000', false],
  ['KR stock', krStock, '1234000', '1000', '1234000', '1234000', true],
  ['KR unknown type uses stock table', krUnknownType, '49999', '50', '49950', '50000', false],
  ['KR ETF', krEtf, '1999', '5', '1995', '2000', false],
  ['KR ETF', krEtf, '2000', '5', '2000', '2000', true],
  ['KR ETF', krEtf, '72105', '5', '72105', '72105', true],
  ['KR ETF', krEtf, '72103', '5', '72100', '72105', false],
  ['KR ETF', krEtf, '500000', '5', '500000', '500000', true],
  ['KR ETN', krEtn, '4999', '5', '4995', '5000', false],
  ['KR ETN', krEtn, '10005', '5', '10005', '10005', true],
  ['US', usStock, '0.9999', '0.0001', '0.9999', '0.9999', true],
  ['US', usStock, '0.99995', '0.0001', '0.9999', '1', false],
  ['US', usStock, '0.12345', '0.0001', '0.1234', '0.1235', false],
  ['US', usStock, '1.00', '0.01', '1', '1', true],
  ['US', usStock, '1.005', '0.01', '1', '1.01', false],
  ['US', usStock, '123.45', '0.01', '123.45', '123.45', true],
  ['US', usStock, '123.456', '0.01', '123.45', '123.46', false],
];

describe('tickSize', () => {
  it.each(rows)('%s at %s has tick %s', (_label, instrument, price, tick) => {
    expect(tickSize(instrument, new Decimal(price)).toFixed()).toBe(new Decimal(tick).toFixed());
  });

  it('throws a ValidationError naming price when the price is negative', () => {
    expect(() => tickSize(krStock, new Decimal(-1))).toThrow(ValidationError);
    try {
      tickSize(krStock, new Decimal(-1));
    } catch (e) {
      expect((e as ValidationError).field).toBe('price');
    }
  });

  it('throws when the price is not finite', () => {
    expect(() => tickSize(usStock, new Decimal(Number.NaN))).toThrow(ValidationError);
  });
});

describe('krTickSizeOfNumber', () => {
  const kr = rows.filter(([, instrument]) => instrument.market === 'KR');

  it.each(kr)('%s at %s has tick %s, as tickSize says', (_label, instrument, price, tick) => {
    expect(krTickSizeOfNumber(instrument, Number(price))).toBe(Number(tick));
  });

  it('agrees with tickSize at every band edge of the KR tables and on either side of it', () => {
    const edges = [0, 2_000, 5_000, 20_000, 50_000, 200_000, 500_000, 10_000_000];
    for (const instrument of [krStock, krEtf, krEtn, krUnknownType]) {
      for (const edge of edges) {
        for (const price of [edge - 1, edge - 0.5, edge, edge + 0.5, edge + 1].filter((p) => p >= 0)) {
          const expected = tickSize(instrument, new Decimal(price)).toNumber();
          expect(krTickSizeOfNumber(instrument, price), `${instrument.securityType} at ${price}`).toBe(
            expected,
          );
        }
      }
    }
  });

  it('is NaN for US instruments (fractional ticks) and for negative or non-finite prices', () => {
    expect(krTickSizeOfNumber(usStock, 150)).toBeNaN();
    expect(krTickSizeOfNumber(krStock, -1)).toBeNaN();
    expect(krTickSizeOfNumber(krStock, Number.NaN)).toBeNaN();
    expect(krTickSizeOfNumber(krStock, Number.POSITIVE_INFINITY)).toBeNaN();
  });
});

describe('roundToTick', () => {
  it.each(rows)('%s at %s rounds down to %s and up to %s', (_label, instrument, price, _tick, down, up) => {
    expect(roundToTick(instrument, new Decimal(price), 'down').equals(new Decimal(down))).toBe(true);
    expect(roundToTick(instrument, new Decimal(price), 'up').equals(new Decimal(up))).toBe(true);
  });

  it.each(rows)('%s at %s rounds onto a valid price', (_label, instrument, price) => {
    for (const direction of ['up', 'down'] as const) {
      expect(isOnTick(instrument, roundToTick(instrument, new Decimal(price), direction))).toBe(true);
    }
  });
});

describe('isOnTick', () => {
  it.each(rows)('%s at %s: on tick is %s', (_label, instrument, price, _t, _d, _u, onTick) => {
    expect(isOnTick(instrument, new Decimal(price))).toBe(onTick);
  });
});
