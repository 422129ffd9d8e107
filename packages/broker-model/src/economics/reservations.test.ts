import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import {
  cashBuyingPower,
  type ReservingOrder,
  reservedCash,
  reservedShares,
  sellableQuantity,
} from './reservations.js';

const d = (text: string | number) => new Decimal(text);

function open(over: Partial<ReservingOrder> = {}): ReservingOrder {
  return {
    symbol: '005930',
    currency: 'KRW',
    side: 'BUY',
    price: d(70000),
    quantity: d(10),
    orderAmount: null,
    filledQuantity: d(0),
    filledAmount: d(0),
    reservePrice: d(70000),
    ...over,
  };
}

describe('reservedCash', () => {
  it.each([
    // 10 × 70000 = 700,000 × 1.00015 = 700,105
    ['a KR limit buy: quantity × limit plus commission', open(), '700105'],
    // 6 × 70000 = 420,000 × 1.00015 = 420,063
    ['only the unfilled part', open({ filledQuantity: d(4), filledAmount: d(280000) }), '420063'],
    // 910,000 × 1.00015 = 910,136.5, rounded up to 910,137
    [
      'a KR market buy at its reserve price (the upper limit)',
      open({ price: null, reservePrice: d(91000) }),
      '910137',
    ],
    // 3 × 150.25 = 450.75 × 1.001 = 451.20075, rounded up to 451.21
    [
      'a US limit buy, rounded up to the cent',
      open({
        symbol: 'AAPL',
        currency: 'USD',
        price: d('150.25'),
        quantity: d(3),
        reservePrice: d('150.25'),
      }),
      '451.21',
    ],
    // 1000 − 400 filled = 600 × 1.001 = 600.6
    [
      'a US amount buy: the unfilled amount plus commission',
      open({
        symbol: 'AAPL',
        currency: 'USD',
        price: null,
        quantity: null,
        orderAmount: d(1000),
        filledAmount: d('400'),
        reservePrice: d(150),
      }),
      '600.6',
    ],
    ['nothing for a sell', open({ side: 'SELL' }), '0'],
  ] as const)('holds %s', (_name, order, expected) => {
    const held = reservedCash(order);
    expect(held.toFixed()).toBe(expected);
  });
});

describe('reservedShares', () => {
  it.each([
    ['the unfilled quantity of a sell', open({ side: 'SELL', filledQuantity: d(3) }), '7'],
    [
      'an amount sell estimated at its reserve price, rounded up to 1e-6 share',
      open({
        symbol: 'AAPL',
        currency: 'USD',
        side: 'SELL',
        price: null,
        quantity: null,
        orderAmount: d(100),
        reservePrice: d(150),
      }),
      '0.666667',
    ],
    ['nothing for a buy', open(), '0'],
  ] as const)('holds %s', (_name, order, expected) => {
    expect(reservedShares(order).toFixed()).toBe(expected);
  });
});

describe('cashBuyingPower', () => {
  it('is the cash less what open buys in that currency hold, rounded down', () => {
    const orders = [
      open(),
      open({ side: 'SELL' }),
      open({ symbol: 'AAPL', currency: 'USD', price: d(100), quantity: d(1), reservePrice: d(100) }),
    ];
    expect(cashBuyingPower(d(1_000_000), orders, 'KRW').toFixed()).toBe('299895');
    expect(cashBuyingPower(d('500.555'), orders, 'USD').toFixed()).toBe('400.45');
  });

  it('is never below 0', () => {
    expect(cashBuyingPower(d(100), [open()], 'KRW').toFixed()).toBe('0');
  });
});

describe('sellableQuantity', () => {
  it('is the holding less what open sells of that symbol hold, never below 0', () => {
    const orders = [
      open({ side: 'SELL', quantity: d(30) }),
      open({ side: 'SELL', symbol: '000660' }),
      open(),
    ];
    expect(sellableQuantity(d(100), orders, '005930').toFixed()).toBe('70');
    expect(sellableQuantity(d(20), orders, '005930').toFixed()).toBe('0');
  });
});
