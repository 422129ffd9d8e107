import {
  clientOrderId,
  createOrderIntent,
  Decimal,
  type Fill,
  instrumentOf,
  Money,
  type OrderEvent,
  type OrderSide,
  strategyId,
} from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { RiskBook } from './risk-book.js';
import { T0 } from './risk-fixture.test-helper.js';
import { KEPT_CLOSED_ORDERS } from './risk-orders.js';

const DAY_MS = 86_400_000;
let seq = 0;

/** Submits a limit order to the book and returns a function that fills (part of) it. */
function order(
  book: RiskBook,
  o: { symbol: string; side: OrderSide; quantity: string; price: string; strategy?: string; atMs?: number },
) {
  seq += 1;
  const id = clientOrderId(`b${seq}`);
  const sid = strategyId(o.strategy ?? 's1');
  const atMs = o.atMs ?? T0;
  const instrument = instrumentOf(o.symbol);
  const intent = createOrderIntent({
    clientOrderId: id,
    strategyId: sid,
    instrument,
    side: o.side,
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity: new Decimal(o.quantity),
    price: new Decimal(o.price),
  });
  const base = { clientOrderId: id, strategyId: sid, tsEvent: atMs, tsInit: atMs };
  book.onEvent({ type: 'OrderSubmitted', eventId: `s-${id}`, ...base, intent });
  let filled = new Decimal(0);
  return {
    id,
    fill(quantity: string, price: string, charges: { commission?: string; tax?: string } = {}): void {
      filled = filled.plus(quantity);
      const fill: Fill = {
        fillId: `f-${id}-${filled}`,
        clientOrderId: id,
        brokerOrderId: 'x' as Fill['brokerOrderId'],
        symbol: o.symbol,
        side: o.side,
        quantity: new Decimal(quantity),
        price: new Decimal(price),
        commission: Money.of(new Decimal(charges.commission ?? '0'), instrument.currency),
        ...(charges.tax === undefined
          ? {}
          : { tax: Money.of(new Decimal(charges.tax), instrument.currency) }),
        cumulativeQuantity: filled,
        tsEvent: atMs,
      };
      const complete = filled.eq(o.quantity);
      const event: OrderEvent = complete
        ? { type: 'OrderFilled', eventId: `f-${id}-${filled}`, ...base, fill }
        : { type: 'OrderPartiallyFilled', eventId: `f-${id}-${filled}`, ...base, fill };
      book.onEvent(event);
    },
    cancel(): void {
      book.onEvent({ type: 'OrderCanceled', eventId: `c-${id}`, ...base });
    },
  };
}

const quantities = (book: RiskBook, s = 's1') =>
  book.positions(s).map((p) => `${p.symbol} ${p.quantity.toFixed()}`);

