import { type ClientOrderId, Decimal } from '@hoga/core';
import type { OrderRecord as StoredOrder } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { judgeEarlier } from './order-rerun.js';
import { buildIntent } from './order-spec.js';

const manual = 'manual' as never;
const ID = 'my-order-1';

/** The intent of `hoga order <side> <symbol> <quantity> --limit <price> --client-order-id my-order-1`. */
function asked(side: 'buy' | 'sell', symbol: string, quantity: string, flags: Record<string, unknown>) {
  return buildIntent({ kind: side, symbol, quantity, flags: { clientOrderId: ID, ...flags } }, manual);
}

/** What a first `buy 005930 1 --limit 50000 --client-order-id my-order-1` left in the store. */
function stored(over: Partial<StoredOrder> = {}): StoredOrder {
  return {
    id: 1,
    clientOrderId: ID as ClientOrderId,
    brokerOrderId: 'B1' as never,
    strategyId: manual,
    mode: 'live',
    symbol: '005930',
    market: 'KR',
    currency: 'KRW',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    price: new Decimal(50000),
    quantity: new Decimal(1),
    amount: null,
    state: 'ACCEPTED',
    filledQuantity: new Decimal(0),
    averageFillPrice: null,
    rejectReason: null,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  } as StoredOrder;
}

describe('judgeEarlier', () => {
  it('takes the same order placed before for the one asked (the broker has it)', () => {
    expect(judgeEarlier(asked('buy', '005930', '1', { limit: '50000.0' }), stored()).kind).toBe('placed');
  });

  it.each([
    ['another side', asked('sell', '005930', '1', { limit: '50000' }), 'side BUY (asked SELL)'],
    ['another symbol', asked('buy', '000660', '1', { limit: '50000' }), 'symbol 005930 (asked 000660)'],
    ['another quantity', asked('buy', '005930', '2', { limit: '50000' }), 'quantity 1 (asked 2)'],
    ['another price', asked('buy', '005930', '1', { limit: '49000' }), 'price 50000 (asked 49000)'],
    ['a market order', asked('buy', '005930', '1', { market: true }), 'type LIMIT (asked MARKET)'],
  ])('refuses %s under the id, naming what differs', (_, intent, difference) => {
    const verdict = judgeEarlier(intent, stored());
    expect(verdict).toMatchObject({ kind: 'refused', code: 'idempotency-key-conflict' });
    expect(verdict.kind === 'refused' && verdict.message).toContain(difference);
  });

  it('refuses an id whose order the broker refused (the store keeps one order per id)', () => {
    const verdict = judgeEarlier(
      asked('buy', '005930', '1', { limit: '50000' }),
      stored({ brokerOrderId: null, state: 'REJECTED', rejectReason: 'order-hours-closed' }),
    );
    expect(verdict).toMatchObject({ kind: 'refused', code: 'client-order-id-used' });
    expect(verdict.kind === 'refused' && verdict.message).toContain('order-hours-closed');
  });

  it('sends nothing again for an order sent without a stored answer', () => {
    const verdict = judgeEarlier(
      asked('buy', '005930', '1', { limit: '50000' }),
      stored({ brokerOrderId: null, state: 'SUBMITTED' }),
    );
    expect(verdict).toMatchObject({ kind: 'refused', code: 'outcome-unknown' });
  });
});

describe('buildIntent --client-order-id', () => {
  it.each([['has space'], ['x'.repeat(37)], ['semi;colon'], ['']])('refuses %j as bad usage', (id) => {
    expect(() => asked('buy', '005930', '1', { limit: '50000', clientOrderId: id })).toThrow(
      /--client-order-id .*expected 1 to 36 characters/,
    );
  });
});
