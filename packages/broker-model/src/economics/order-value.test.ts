import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { orderValueKrw } from './order-value.js';

const d = (text: string | number) => new Decimal(text);

describe('orderValueKrw', () => {
  it.each([
    ['a KR limit at its price', 'KRW', '70000', '10', null, '700000'],
    ['a KR market order at the last price', 'KRW', null, '10', null, '715000'],
    ['a US limit at the display rate', 'USD', '150', '2', null, '420000'],
    ['a US market order at the last price and the display rate', 'USD', null, '2', null, '434000'],
    ['a US amount order by its amount', 'USD', null, null, '100', '140000'],
  ] as const)('values %s', (_name, currency, price, quantity, orderAmount, expected) => {
    const value = orderValueKrw({
      currency,
      price: price === null ? null : d(price),
      quantity: quantity === null ? null : d(quantity),
      orderAmount: orderAmount === null ? null : d(orderAmount),
      lastPrice: currency === 'KRW' ? d(71500) : d(155),
      usdKrw: d(1400),
    });
    expect(value.toFixed()).toBe(expected);
  });
});