describe(RiskBook, () => {
  describe('.positions', () => {
    it('lists the held symbols in the order first booked; a sold-out one leaves and comes back at its place', () => {
      const book = new RiskBook();
      order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' }).fill('10', '70000');
      expect(quantities(book)).toEqual(['005930 10']);
      order(book, { symbol: '000660', side: 'BUY', quantity: '5', price: '100000' }).fill('5', '100000');
      order(book, { symbol: '035420', side: 'BUY', quantity: '1', price: '200000' }).fill('1', '200000');
      const before = book.positions('s1');
      order(book, { symbol: '005930', side: 'SELL', quantity: '10', price: '71000' }).fill('10', '71000');
      expect(quantities(book)).toEqual(['000660 5', '035420 1']);
      // a list handed out stays as it was
      expect(before.map((p) => p.symbol)).toEqual(['005930', '000660', '035420']);
      order(book, { symbol: '005930', side: 'BUY', quantity: '3', price: '69000' }).fill('3', '69000');
      expect(quantities(book)).toEqual(['005930 3', '000660 5', '035420 1']);
      order(book, { symbol: '000660', side: 'SELL', quantity: '2', price: '100000' }).fill('2', '100000');
      expect(quantities(book)).toEqual(['005930 3', '000660 3', '035420 1']);
      expect(quantities(book, 's2')).toEqual([]);
    });

    it('keeps restored holdings and those of each strategy apart', () => {
      const book = new RiskBook();
      book.setHolding('s2', '000660', 'KRW', new Decimal(7), new Decimal(90000));
      order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000', strategy: 's2' }).fill(
        '10',
        '70000',
      );
      order(book, { symbol: '005930', side: 'BUY', quantity: '1', price: '70000' }).fill('1', '70000');
      expect(quantities(book, 's2')).toEqual(['000660 7', '005930 10']);
      expect(quantities(book)).toEqual(['005930 1']);
    });
  });

  describe('.openOrders and .order', () => {
    it('drops an order once filled or cancelled and keeps its last status', () => {
      const book = new RiskBook();
      const a = order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' });
      const b = order(book, { symbol: '000660', side: 'BUY', quantity: '5', price: '100000' });
      a.fill('4', '70000');
      expect(book.openOrders().map((o) => [o.clientOrderId, o.remainingQuantity?.toFixed()])).toEqual([
        [a.id, '6'],
        [b.id, '5'],
      ]);
      const held = book.openOrders();
      a.fill('6', '70000');
      b.cancel();
      expect(book.openOrders()).toEqual([]);
      expect(held).toHaveLength(2);
      expect(book.order(a.id)).toMatchObject({ status: 'FILLED', filledQuantity: new Decimal(10) });
      expect(book.order(b.id)?.status).toBe('CANCELED');
      expect(book.order('nope')).toBeUndefined();
    });

    it('counts the open orders with a limit price or an amount, a modified market order included', () => {
      const book = new RiskBook();
      const limit = order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' });
      const id = clientOrderId('mkt-1');
      const base = { clientOrderId: id, strategyId: strategyId('s1'), tsEvent: T0, tsInit: T0 };
      const intent = createOrderIntent({
        clientOrderId: id,
        strategyId: strategyId('s1'),
        instrument: instrumentOf('000660'),
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'MARKET',
        quantity: new Decimal(2),
      });
      book.onEvent({ type: 'OrderSubmitted', eventId: 'm', ...base, intent });
      const priced = () => [
        book.pricedOpenOrderCount(),
        book.openOrders().filter((o) => o.price !== null || o.amount !== null).length,
      ];
      expect(priced()).toEqual([1, 1]);
      book.onEvent({
        type: 'OrderModified',
        eventId: 'm2',
        ...base,
        brokerOrderId: 'x2' as Fill['brokerOrderId'],
        price: new Decimal(100000),
      });
      expect(priced()).toEqual([2, 2]);
      limit.fill('10', '70000');
      expect(priced()).toEqual([1, 1]);
      book.onEvent({ type: 'OrderCanceled', eventId: 'm3', ...base });
      expect(priced()).toEqual([0, 0]);
      // an event of a closed order changes no count
      book.onEvent({
        type: 'OrderModified',
        eventId: 'm4',
        ...base,
        brokerOrderId: 'x4' as Fill['brokerOrderId'],
        price: new Decimal(90000),
      });
      expect(priced()).toEqual([0, 0]);
    });

    it('finds closed orders asked for between later submits, and the last order of a reused id', () => {
      const book = new RiskBook();
      const first = order(book, { symbol: '005930', side: 'BUY', quantity: '1', price: '70000' });
      first.fill('1', '70000');
      expect(book.order(first.id)?.status).toBe('FILLED');
      const later = order(book, { symbol: '000660', side: 'BUY', quantity: '2', price: '100000' });
      later.cancel();
      expect(book.order(later.id)?.status).toBe('CANCELED');
      expect(book.order(first.id)?.status).toBe('FILLED');
      // the same id submitted again: the new order is the one known (and the one its events change)
      const intent = createOrderIntent({
        clientOrderId: first.id,
        strategyId: strategyId('s1'),
        instrument: instrumentOf('035420'),
        side: 'BUY',
        sizing: 'QUANTITY',
        orderType: 'LIMIT',
        quantity: new Decimal(3),
        price: new Decimal(200000),
      });
      const base = { clientOrderId: first.id, strategyId: strategyId('s1'), tsEvent: T0, tsInit: T0 };
      book.onEvent({ type: 'OrderSubmitted', eventId: 'again', ...base, intent });
      expect(book.order(first.id)).toMatchObject({ symbol: '035420', status: 'PENDING' });
      book.onEvent({ type: 'OrderCanceled', eventId: 'again-c', ...base });
      expect(book.order(first.id)).toMatchObject({ symbol: '035420', status: 'CANCELED' });
      expect(book.openOrders()).toEqual([]);
    });

    it('keeps the last KEPT_CLOSED_ORDERS closed orders and lets older ones go (a long run does not grow with every order)', () => {
      const book = new RiskBook();
      const ids: string[] = [];
      for (let i = 0; i < KEPT_CLOSED_ORDERS + 10; i++) {
        const o = order(book, { symbol: '005930', side: 'BUY', quantity: '1', price: '70000' });
        o.cancel();
        ids.push(o.id);
      }
      const still = order(book, { symbol: '005930', side: 'BUY', quantity: '1', price: '70000' });
      expect(book.order(ids[0] as string)).toBeUndefined();
      expect(book.order(ids[9] as string)).toBeUndefined();
      expect(book.order(ids[10] as string)?.status).toBe('CANCELED');
      expect(book.order(ids.at(-1) as string)?.status).toBe('CANCELED');
      expect(book.order(still.id)?.status).toBe('PENDING');
      expect(book.openOrders().map((o) => o.clientOrderId)).toEqual([still.id]);
    });

    it('counts the open orders of each strategy as the open list holds them', () => {
      const book = new RiskBook();
      const count = (s: string) => [
        book.openOrderCount(s),
        book.openOrders().filter((o) => o.strategyId === s).length,
      ];
      const a = order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' });
      const b = order(book, { symbol: '000660', side: 'BUY', quantity: '5', price: '100000' });
      order(book, { symbol: '000660', side: 'BUY', quantity: '5', price: '100000', strategy: 's2' });
      expect(count('s1')).toEqual([2, 2]);
      expect(count('s2')).toEqual([1, 1]);
      a.fill('4', '70000');
      expect(count('s1')).toEqual([2, 2]);
      a.fill('6', '70000');
      b.cancel();
      // a late event of a closed order changes nothing
      b.cancel();
      expect(count('s1')).toEqual([0, 0]);
      expect(count('s2')).toEqual([1, 1]);
      expect(count('s3')).toEqual([0, 0]);
    });
  });

  describe('.dailyPnlKrw', () => {
    it('is realised today net of charges plus unrealised at the last prices, per strategy and for the account', () => {
      const book = new RiskBook();
      order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' }).fill('10', '70000', {
        commission: '100',
      });
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('-100');
      book.notePrice('005930', new Decimal(71000), T0);
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('9900');
      // a partial sell: realised (71500 − 70000) × 4 − 50 − 30, the rest marked at 71000
      const sell = order(book, { symbol: '005930', side: 'SELL', quantity: '6', price: '71500' });
      sell.fill('4', '71500', { commission: '50', tax: '30' });
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(String(-100 + 6000 - 80 + 6 * 1000));
      order(book, { symbol: 'AAPL', side: 'BUY', quantity: '2', price: '200', strategy: 's2' }).fill(
        '2',
        '200',
        {
          commission: '0.5',
        },
      );
      expect(book.dailyPnlKrw('s2', T0).toFixed()).toBe('-700');
      book.notePrice('AAPL', new Decimal('201.25'), T0);
      expect(book.dailyPnlKrw('s2', T0).toFixed()).toBe(String(-700 + 2.5 * 1400));
      book.setUsdKrw(new Decimal(1300));
      expect(book.dailyPnlKrw('s2', T0).toFixed()).toBe(String(-650 + 2.5 * 1300));
      expect(book.dailyPnlKrw(null, T0).toFixed()).toBe(String(-100 + 6000 - 80 + 6000 - 650 + 2.5 * 1300));
      expect(book.dailyPnlKrw('s3', T0).toFixed()).toBe('0');
    });

    it('books whole-won fills and fractional or huge ones alike (the integer bookkeeping falls back to Decimal)', () => {
      const book = new RiskBook();
      // whole won: booked as integers
      order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' }).fill('10', '70000', {
        commission: '105',
        tax: '0',
      });
      order(book, { symbol: '005930', side: 'SELL', quantity: '10', price: '71000' }).fill('10', '71000', {
        commission: '106',
        tax: '1278',
      });
      const whole = -105 + 10_000 - 106 - 1278;
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(String(whole));
      expect(book.dailyPnlKrwInt('s1', T0)).toBe(whole);
      // a fractional commission: the day's entry goes on in Decimal
      order(book, { symbol: '000660', side: 'BUY', quantity: '3', price: '100000' }).fill('3', '100000', {
        commission: '45.5',
      });
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(new Decimal(whole).minus('45.5').toFixed());
      expect(book.dailyPnlKrwInt('s1', T0)).toBeNaN();
      // an average price with a fraction (a second buy at another price): the sell's PnL in Decimal
      order(book, { symbol: '035420', side: 'BUY', quantity: '2', price: '200001' }).fill('2', '200001');
      order(book, { symbol: '035420', side: 'BUY', quantity: '1', price: '200000' }).fill('1', '200000');
      order(book, { symbol: '035420', side: 'SELL', quantity: '3', price: '200001' }).fill('3', '200001');
      // the sell that closes releases what the shares cost: 600,003 − 600,002, whatever the average
      const fraction = new Decimal(1);
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(
        new Decimal(whole).minus('45.5').plus(fraction).toFixed(),
      );
      expect(quantities(book)).toEqual(['000660 3']);
      // past 2^53: a product no double holds exactly
      const big = order(book, {
        symbol: '068270',
        side: 'BUY',
        quantity: '94906267',
        price: '94906267',
        strategy: 's2',
      });
      big.fill('94906267', '94906267');
      const out = order(book, {
        symbol: '068270',
        side: 'SELL',
        quantity: '94906267',
        price: '189812534',
        strategy: 's2',
      });
      out.fill('94906267', '189812534', { commission: '1' });
      const expected = new Decimal('94906267').times('94906267').minus(1);
      expect(book.dailyPnlKrw('s2', T0).toFixed()).toBe(expected.toFixed());
      expect(book.dailyPnlKrwInt('s2', T0)).toBeNaN();
      expect(quantities(book, 's2')).toEqual([]);
      // and the account sums both strategies in Decimal
      expect(book.dailyPnlKrw(null, T0).toFixed()).toBe(
        new Decimal(whole).minus('45.5').plus(fraction).plus(expected).toFixed(),
      );
    });

    it('gives no integer answer once prices are known (the unrealised part is in Decimal)', () => {
      const book = new RiskBook();
      order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' }).fill('10', '70000', {
        commission: '100',
      });
      expect(book.dailyPnlKrwInt(null, T0)).toBe(-100);
      expect(book.dailyPnlKrwInt('s1', T0 + DAY_MS)).toBe(0);
      book.notePrice('005930', new Decimal(70000), T0);
      expect(book.dailyPnlKrwInt(null, T0)).toBeNaN();
    });

    it('starts from zero on a new trading day: a carried position counts from the price before the day began', () => {
      const book = new RiskBook();
      order(book, { symbol: '005930', side: 'BUY', quantity: '10', price: '70000' }).fill('10', '70000', {
        commission: '100',
      });
      book.notePrice('005930', new Decimal(70500), T0);
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('4900');
      // the next day, with the price unchanged: nothing made or lost today (before: 5000, the
      // position's gain since it was bought)
      expect(book.dailyPnlKrw('s1', T0 + DAY_MS).toFixed()).toBe('0');
      order(book, { symbol: '005930', side: 'SELL', quantity: '5', price: '71000', atMs: T0 + DAY_MS }).fill(
        '5',
        '71000',
        { tax: '200' },
      );
      // sold 5 at 500 over the day's reference, less the tax; the other 5 at the reference
      expect(book.dailyPnlKrw('s1', T0 + DAY_MS).toFixed()).toBe(String(5 * 500 - 200));
      // a question about the day before counts its own realised PnL and marks against the cost
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(String(-100 + 5 * 500));
      // a late fill stamped the day before is booked on that day, and on what the next day began with
      order(book, { symbol: '005930', side: 'SELL', quantity: '1', price: '70100', atMs: T0 }).fill(
        '1',
        '70100',
        {
          commission: '10',
        },
      );
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe(String(-100 + 100 - 10 + 4 * 500));
      expect(book.dailyPnlKrw('s1', T0 + DAY_MS).toFixed()).toBe(String(5 * 500 - 200));
    });

    it('takes the last price before a trading day began as its reference, when prices come with their times', () => {
      const book = new RiskBook();
      order(book, { symbol: '005930', side: 'BUY', quantity: '100', price: '70000' }).fill('100', '70000');
      book.notePrice('005930', new Decimal(69000), T0 + 1000);
      expect(book.dailyPnlKrw('s1', T0 + 1000).toFixed()).toBe('-100000');
      // the next day opens 1,000 lower: a loss of today, against the day before's last price
      book.notePrice('005930', new Decimal(68000), T0 + DAY_MS);
      expect(book.dailyPnlKrw('s1', T0 + DAY_MS).toFixed()).toBe('-100000');
      // a buy of the day counts from its own price, a sell of carried shares from the reference
      order(book, { symbol: '005930', side: 'BUY', quantity: '50', price: '68000', atMs: T0 + DAY_MS }).fill(
        '50',
        '68000',
      );
      book.notePrice('005930', new Decimal(68500), T0 + DAY_MS + 1000);
      // 100 carried: (68500 − 69000) × 100; 50 bought today: (68500 − 68000) × 50 (to the rounding
      // of the average price, 69333.33…)
      const today = () =>
        book
          .dailyPnlKrw('s1', T0 + DAY_MS + 1000)
          .toDecimalPlaces(20)
          .toFixed();
      expect(today()).toBe(String(-50_000 + 25_000));
      order(book, {
        symbol: '005930',
        side: 'SELL',
        quantity: '150',
        price: '68500',
        atMs: T0 + DAY_MS,
      }).fill('150', '68500');
      expect(today()).toBe(String(-50_000 + 25_000));
      // flat on the third day: nothing today
      expect(book.dailyPnlKrw('s1', T0 + 2 * DAY_MS).toFixed()).toBe('0');
    });

    it('counts a carried position it has no price of from its first fill of the day (a sell does not realise the past)', () => {
      const book = new RiskBook();
      book.notePrice('000660', new Decimal(100000), T0); // a book that sees prices (live, paper)
      order(book, { symbol: '005930', side: 'BUY', quantity: '100', price: '70000' }).fill('100', '70000');
      order(book, {
        symbol: '005930',
        side: 'SELL',
        quantity: '100',
        price: '58000',
        atMs: T0 + DAY_MS,
      }).fill('100', '58000');
      // before: −1,200,000, the whole loss since the buy, booked as today's
      expect(book.dailyPnlKrw('s1', T0 + DAY_MS).toFixed()).toBe('0');
      expect(book.dailyPnlKrw('s1', T0).toFixed()).toBe('0');
    });
  });
});

