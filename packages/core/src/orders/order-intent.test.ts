import { describe, expect, it } from 'vitest';
import { Decimal } from '../decimal/decimal.js';
import { ValidationError } from '../errors.js';
import type { Instrument } from '../instruments/instrument.js';
import { clientOrderId } from './ids.js';
import { createOrderIntent, type OrderIntentInput } from './order-intent.js';

const kr: Instrument = { symbol: '005930', market: 'KR', currency: 'KRW', securityType: 'STOCK' };
const us: Instrument = { symbol: 'AAPL', market: 'US', currency: 'USD', securityType: 'STOCK' };
const id = clientOrderId('test-1');
const d = (v: string) => new Decimal(v);

describe('createOrderIntent', () => {
  it('fills DAY and confirmHighValue=false when omitted', () => {
    const intent = createOrderIntent({
      clientOrderId: id,
      instrument: kr,
      side: 'BUY',
      sizing: 'QUANTITY',
      orderType: 'LIMIT',
      quantity: d('10'),
      price: d('72100'),
    });
    expect(intent).toMatchObject({ timeInForce: 'DAY', confirmHighValue: false, orderType: 'LIMIT' });
    expect(Object.isFrozen(intent)).toBe(true);
  });

  it.each<[string, OrderIntentInput]>([
    [
      'a US LIMIT at the close',
      {
        clientOrderId: id,
        instrument: us,
        side: 'SELL',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('1'),
        price: d('189.51'),
        timeInForce: 'CLS',
      },
    ],
    [
      'a KR MARKET',
      {
        clientOrderId: id,
        instrument: kr,
        side: 'SELL',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: d('3'),
      },
    ],
    [
      'a US fractional MARKET SELL with 6 decimals',
      {
        clientOrderId: id,
        instrument: us,
        side: 'SELL',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: d('0.123456'),
      },
    ],
    [
      'a US amount order',
      {
        clientOrderId: id,
        instrument: us,
        side: 'BUY',
        sizing: 'AMOUNT',
        orderType: 'MARKET',
        amount: d('100.50'),
      },
    ],
    [
      'a high-value KR order with confirmation',
      {
        clientOrderId: id,
        instrument: kr,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('2000'),
        price: d('72100'),
        confirmHighValue: true,
      },
    ],
  ])('accepts %s', (_label, input) => {
    expect(createOrderIntent(input).clientOrderId).toBe(id);
  });

  it.each<[string, unknown, string]>([
    [
      'a LIMIT without price',
      { instrument: kr, side: 'BUY', sizing: 'QUANTITY', orderType: 'LIMIT', quantity: d('1') },
      'price',
    ],
    [
      'a MARKET with price',
      {
        instrument: kr,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: d('1'),
        price: d('1'),
      },
      'price',
    ],
    [
      'a zero quantity',
      {
        instrument: kr,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('0'),
        price: d('1'),
      },
      'quantity',
    ],
    [
      'a negative price',
      {
        instrument: kr,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('1'),
        price: d('-1'),
      },
      'price',
    ],
    [
      'a KR fractional quantity',
      { instrument: kr, side: 'SELL', sizing: 'QUANTITY', orderType: 'MARKET', quantity: d('0.5') },
      'quantity',
    ],
    [
      'a US fractional BUY',
      { instrument: us, side: 'BUY', sizing: 'QUANTITY', orderType: 'MARKET', quantity: d('0.5') },
      'quantity',
    ],
    [
      'a US fractional LIMIT',
      {
        instrument: us,
        side: 'SELL',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('0.5'),
        price: d('10'),
      },
      'quantity',
    ],
    [
      '7 fractional decimals',
      { instrument: us, side: 'SELL', sizing: 'QUANTITY', orderType: 'MARKET', quantity: d('0.1234567') },
      'quantity',
    ],
    [
      'a KR amount order',
      { instrument: kr, side: 'BUY', sizing: 'AMOUNT', orderType: 'MARKET', amount: d('10000') },
      'amount',
    ],
    [
      'an amount LIMIT',
      { instrument: us, side: 'BUY', sizing: 'AMOUNT', orderType: 'LIMIT', amount: d('100') },
      'orderType',
    ],
    [
      'a zero amount',
      { instrument: us, side: 'BUY', sizing: 'AMOUNT', orderType: 'MARKET', amount: d('0') },
      'amount',
    ],
    [
      'a KR CLS',
      {
        instrument: kr,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('1'),
        price: d('100'),
        timeInForce: 'CLS',
      },
      'timeInForce',
    ],
    [
      'an OPG',
      {
        instrument: us,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: d('1'),
        price: d('100'),
        timeInForce: 'OPG',
      },
      'timeInForce',
    ],
    [
      'a MARKET CLS',
      {
        instrument: us,
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: d('1'),
        timeInForce: 'CLS',
      },
      'timeInForce',
    ],
    [
      'an unknown side',
      { instrument: kr, side: 'HOLD', sizing: 'QUANTITY', orderType: 'MARKET', quantity: d('1') },
      'side',
    ],
    [
      'an unknown order type',
      { instrument: kr, side: 'BUY', sizing: 'QUANTITY', orderType: 'STOP', quantity: d('1') },
      'orderType',
    ],
    [
      'an unknown sizing',
      { instrument: kr, side: 'BUY', sizing: 'NOTIONAL', orderType: 'MARKET', quantity: d('1') },
      'sizing',
    ],
  ])('throws a ValidationError naming the field when given %s', (_label, input, field) => {
    let caught: unknown;
    try {
      createOrderIntent({ clientOrderId: id, ...(input as object) } as OrderIntentInput);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).code).toBe('invalid-order-intent');
    expect((caught as ValidationError).field).toBe(field);
  });
});
