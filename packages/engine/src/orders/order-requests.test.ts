import { createOrderIntent, Decimal, instrumentOf, newClientOrderId } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { createContent, createRequest, createRequestOf, modifyRequest } from './order-requests.js';

describe('order request content', () => {
  it('stores a limit intent as plain strings and rebuilds the same request from them', () => {
    const id = newClientOrderId('t');
    const intent = createOrderIntent({
      clientOrderId: id,
      instrument: instrumentOf('005930'),
      side: 'BUY',
      sizing: 'QUANTITY',
      orderType: 'LIMIT',
      quantity: new Decimal(10),
      price: new Decimal(64000),
    });
    const content = createContent(intent);
    expect(JSON.parse(JSON.stringify(content))).toEqual({
      symbol: '005930',
      side: 'BUY',
      clientOrderId: id,
      orderType: 'LIMIT',
      quantity: '10',
      price: '64000',
    });
    const request = createRequest(JSON.parse(JSON.stringify(content)));
    expect(request).toEqual({
      symbol: '005930',
      side: 'BUY',
      clientOrderId: id,
      orderType: 'LIMIT',
      quantity: new Decimal(10),
      price: new Decimal(64000),
    });
  });

  it('keeps an amount order an amount order (US market buy by USD amount)', () => {
    const intent = createOrderIntent({
      clientOrderId: newClientOrderId('t'),
      instrument: instrumentOf('ZOM'),
      side: 'BUY',
      sizing: 'AMOUNT',
      orderType: 'MARKET',
      amount: new Decimal('1500.5'),
    });
    const request = createRequest(createContent(intent));
    expect(request).toMatchObject({ orderType: 'MARKET', orderAmount: new Decimal('1500.5') });
    expect('quantity' in request).toBe(false);
  });

  it('sends the same request from the intent as a re-send rebuilds from the stored body', () => {
    const intents = [
      createOrderIntent({
        clientOrderId: newClientOrderId('t'),
        instrument: instrumentOf('ZOM'),
        side: 'SELL',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: new Decimal(3),
        price: new Decimal('12.25'),
        timeInForce: 'CLS',
      }),
      createOrderIntent({
        clientOrderId: newClientOrderId('t'),
        instrument: instrumentOf('005930'),
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: new Decimal(7),
        confirmHighValue: true,
      }),
      createOrderIntent({
        clientOrderId: newClientOrderId('t'),
        instrument: instrumentOf('ZOM'),
        side: 'BUY',
        sizing: 'AMOUNT',
        orderType: 'MARKET',
        amount: new Decimal('1500.5'),
      }),
    ];
    for (const intent of intents)
      expect(createRequestOf(intent)).toEqual(
        createRequest(JSON.parse(JSON.stringify(createContent(intent)))),
      );
  });

  it('rebuilds a modify with only what was asked', () => {
    expect(modifyRequest({ orderType: 'LIMIT', price: '65000' })).toEqual({
      orderType: 'LIMIT',
      price: new Decimal(65000),
    });
  });
});