describe('RiskBook.restoreOpen', () => {
  const restored = {
    clientOrderId: 'r1',
    strategyId: 's1',
    symbol: '005930',
    market: 'KR',
    currency: 'KRW',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'DAY',
    price: new Decimal(70_000),
    quantity: new Decimal(10),
    amount: null,
    filledQuantity: new Decimal(4),
    averageFillPrice: new Decimal(70_000),
  } as const;

  it('opens an order of an earlier run with its fills so far, booking no position', () => {
    const book = new RiskBook();
    book.restoreOpen(restored);
    expect(book.openOrderCount('s1')).toBe(1);
    expect(book.pricedOpenOrderCount()).toBe(1);
    const view = book.order('r1');
    expect(view?.status).toBe('PARTIAL_FILLED');
    expect(view?.remainingQuantity?.toFixed()).toBe('6');
    expect(book.openOrders().map((o) => o.clientOrderId)).toEqual(['r1']);
    // its four shares are the strategy's stored fills' (setHolding), not booked again here
    expect(book.positions('s1')).toEqual([]);
  });

  it('closes it on its later events like any other order', () => {
    const book = new RiskBook();
    book.restoreOpen(restored);
    book.onEvent({
      type: 'OrderCanceled',
      eventId: 'c-r1',
      clientOrderId: clientOrderId('r1'),
      strategyId: strategyId('s1'),
      tsEvent: T0,
      tsInit: T0,
    });
    expect(book.openOrderCount('s1')).toBe(0);
    expect(book.pricedOpenOrderCount()).toBe(0);
    expect(book.order('r1')?.status).toBe('CANCELED');
  });
});
