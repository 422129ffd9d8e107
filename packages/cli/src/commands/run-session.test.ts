import {
  type BrokerOrderId,
  type ClientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  type OrderEvent,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import {
  cancelOnStopLine,
  describeEvent,
  fmt,
  ownerSuffix,
  statusLine,
  strategyPnlLines,
} from './run-session.js';

const id = 'c-1' as ClientOrderId;
const base = { eventId: 'e', clientOrderId: id, tsEvent: 0, tsInit: 0 };

describe('the run output', () => {
  it.each([
    [{ open: 2, canceled: 2, stillOpen: [], unstored: [] }, 'cancel on stop: 2 open orders cancelled'],
    [{ open: 1, canceled: 1, stillOpen: [], unstored: [] }, 'cancel on stop: 1 open order cancelled'],
    [{ open: 0, canceled: 0, stillOpen: [], unstored: [] }, 'cancel on stop: 0 open orders cancelled'],
    [
      { open: 2, canceled: 1, stillOpen: ['c-9'], unstored: [] },
      'cancel on stop: 1 of 2 open orders cancelled; still working (cancel refused, above): c-9',
    ],
    // paper, the store refusing writes: cancelled on the venue, the store still holds them working
    [
      { open: 3, canceled: 1, stillOpen: [], unstored: ['c-7', 'c-8'] },
      'cancel on stop: 1 of 3 open orders cancelled; cancelled on the paper venue but not stored (the store refuses writes, above: the next paper run works them again): c-7, c-8',
    ],
    // one filled before its cancel: neither cancelled nor working
    [{ open: 2, canceled: 1, stillOpen: [], unstored: [] }, 'cancel on stop: 1 of 2 open orders cancelled'],
  ])('says what --cancel-on-stop cancelled and what still works (%o)', (result, line) => {
    expect(cancelOnStopLine(result)).toBe(line);
  });

  it('shows decimals with every digit (a fractional US fill is not rounded away)', () => {
    expect(fmt(new Decimal('2.233937'))).toBe('2.233937');
    expect(fmt(new Decimal('1234567.5'))).toBe('1,234,567.5');
    expect(fmt(new Decimal(70500))).toBe('70,500');
    const fill: Fill = {
      fillId: 'f',
      clientOrderId: id,
      brokerOrderId: 'B1' as BrokerOrderId,
      symbol: 'AAPL',
      side: 'BUY',
      quantity: new Decimal('2.233937'),
      price: new Decimal('223.82'),
      commission: Money.of(new Decimal('0.5'), 'USD'),
      tax: Money.of(new Decimal(0), 'USD'),
      cumulativeQuantity: new Decimal('2.233937'),
      tsEvent: 0,
    };
    expect(describeEvent({ ...base, type: 'OrderFilled', fill } as OrderEvent, '00:01:13')).toBe(
      '00:01:13 fill   BUY 2.233937 AAPL @ 223.82 USD (commission 0.5) — filled',
    );
  });

  it('says when a modify took effect or was refused, and when an order expired', () => {
    const modified = {
      ...base,
      type: 'OrderModified',
      brokerOrderId: 'B2' as BrokerOrderId,
      price: new Decimal(70_300),
      quantity: new Decimal(2),
    } as OrderEvent;
    expect(describeEvent(modified, '10:02:08')).toBe(
      '10:02:08 modified c-1: price 70,300 quantity 2 (broker order B2)',
    );
    const refused = {
      ...base,
      type: 'OrderModifyRejected',
      code: 'order-hours-closed',
      reason: 'closed',
    } as OrderEvent;
    expect(describeEvent(refused, '16:00:00')).toBe('16:00:00 modify refused c-1: order-hours-closed closed');
    // the broker's refusal: its code once, then where and how it answered, as hoga's errors say it
    // (before: 'already-filled modifyOrder: HTTP 409 already-filled: Order B1 is already filled …')
    const byBroker = {
      ...base,
      type: 'OrderCancelRejected',
      code: 'already-filled',
      reason: 'cancelOrder: HTTP 409 already-filled: Order B1 is already filled (request r-7)',
    } as OrderEvent;
    expect(describeEvent(byBroker, '10:05:00')).toBe(
      '10:05:00 cancel refused c-1: already-filled (HTTP 409 from cancelOrder): Order B1 is already filled (request r-7)',
    );
    const rejected = {
      ...base,
      type: 'OrderRejected',
      code: 'insufficient-buying-power',
      reason: 'createOrder: HTTP 422 insufficient-buying-power: needs 515478 KRW (request r-8)',
    } as OrderEvent;
    expect(describeEvent(rejected, '10:06:00')).toBe(
      '10:06:00 rejected c-1: insufficient-buying-power (HTTP 422 from createOrder): needs 515478 KRW (request r-8)',
    );
    expect(describeEvent({ ...base, type: 'OrderExpired' } as OrderEvent, '15:30:00')).toBe(
      '15:30:00 expired c-1',
    );
  });

  it('marks a limit order at the close, and says why an order was canceled unless the strategy asked', () => {
    const intent = createOrderIntent({
      clientOrderId: id,
      instrument: instrumentOf('AAPL'),
      side: 'BUY',
      sizing: 'QUANTITY',
      orderType: 'LIMIT',
      quantity: new Decimal(1),
      price: new Decimal('235.17'),
      timeInForce: 'CLS',
    });
    expect(describeEvent({ ...base, type: 'OrderSubmitted', intent } as OrderEvent, '05:59:18')).toBe(
      '05:59:18 order  BUY 1 AAPL LIMIT @ 235.17 at the close (CLS)  (c-1)',
    );
    const canceled = (reason?: string) =>
      describeEvent(
        { ...base, type: 'OrderCanceled', ...(reason ? { reason } : {}) } as OrderEvent,
        '06:00:00',
      );
    expect(canceled('close')).toBe('06:00:00 canceled c-1 (close)');
    expect(canceled('user')).toBe('06:00:00 canceled c-1');
    expect(canceled()).toBe('06:00:00 canceled c-1');
  });

  it('counts the daily bars waiting for the open on the status line, and says nothing of none', () => {
    const zero = { realized: new Decimal(0), unrealized: new Decimal(0), charges: new Decimal(0) };
    const status = {
      positions: new Map<string, Decimal>(),
      openOrders: 0,
      fills: 0,
      bars: 3,
      barsWaiting: 2,
      refused: {},
      pnl: { KRW: zero, USD: zero },
      requests: 40,
      rateLimited: 0,
      pnlByStrategy: new Map(),
    };
    expect(statusLine(status, '08:41:02')).toBe(
      '08:41:02 status  holdings: none | open orders 0 | fills 0 | bars 3 (2 waiting for the open) | PnL 0 | requests 40 (429: 0)',
    );
    expect(statusLine({ ...status, barsWaiting: 0 }, '09:00:03')).toContain('| bars 3 | PnL 0');
  });

  it("shows the PnL to the currency's unit (fractional US shares give many decimals)", () => {
    const zero = { realized: new Decimal(0), unrealized: new Decimal(0), charges: new Decimal(0) };
    const status = {
      positions: new Map<string, Decimal>([['AAPL', new Decimal('2.354866')]]),
      openOrders: 0,
      fills: 10,
      bars: 10,
      barsWaiting: 0,
      refused: {},
      pnl: {
        KRW: { realized: new Decimal('1234.5'), unrealized: new Decimal(-3000), charges: new Decimal(135) },
        USD: {
          realized: new Decimal('-0.8823999746'),
          unrealized: new Decimal('12.3456'),
          charges: new Decimal('2.48'),
        },
      },
      requests: 202,
      rateLimited: 0,
      pnlByStrategy: new Map(),
    };
    // before: 'USD realized -0.8823999746 charges 2.48'
    expect(statusLine(status, '00:10:26')).toContain(
      '| PnL KRW realized 1,235 unrealized -3,000 charges 135; USD realized -0.88 unrealized 12.35 charges 2.48 |',
    );
    // cents always shown (before: 'USD realized -0.03 charges 1' after a $500 round trip)
    const roundTrip = {
      KRW: zero,
      USD: { realized: new Decimal('-0.0267'), unrealized: new Decimal(0), charges: new Decimal(1) },
    };
    expect(statusLine({ ...status, pnl: roundTrip }, '01:30:06')).toContain(
      '| PnL USD realized -0.03 unrealized 0.00 charges 1.00 |',
    );
    // a position bought and not sold yet: its PnL at the last price shows before anything is realized
    const holding = { KRW: { ...zero, unrealized: new Decimal(2000), charges: new Decimal(101) }, USD: zero };
    expect(statusLine({ ...status, pnl: holding }, '10:15:23')).toContain(
      '| PnL KRW realized 0 unrealized 2,000 charges 101 |',
    );
    // the holdings keep every digit (a fractional share is a quantity, not money)
    expect(statusLine({ ...status, pnl: { KRW: zero, USD: zero } }, '00:10:26')).toContain(
      'holdings: AAPL 2.354866 |',
    );
  });

  it("says each strategy's PnL after the last status line when several run, nothing more for one", () => {
    const zero = { realized: new Decimal(0), unrealized: new Decimal(0), charges: new Decimal(0) };
    const market = {
      KRW: { realized: new Decimal(0), unrealized: new Decimal(-200), charges: new Decimal(98) },
      USD: zero,
    };
    const status = {
      positions: new Map<string, Decimal>(),
      openOrders: 1,
      fills: 1,
      bars: 9,
      barsWaiting: 0,
      refused: {},
      pnl: market,
      requests: 80,
      rateLimited: 0,
      pnlByStrategy: new Map([
        ['low', { KRW: zero, USD: zero }],
        ['market', market],
      ]),
    };
    expect(strategyPnlLines(status, '10:20:00')).toEqual([
      '10:20:00 strategy low: PnL 0',
      '10:20:00 strategy market: PnL KRW realized 0 unrealized -200 charges 98',
    ]);
    expect(strategyPnlLines({ ...status, pnlByStrategy: new Map([['market', market]]) }, '10:20:00')).toEqual(
      [],
    );
  });

  it("names the order's strategy with several strategies, and always for a strategy not in the run", () => {
    // Before: a paper run put an absent strategy's restored order back as `order BUY 1 005930 …`
    // with no owner, as if the run's own strategy had placed it.
    const one = new Set(['Mine']);
    const event = (strategyId?: string) => ({ ...base, type: 'OrderAccepted', strategyId }) as OrderEvent;
    expect(ownerSuffix(event('Mine'), one)).toBe('');
    expect(ownerSuffix(event('Renamed'), one)).toBe('  [Renamed, not in this run]');
    expect(ownerSuffix(event(), one)).toBe('');
    const two = new Set(['A', 'B']);
    expect(ownerSuffix(event('B'), two)).toBe('  [B]');
    expect(ownerSuffix(event('C'), two)).toBe('  [C, not in this run]');
  });
});
