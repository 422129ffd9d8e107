/**
 * The strategy's view of an order tracked again with fills of an earlier run: its next fills
 * average on from them, and the order leaves the open orders once filled.
 */
import {
  brokerOrderId,
  clientOrderId,
  createLogger,
  Decimal,
  type Fill,
  Money,
  type OrderEvent,
  type OrderState,
  strategyId,
  VirtualClock,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { StrategyBook } from '../portfolio/strategy-book.js';
import type { StrategyClass } from '../strategy/strategy.js';
import type { OrderView } from '../strategy/strategy-context.js';
import type { HostServices } from './host-services.js';
import { StrategyHost } from './strategy-host.js';

const id = clientOrderId('restart-1');

function host(): StrategyHost {
  const values = new Map<string, unknown>();
  const state = {
    get: <T>(key: string) => values.get(key) as T | undefined,
    set: (key: string, value: unknown) => void values.set(key, value),
    delete: (key: string) => values.delete(key),
  };
  // track and apply use none of the runtime's services
  const services = { mode: 'live', clock: new VirtualClock(0) } as unknown as HostServices;
  return new StrategyHost(
    strategyId('S'),
    class {} as unknown as StrategyClass,
    services,
    createLogger({ level: 'silent' }),
    state,
    new StrategyBook({ KRW: new Decimal(1_000_000) }),
    {},
  );
}

function filled(
  quantity: number,
  price: number,
  cumulative: number,
  type: 'OrderFilled' | 'OrderPartiallyFilled' = 'OrderFilled',
): OrderEvent {
  const fill: Fill = {
    fillId: `f-${cumulative}`,
    clientOrderId: id,
    brokerOrderId: brokerOrderId('b-1'),
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal(quantity),
    price: new Decimal(price),
    commission: Money.zero('KRW'),
    cumulativeQuantity: new Decimal(cumulative),
    tsEvent: 0,
  };
  return { type, eventId: `e-${cumulative}`, clientOrderId: id, tsEvent: 0, tsInit: 0, fill };
}

/** A stored view of the order `id`: a limit buy of 4 × 005930 at 70,000 in `state`, `filled` at `average`. */
function stored(state: OrderState, filled: number, average: number | null): OrderView {
  return {
    clientOrderId: id,
    symbol: '005930',
    side: 'BUY',
    orderType: 'LIMIT',
    price: new Decimal(70_000),
    quantity: new Decimal(4),
    amount: null,
    state,
    filledQuantity: new Decimal(filled),
    averageFillPrice: average === null ? null : new Decimal(average),
  };
}

describe('StrategyHost.track', () => {
  it('an order tracked again with fills so far averages its next fill on from them', () => {
    const h = host();
    h.track(stored('PARTIALLY_FILLED', 1, 60_000));
    expect(h.openOrders().map((o) => [o.clientOrderId, o.state])).toEqual([[id, 'PARTIALLY_FILLED']]);
    h.apply(filled(3, 64_000, 4));
    const order = h.order(id);
    expect(order?.state).toBe('FILLED');
    expect(order?.filledQuantity.toFixed()).toBe('4');
    // (1 × 60,000 + 3 × 64,000) / 4
    expect(order?.averageFillPrice?.toFixed()).toBe('63000');
    expect(h.openOrders()).toEqual([]);
  });

  it('an order tracked as it ended (its end told at a restart) is known, final, and not open', () => {
    const h = host();
    h.track(stored('FILLED', 4, 69_500));
    expect(h.order(id)).toMatchObject({ state: 'FILLED', filledQuantity: new Decimal(4) });
    expect(h.openOrders()).toEqual([]);
  });
});

describe('StrategyHost.apply', () => {
  it('averages an order filled in several slices over all of them (the first one’s amount made only then)', () => {
    const h = host();
    h.track({
      clientOrderId: id,
      symbol: '005930',
      side: 'BUY',
      orderType: 'LIMIT',
      price: new Decimal(72_000),
      quantity: new Decimal(10),
      amount: null,
      state: 'ACCEPTED',
      filledQuantity: new Decimal(0),
      averageFillPrice: null,
    });
    const averages: (string | undefined)[] = [];
    for (const [quantity, price, cumulative] of [
      [2, 70_000, 2],
      [3, 71_000, 5],
      [5, 71_500, 10],
    ] as const) {
      h.apply(filled(quantity, price, cumulative, cumulative < 10 ? 'OrderPartiallyFilled' : 'OrderFilled'));
      averages.push(h.order(id)?.averageFillPrice?.toFixed());
    }
    // 70,000; (140,000 + 213,000) / 5; (353,000 + 357,500) / 10
    expect(averages).toEqual(['70000', '70600', '71050']);
    expect(h.order(id)?.state).toBe('FILLED');
  });
});

describe('StrategyHost closed orders', () => {
  it('keeps the last 1,000 closed orders to look up, forgetting the oldest first', () => {
    const h = host();
    const ids = Array.from({ length: 1_002 }, (_, i) => clientOrderId(`c-${i}`));
    for (const c of ids) {
      h.track({
        clientOrderId: c,
        symbol: '005930',
        side: 'BUY',
        orderType: 'MARKET',
        price: null,
        quantity: new Decimal(1),
        amount: null,
        state: 'SUBMITTED',
        filledQuantity: new Decimal(0),
        averageFillPrice: null,
      });
      h.apply({
        type: 'OrderRejected',
        eventId: `r-${c}`,
        clientOrderId: c,
        tsEvent: 0,
        tsInit: 0,
        code: 'test',
        reason: 'test',
      });
    }
    expect(ids.map((c) => h.order(c)?.state).filter((s) => s !== undefined)).toHaveLength(1_000);
    expect([ids[0], ids[1], ids[2], ids[1_001]].map((c) => h.order(c as never)?.state)).toEqual([
      undefined,
      undefined,
      'REJECTED',
      'REJECTED',
    ]);
    expect(h.openOrders()).toEqual([]);
  });
});
