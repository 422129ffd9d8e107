import { BarFillModel, Ledger } from '@hoga/broker-model';
import {
  type Bar,
  type ClientOrderId,
  createOrderIntent,
  Decimal,
  instrumentOf,
  type OrderEvent,
  type StrategyId,
  VirtualClock,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { OrderCommand } from '../commands/order-commands.js';
import { SimulatedVenue } from './simulated-venue.js';
import { KEPT_ENDED_ORDERS } from './venue-orders.js';

const T0 = Date.parse('2026-03-02T09:01:00+09:00');
const S = 's' as StrategyId;

function bar(minute: number, open: number, close = open, volume = 1_000_000): Bar {
  const ts = T0 + minute * 60_000;
  return {
    symbol: '005930',
    interval: '1m',
    ts,
    closeTime: ts,
    open,
    high: Math.max(open, close),
    low: Math.min(open, close),
    close,
    volume,
  };
}

function setup(
  cash = 10_000_000,
  holdings = new Map<string, { quantity: Decimal; averagePrice: Decimal }>(),
) {
  const clock = new VirtualClock(T0);
  const events: OrderEvent[] = [];
  const venue = new SimulatedVenue<Bar>({
    fillModel: new BarFillModel(),
    ledger: new Ledger({ KRW: new Decimal(cash) }, holdings),
    clock,
    lastPrice: () => 70_000,
  });
  venue.events$.subscribe((e) => events.push(e));
  const at = (b: Bar) => {
    clock.set(b.closeTime);
    venue.onMarket(b.symbol, b, Math.floor((b.ts + 9 * 3_600_000) / 86_400_000));
  };
  return { clock, venue, events, at };
}

let n = 0;
function submit(side: 'BUY' | 'SELL', quantity: number, price?: number): OrderCommand {
  const clientOrderId = `o-${++n}` as ClientOrderId;
  const base = {
    clientOrderId,
    strategyId: S,
    instrument: instrumentOf('005930'),
    side,
    sizing: 'QUANTITY' as const,
    quantity: new Decimal(quantity),
  };
  const intent =
    price === undefined
      ? createOrderIntent({ ...base, orderType: 'MARKET' })
      : createOrderIntent({ ...base, orderType: 'LIMIT', price: new Decimal(price) });
  return { type: 'SubmitOrder', commandId: `c-${n}`, strategyId: S, tsInit: T0, intent };
}

/** The client id of a submit command. */
function idOf(order: OrderCommand): ClientOrderId {
  return order.type === 'SubmitOrder' ? order.intent.clientOrderId : ('' as ClientOrderId);
}

/** A modify of `order` to a KR limit `price` and `quantity` (of the unfilled part). */
function modifyOf(order: OrderCommand, price: number, quantity: number): OrderCommand {
  return {
    type: 'ModifyOrder',
    commandId: `m-${++n}`,
    strategyId: S,
    tsInit: T0,
    clientOrderId: idOf(order),
    orderType: 'LIMIT',
    price: new Decimal(price),
    quantity: new Decimal(quantity),
    confirmHighValue: false,
  };
}

function cancelOf(clientOrderId: ClientOrderId): OrderCommand {
  return { type: 'CancelOrder', commandId: `x-${++n}`, strategyId: S, tsInit: T0, clientOrderId };
}

describe('SimulatedVenue', () => {
  it("rejects a new order its broker's rules refuse as it takes it (OrderSubmitted, then OrderRejected), holding nothing for it", () => {
    const { venue, events, at } = setup();
    venue.judgeOrdersBy((command) =>
      command.type === 'SubmitOrder' && command.intent.orderType === 'LIMIT'
        ? { code: 'price-out-of-range', reason: 'price 99000 is outside the daily limits, 49000 to 91000' }
        : null,
    );
    const refused = submit('BUY', 10, 99_000);
    venue.executeNow(refused);
    expect(events.map((e) => e.type)).toEqual(['OrderSubmitted', 'OrderRejected']);
    expect(events[1]).toMatchObject({
      clientOrderId: idOf(refused),
      code: 'price-out-of-range',
      reason: 'price 99000 is outside the daily limits, 49000 to 91000',
    });
    expect(venue.workingCount).toBe(0);
    expect(venue.ledger.buyingPower('KRW').toFixed()).toBe('10000000');
    // what they let through is taken as before; without rules (the risk module on) nothing is judged
    venue.executeNow(submit('BUY', 10));
    venue.judgeOrdersBy(undefined);
    venue.executeNow(submit('BUY', 1, 99_000));
    at(bar(0, 70_000));
    expect(events.slice(2).map((e) => e.type)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderSubmitted',
      'OrderAccepted',
    ]);
  });

  it("accepts an order, fills it on a later bar with the broker's commission and books it on the ledger", async () => {
    const { venue, events, at } = setup();
    await venue.execute(submit('BUY', 10));
    at(bar(0, 70_000));
    expect(events.map((e) => e.type)).toEqual(['OrderSubmitted', 'OrderAccepted']);
    at(bar(1, 70_100));
    const filled = events[2];
    expect(filled?.type).toBe('OrderFilled');
    if (filled?.type !== 'OrderFilled') return;
    expect(filled.fill.price.toFixed()).toBe('70100');
    expect(filled.fill.commission.amount.toFixed()).toBe('105'); // 701,000 × 0.015 %, truncated
    expect(venue.ledger.cash('KRW').toFixed()).toBe(String(10_000_000 - 701_000 - 105));
    expect(venue.ledger.holding('005930')?.quantity.toFixed()).toBe('10');
    expect(venue.workingCount).toBe(0);
  });

  it('refuses a cancel or modify of a filled order as already-filled, and of an order it never saw as order-not-found', async () => {
    const { venue, events, at } = setup();
    const order = submit('BUY', 10);
    await venue.execute(order);
    at(bar(1, 70_100));
    await venue.execute(cancelOf(idOf(order)));
    await venue.execute(cancelOf('never-submitted' as ClientOrderId));
    await venue.execute(modifyOf(order, 70_000, 10));
    // refused by the venue itself: the cancels reached it (sent true)
    expect(
      events
        .filter((e) => e.type === 'OrderCancelRejected')
        .map((e) => [e.clientOrderId, e.code, 'sent' in e ? e.sent : '-']),
    ).toEqual([
      [idOf(order), 'already-filled', true],
      ['never-submitted', 'order-not-found', true],
    ]);
    expect(
      events
        .filter((e) => e.type === 'OrderModifyRejected')
        .map((e) => [e.clientOrderId, e.code, 'sent' in e ? e.sent : '-']),
    ).toEqual([[idOf(order), 'already-filled', true]]);
  });

  it('recognises the last KEPT_ENDED_ORDERS ended orders and lets older ones go (a cancel of one is then order-not-found)', async () => {
    const { venue, events } = setup();
    const rejected: ClientOrderId[] = [];
    for (let i = 0; i < KEPT_ENDED_ORDERS + 5; i++) {
      // 10 × 70,000 is over the 10,000,000 of cash a hundred times: each ends rejected at once
      const order = submit('BUY', 100_000);
      venue.executeNow(order);
      rejected.push(idOf(order));
    }
    expect(events.filter((e) => e.type === 'OrderRejected')).toHaveLength(KEPT_ENDED_ORDERS + 5);
    venue.executeNow(cancelOf(rejected[4] as ClientOrderId));
    venue.executeNow(cancelOf(rejected[5] as ClientOrderId));
    venue.executeNow(cancelOf(rejected.at(-1) as ClientOrderId));
    expect(events.filter((e) => e.type === 'OrderCancelRejected').map((e) => e.code)).toEqual([
      'order-not-found',
      'already-rejected',
      'already-rejected',
    ]);
  });

  it('charges the KR sell tax on a sell', async () => {
    const holdings = new Map([['005930', { quantity: new Decimal(10), averagePrice: new Decimal(60_000) }]]);
    const { venue, events, at } = setup(0, holdings);
    await venue.execute(submit('SELL', 10));
    at(bar(1, 70_000));
    const filled = events.find((e) => e.type === 'OrderFilled');
    if (filled?.type !== 'OrderFilled') throw new Error('not filled');
    expect(filled.fill.tax?.amount.toFixed()).toBe('1050'); // 700,000 × 0.15 %
    expect(venue.ledger.cash('KRW').toFixed()).toBe(String(700_000 - 105 - 1050));
  });

  it('rejects a buy beyond buying power and a sell beyond the holding', async () => {
    const { venue, events } = setup(100_000);
    await venue.execute(submit('BUY', 10));
    await venue.execute(submit('SELL', 1));
    expect(
      events.filter((e) => e.type === 'OrderRejected').map((e) => (e as { code?: string }).code),
    ).toEqual(['insufficient-buying-power', 'insufficient-buying-power']);
    // both amounts name their currency
    expect((events.find((e) => e.type === 'OrderRejected') as { reason?: string }).reason).toMatch(
      /^buying power 100000 KRW is below the \d+ KRW this order needs$/,
    );
  });

  it('expires a DAY limit that did not fill in its session, and cancels on request', async () => {
    const { venue, events, at } = setup();
    await venue.execute(submit('BUY', 1, 60_000));
    at(bar(1, 70_000));
    at({ ...bar(1, 70_000), ts: T0 + 86_400_000, closeTime: T0 + 86_400_000 });
    expect(events.at(-1)?.type).toBe('OrderExpired');
    const limit = submit('BUY', 1, 60_000);
    await venue.execute(limit);
    await venue.execute({
      type: 'CancelOrder',
      commandId: 'x',
      strategyId: S,
      tsInit: T0,
      clientOrderId: limit.type === 'SubmitOrder' ? limit.intent.clientOrderId : ('' as ClientOrderId),
    });
    expect(events.at(-1)?.type).toBe('OrderCanceled');
    expect(venue.workingCount).toBe(0);
  });

  it('fills what the volume cap allows and keeps the rest working', async () => {
    const { venue, events, at } = setup();
    await venue.execute(submit('BUY', 10));
    at(bar(1, 70_000, 70_000, 40)); // 10 % of 40 = 4 shares
    at(bar(2, 70_000, 70_000, 1_000));
    const fills = events.filter((e) => e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled');
    expect(fills.map((e) => [e.type, 'fill' in e ? e.fill.quantity.toFixed() : ''])).toEqual([
      ['OrderPartiallyFilled', '4'],
      ['OrderFilled', '6'],
    ]);
  });

  it("takes a modify's quantity for the unfilled rest, as the broker's new order does", async () => {
    const { venue, events, at } = setup();
    const order = submit('BUY', 10, 70_000);
    await venue.execute(order);
    at(bar(1, 70_000, 70_000, 40)); // 4 of 10 fill
    await venue.execute(modifyOf(order, 70_100, 3));
    const modified = events.at(-1);
    // the order now totals 4 filled + 3 left
    expect(modified?.type === 'OrderModified' ? modified.quantity?.toFixed() : modified?.type).toBe('7');
    at(bar(2, 70_000, 70_000, 1_000));
    const fills = events.filter((e) => e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled');
    expect(fills.map((e) => [e.type, 'fill' in e ? e.fill.quantity.toFixed() : ''])).toEqual([
      ['OrderPartiallyFilled', '4'],
      ['OrderFilled', '3'],
    ]);
  });

  it('refuses a KR limit price off the tick grid, as the broker does (create and modify)', async () => {
    const { venue, events } = setup();
    await venue.execute(submit('BUY', 1, 70_050)); // 005930 ticks by 100 won here
    const rejected = events.at(-1);
    expect(rejected?.type).toBe('OrderRejected');
    expect(rejected?.type === 'OrderRejected' && [rejected.code, rejected.reason]).toEqual([
      'invalid-request',
      'price 70050 is off the tick grid (tick 100 at this price): the nearest prices are 70000 and 70100',
    ]);
    expect(venue.workingCount).toBe(0);
    const order = submit('BUY', 1, 70_000);
    await venue.execute(order);
    await venue.execute(modifyOf(order, 70_050, 1));
    // refused by the venue itself, as the broker refuses it live: asked for (sent true), then refused
    expect(events.slice(-2).map((e) => e.type)).toEqual(['OrderModifyRequested', 'OrderModifyRejected']);
    const modifyRejected = events.at(-1);
    expect(modifyRejected?.type === 'OrderModifyRejected' && modifyRejected.sent).toBe(true);
    expect(venue.workingCount).toBe(1);
  });

  it("refuses a modify or cancel of a working order its broker's rules refuse as live hears the broker: requested, then rejected, sent", async () => {
    const { venue, events } = setup();
    const order = submit('BUY', 2, 60_000);
    await venue.execute(order);
    const held = venue.ledger.buyingPower('KRW').toFixed();
    venue.judgeOrdersBy((command) =>
      command.type === 'SubmitOrder'
        ? null
        : { code: 'order-hours-closed', reason: 'orders are taken again at 08:00 KST' },
    );
    await venue.execute(modifyOf(order, 61_000, 2));
    await venue.execute(cancelOf(idOf(order)));
    expect(
      events.slice(2).map((e) => [e.type, 'sent' in e ? e.sent : '-', 'code' in e ? e.code : '-']),
    ).toEqual([
      ['OrderModifyRequested', '-', '-'],
      ['OrderModifyRejected', true, 'order-hours-closed'],
      ['OrderCancelRequested', '-', '-'],
      ['OrderCancelRejected', true, 'order-hours-closed'],
    ]);
    // the order works on as it was: its price, its cash held
    expect(venue.order(idOf(order))?.price?.toFixed()).toBe('60000');
    expect(venue.order(idOf(order))?.state).toBe('ACCEPTED');
    expect(venue.ledger.buyingPower('KRW').toFixed()).toBe(held);
    // without rules (the risk module on: it judged them before the venue) the change is taken
    venue.judgeOrdersBy(undefined);
    await venue.execute(cancelOf(idOf(order)));
    expect(events.slice(-2).map((e) => e.type)).toEqual(['OrderCancelRequested', 'OrderCanceled']);
  });
});
