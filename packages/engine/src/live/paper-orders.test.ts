import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  type Instrument,
  Money,
  type OrderEvent,
  strategyId,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { PaperOrders, paperSession, restorablePaperOrders } from './paper-orders.js';

const kr: Instrument = { symbol: '005930', market: 'KR', currency: 'KRW', securityType: 'STOCK' };
const T0 = Date.parse('2026-11-23T10:00:00+09:00');
const id = clientOrderId('o-1');
const sid = strategyId('s');
const base = { clientOrderId: id, strategyId: sid, tsEvent: T0, tsInit: T0 };
const intent = createOrderIntent({
  clientOrderId: id,
  strategyId: sid,
  instrument: kr,
  side: 'BUY',
  sizing: 'QUANTITY',
  orderType: 'LIMIT',
  quantity: new Decimal(10),
  price: new Decimal(65_000),
});

function fill(quantity: number, cumulative: number): Fill {
  return {
    fillId: `f-${cumulative}`,
    clientOrderId: id,
    brokerOrderId: 'paper-1' as Fill['brokerOrderId'],
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal(quantity),
    price: new Decimal(64_900),
    commission: Money.of(new Decimal(10), 'KRW'),
    cumulativeQuantity: new Decimal(cumulative),
    tsEvent: T0,
  };
}

function follow(events: readonly OrderEvent[]): PaperOrders {
  const orders = new PaperOrders();
  for (const e of events) orders.onEvent(e);
  return orders;
}

describe(PaperOrders, () => {
  it('keeps an order from its submission to its end, with its fills and its modified price', () => {
    const orders = follow([
      { type: 'OrderSubmitted', eventId: 'e1', ...base, intent },
      { type: 'OrderPartiallyFilled', eventId: 'e2', ...base, fill: fill(4, 4) },
      {
        type: 'OrderModified',
        eventId: 'e3',
        ...base,
        brokerOrderId: 'paper-2' as Fill['brokerOrderId'],
        previousBrokerOrderId: 'paper-1' as Fill['brokerOrderId'],
        price: new Decimal(64_800),
      },
    ]);
    const saved = orders.snapshot();
    expect(saved).toMatchObject([{ filledQuantity: '4', session: paperSession('005930', T0) }]);
    expect(saved[0]?.intent).toMatchObject({ price: '64800', quantity: '10', clientOrderId: 'o-1' });
    orders.onEvent({ type: 'OrderFilled', eventId: 'e4', ...base, fill: fill(6, 10) });
    expect(orders.snapshot()).toEqual([]);
  });
});

describe(restorablePaperOrders, () => {
  const saved = (session: number) =>
    follow([
      { type: 'OrderSubmitted', eventId: 'e1', ...base, intent },
      { type: 'OrderPartiallyFilled', eventId: 'e2', ...base, fill: fill(4, 4) },
    ])
      .snapshot()
      .map((s) => ({ ...s, session }));

  it('gives back an order of the same session as it stood: whole, with what filled, under its id, with decimals', () => {
    const restored = restorablePaperOrders(JSON.parse(JSON.stringify(saved(paperSession('005930', T0)))), T0);
    expect(restored).toHaveLength(1);
    const r = restored[0];
    expect(r?.strategyId).toBe('s');
    expect(r?.intent.clientOrderId).toBe('o-1');
    if (r?.intent.sizing !== 'QUANTITY' || r.intent.orderType !== 'LIMIT') throw new Error('not a limit');
    expect(r.intent.quantity).toEqual(new Decimal(10));
    expect(r.filledQuantity).toEqual(new Decimal(4));
    expect(r.intent.price).toEqual(new Decimal(65_000));
  });

  it('leaves out an order of an earlier session (a DAY order has ended)', () => {
    expect(restorablePaperOrders(saved(paperSession('005930', T0) - 1), T0)).toEqual([]);
  });

  it('answers nothing for nothing saved', () => {
    expect(restorablePaperOrders(undefined, 1)).toEqual([]);
  });
});

describe(paperSession, () => {
  const at = (iso: string) => Date.parse(iso);

  it('ends a US DAY order with its trading date, not at KST midnight (inside the US regular session)', () => {
    // 23:45 and 00:15 KST on 24-25 November are 09:45 and 10:15 in New York: one US trading day
    expect(paperSession('AAPL', at('2026-11-24T23:45:00+09:00'))).toBe(
      paperSession('AAPL', at('2026-11-25T00:15:00+09:00')),
    );
    // from the after-market's end (18:00 New York) to the next day's pre-market it changes once
    expect(paperSession('AAPL', at('2026-11-24T17:59:00-05:00'))).not.toBe(
      paperSession('AAPL', at('2026-11-24T20:00:00-05:00')),
    );
    // KR: the KST day
    expect(paperSession('005930', at('2026-11-24T23:45:00+09:00'))).not.toBe(
      paperSession('005930', at('2026-11-25T00:15:00+09:00')),
    );
  });
});
