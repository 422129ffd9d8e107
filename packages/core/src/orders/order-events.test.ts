import { describe, expect, it } from 'vitest';
import { Decimal } from '../decimal/decimal.js';
import { Money } from '../decimal/money.js';
import { brokerOrderId, clientOrderId, newEventId } from './ids.js';
import { isOrderEvent, type OrderEvent } from './order-events.js';
import { ORDER_EVENT_TYPES } from './order-state.js';

const base = { eventId: newEventId(), clientOrderId: clientOrderId('c-1'), tsEvent: 1_000, tsInit: 1_001 };

describe('isOrderEvent', () => {
  it.each(ORDER_EVENT_TYPES.map((t) => [t] as const))('recognises type %s', (type) => {
    expect(isOrderEvent({ ...base, type })).toBe(true);
  });

  it.each([[null], ['OrderFilled'], [{ type: 'OrderTeleported' }], [{}]])('rejects %j', (value) => {
    expect(isOrderEvent(value)).toBe(false);
  });

  it('narrows a fill event so its Money commission is usable', () => {
    const event: OrderEvent = {
      ...base,
      type: 'OrderFilled',
      fill: {
        fillId: 'f-1',
        clientOrderId: base.clientOrderId,
        brokerOrderId: brokerOrderId('b-1'),
        symbol: '005930',
        side: 'BUY',
        quantity: new Decimal(10),
        price: new Decimal(72100),
        commission: Money.of('108', 'KRW'),
        cumulativeQuantity: new Decimal(10),
        tsEvent: 1_000,
      },
    };
    const total = event.type === 'OrderFilled' ? event.fill.commission.plus(Money.of('2', 'KRW')) : null;
    expect(total?.toString()).toBe('110 KRW');
  });
});
