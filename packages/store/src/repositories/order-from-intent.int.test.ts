import { clientOrderId, createOrderIntent, Decimal, instrumentOf, strategyId } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import { orderFromIntent } from './order-from-intent.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

describe('orderFromIntent', () => {
  it.each([
    [
      'a KR limit order',
      createOrderIntent({
        clientOrderId: clientOrderId('lim-1'),
        strategyId: strategyId('sma'),
        instrument: instrumentOf('005930'),
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: new Decimal('10'),
        price: new Decimal('72100'),
      }),
      {
        symbol: '005930',
        market: 'KR',
        currency: 'KRW',
        price: '72100',
        quantity: '10',
        amount: null,
        tif: 'DAY',
      },
    ],
    [
      'a US market sell of a fractional quantity',
      createOrderIntent({
        clientOrderId: clientOrderId('mkt-1'),
        instrument: instrumentOf('AAPL'),
        side: 'SELL',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: new Decimal('0.123456'),
      }),
      {
        symbol: 'AAPL',
        market: 'US',
        currency: 'USD',
        price: null,
        quantity: '0.123456',
        amount: null,
        tif: 'DAY',
      },
    ],
    [
      'a US amount order',
      createOrderIntent({
        clientOrderId: clientOrderId('amt-1'),
        instrument: instrumentOf('AAPL'),
        side: 'BUY',
        sizing: 'AMOUNT',
        orderType: 'MARKET',
        amount: new Decimal('150.25'),
      }),
      {
        symbol: 'AAPL',
        market: 'US',
        currency: 'USD',
        price: null,
        quantity: null,
        amount: '150.25',
        tif: 'DAY',
      },
    ],
  ])('stores %s with every field of the intent', (_, intent, expected) => {
    const stored = db.orders.recordIntent(
      orderFromIntent(intent, { mode: 'live', createdAt: T0, state: 'SUBMITTED' }),
    );
    expect({
      symbol: stored.symbol,
      market: stored.market,
      currency: stored.currency,
      price: stored.price?.toFixed() ?? null,
      quantity: stored.quantity?.toFixed() ?? null,
      amount: stored.amount?.toFixed() ?? null,
      tif: stored.timeInForce,
    }).toEqual(expected);
    expect(stored).toMatchObject({
      clientOrderId: intent.clientOrderId,
      strategyId: intent.strategyId ?? null,
      side: intent.side,
      orderType: intent.orderType,
      state: 'SUBMITTED',
      mode: 'live',
      createdAt: T0,
    });
  });
});
