import { Decimal, VirtualClock } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SimApiError } from '../api-error.js';
import { SimMarket } from '../market/sim-market.js';
import { checkPrice, parseCreateOrder } from './order-validation.js';

const market = new SimMarket({ seed: 7, clock: new VirtualClock('2026-11-23T10:00:00+09:00') });

function rejection(body: unknown): SimApiError {
  try {
    parseCreateOrder(market, body);
  } catch (error) {
    if (error instanceof SimApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const kr = { symbol: '005930', side: 'BUY', orderType: 'LIMIT', quantity: '10', price: '72000' };
const usSell = { symbol: 'AAPL', side: 'SELL', orderType: 'MARKET', quantity: '1' };

describe('parseCreateOrder', () => {
  it.each([
    ['a non-object body', null, 'body'],
    ['an array body', [], 'body'],
    ['a missing symbol', { ...kr, symbol: undefined }, 'symbol'],
    ['a symbol with bad characters', { ...kr, symbol: '005 930' }, 'symbol'],
    ['a bad side', { ...kr, side: 'HOLD' }, 'side'],
    ['a bad orderType', { ...kr, orderType: 'STOP' }, 'orderType'],
    ['timeInForce OPG', { ...kr, timeInForce: 'OPG' }, 'timeInForce'],
    ['a numeric quantity', { ...kr, quantity: 10 }, 'quantity'],
    ['a negative quantity', { ...kr, quantity: '-1' }, 'quantity'],
    ['a zero quantity', { ...kr, quantity: '0' }, 'quantity'],
    ['an exponent quantity', { ...kr, quantity: '1e3' }, 'quantity'],
    ['neither quantity nor orderAmount', { ...kr, quantity: undefined }, 'quantity,orderAmount'],
    ['both quantity and orderAmount', { ...kr, orderAmount: '100' }, 'quantity,orderAmount'],
    ['a LIMIT order without price', { ...kr, price: undefined }, 'price'],
    ['a MARKET order with price', { ...kr, orderType: 'MARKET' }, 'price'],
    ['a zero price', { ...kr, price: '0' }, 'price'],
    ['a fractional KR quantity', { ...kr, quantity: '1.5' }, 'quantity'],
    [
      'a fractional US limit',
      { symbol: 'AAPL', side: 'SELL', orderType: 'LIMIT', quantity: '0.5', price: '180' },
      'quantity',
    ],
    ['a fractional US market buy', { ...usSell, side: 'BUY', quantity: '0.5' }, 'quantity'],
    ['a US market sell with 7 decimals', { ...usSell, quantity: '0.1234567' }, 'quantity'],
    [
      'an amount order on a limit',
      { symbol: 'AAPL', side: 'BUY', orderType: 'LIMIT', orderAmount: '100', price: '1' },
      'orderAmount',
    ],
    [
      'an amount order on a KR stock',
      { symbol: '005930', side: 'BUY', orderType: 'MARKET', orderAmount: '100' },
      'orderAmount',
    ],
    [
      'an amount with 3 decimals',
      { symbol: 'AAPL', side: 'BUY', orderType: 'MARKET', orderAmount: '1.005' },
      'orderAmount',
    ],
    ['CLS on a KR order', { ...kr, timeInForce: 'CLS' }, 'timeInForce'],
    ['CLS on a US market order', { ...usSell, timeInForce: 'CLS' }, 'timeInForce'],
    ['a clientOrderId of 37 characters', { ...kr, clientOrderId: 'x'.repeat(37) }, 'clientOrderId'],
    ['a clientOrderId with a dot', { ...kr, clientOrderId: 'a.b' }, 'clientOrderId'],
    ['a non-boolean confirmHighValueOrder', { ...kr, confirmHighValueOrder: 'yes' }, 'confirmHighValueOrder'],
    ['a KR price off the tick grid', { ...kr, price: '72050' }, 'price'],
  ])('answers 400 invalid-request naming the field for %s', (_label, body, field) => {
    const error = rejection(body);
    expect([error.status, error.code, error.data?.field]).toEqual([400, 'invalid-request', field]);
  });

  it('names the allowed values of an enum field', () => {
    expect(rejection({ ...kr, side: 'HOLD' }).data?.allowedValues).toEqual(['BUY', 'SELL']);
  });

  it('answers 404 stock-not-found for an unknown symbol', () => {
    const error = rejection({ ...kr, symbol: '999999' });
    expect([error.status, error.code]).toEqual([404, 'stock-not-found']);
  });

  it('accepts a US market sell of 6 decimals and keeps the clientOrderId', () => {
    const intent = parseCreateOrder(market, { ...usSell, quantity: '0.123456', clientOrderId: 'My_id-1' });
    expect(intent.quantity?.toFixed()).toBe('0.123456');
    expect(intent.clientOrderId).toBe('My_id-1');
    expect(intent.timeInForce).toBe('DAY');
  });

  it('gives the same fingerprint for the same content in another key order', () => {
    const a = parseCreateOrder(market, { ...kr, clientOrderId: 'k' });
    const b = parseCreateOrder(market, {
      clientOrderId: 'k',
      price: '72000',
      quantity: '10',
      orderType: 'LIMIT',
      side: 'BUY',
      symbol: '005930',
    });
    const c = parseCreateOrder(market, { ...kr, clientOrderId: 'k', quantity: '11' });
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.fingerprint).not.toBe(c.fingerprint);
  });
});

describe('checkPrice', () => {
  const kr005930 = market.instrument('005930')!;
  const etf = market.instrument('069500')!;
  const aapl = market.instrument('AAPL')!;

  it.each([
    ['72050', '100', '72000', '72100'],
    ['1999.5', '1', '1999', '2000'],
    ['4999', '5', '4995', '5000'],
    ['19995', '10', '19990', '20000'],
  ])('puts the valid ticks around the KR price %s in data', (price, tick, lower, upper) => {
    try {
      checkPrice(kr005930, new Decimal(price));
      throw new Error('expected a rejection');
    } catch (error) {
      expect(error).toBeInstanceOf(SimApiError);
      expect((error as SimApiError).data).toMatchObject({
        field: 'price',
        tickSize: tick,
        lowerTick: lower,
        upperTick: upper,
        nearestPrices: [lower, upper],
      });
    }
  });

  it.each([
    ['72000', kr005930, '72000'],
    ['35005', etf, '35005'],
    ['180.129', aapl, '180.12'],
    ['0.123456', aapl, '0.1234'],
  ])('accepts %s (US truncated to its grid)', (price, instrument, expected) => {
    expect(checkPrice(instrument, new Decimal(price)).toFixed()).toBe(expected);
  });

  it('rejects a KR ETF price off its 5-won grid', () => {
    expect(() => checkPrice(etf, new Decimal('35002'))).toThrow(SimApiError);
  });
});
