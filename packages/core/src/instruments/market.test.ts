import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { instrumentOf } from './instrument.js';
import { currencyOf, marketOfSymbol } from './market.js';

describe('marketOfSymbol', () => {
  it.each([
    ['005930', 'KR'],
    ['0088M0', 'KR'],
    ['069500', 'KR'],
    ['AAPL', 'US'],
    ['BRK.B', 'US'],
    ['TSLA', 'US'],
    ['ABCDEF', 'US'],
    ['00593', 'US'],
    ['0059300', 'US'],
  ])('maps %s to %s', (symbol, market) => {
    expect(marketOfSymbol(symbol)).toBe(market);
  });

  it('throws a ValidationError naming symbol when the symbol is empty', () => {
    expect(() => marketOfSymbol('')).toThrow(ValidationError);
  });
});

describe('currencyOf', () => {
  it.each([
    ['KR', 'KRW'],
    ['US', 'USD'],
  ] as const)('maps %s to %s', (market, currency) => {
    expect(currencyOf(market)).toBe(currency);
  });
});

describe('instrumentOf', () => {
  it('infers market and currency from the symbol', () => {
    expect(instrumentOf('AAPL', 'STOCK', 'Apple')).toEqual({
      symbol: 'AAPL',
      market: 'US',
      currency: 'USD',
      securityType: 'STOCK',
      name: 'Apple',
    });
  });

  it('defaults to STOCK and leaves name out when not given', () => {
    expect(instrumentOf('005930')).toEqual({
      symbol: '005930',
      market: 'KR',
      currency: 'KRW',
      securityType: 'STOCK',
    });
  });
});
