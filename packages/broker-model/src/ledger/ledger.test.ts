import { Decimal, instrumentOf } from '@hoga/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReservingOrder } from '../economics/reservations.js';
import { Ledger, type LedgerFill } from './ledger.js';
import { LedgerError } from './ledger-error.js';

const d = (text: string | number) => new Decimal(text);
type Side = 'BUY' | 'SELL';
type Num = string | number;

/** What a fill and an order share: `side quantity symbol @ price`, in the symbol's currency. */
const trade = (side: Side, symbol: string, quantity: Num, price: Num) => ({
  symbol,
  currency: instrumentOf(symbol).currency,
  side,
  quantity: d(quantity),
  price: d(price),
});

/** A fill of `quantity` `symbol` at `price` with its commission and, when given, tax. */
function fill(side: Side, symbol: string, quantity: Num, price: Num, commission: Num, tax?: Num): LedgerFill {
  return {
    ...trade(side, symbol, quantity, price),
    commission: d(commission),
    ...(tax === undefined ? {} : { tax: d(tax) }),
  };
}

/** An open limit order of `quantity` `symbol` at `price`, nothing filled, reserving at its limit; `more` overrides. */
function limitOrder(
  side: Side,
  symbol: string,
  quantity: Num,
  price: Num,
  more: Partial<ReservingOrder> = {},
): ReservingOrder {
  return {
    ...trade(side, symbol, quantity, price),
    orderAmount: null,
    filledQuantity: d(0),
    filledAmount: d(0),
    reservePrice: d(price),
    ...more,
  };
}

function account(): Ledger {
  return new Ledger(
    { KRW: d(50_000_000), USD: d('20000.00') },
    new Map([
      ['005930', { quantity: d(100), averagePrice: d(65000) }],
      ['NVDA', { quantity: d('5.5'), averagePrice: d('120.25') }],
    ]),
  );
}

describe('Ledger', () => {
  describe('.applyFill', () => {
    it.each([
      {
        name: 'a KR buy pays amount plus commission and moves the average price',
        fill: fill('BUY', '005930', '100', '70000', '1050', '0'),
        cash: ['KRW', '42998950'],
        holding: ['005930', '200', '67500'],
      },
      {
        name: 'a KR sell receives amount less commission and tax and keeps the average price',
        fill: fill('SELL', '005930', '10', '71900', '107', '1078'),
        cash: ['KRW', '50717815'],
        holding: ['005930', '90', '65000'],
      },
      {
        name: 'a US buy rounds the amount to the cent (2.5 × 130.123 = 325.3075 → 325.31)',
        fill: fill('BUY', 'NVDA', '2.5', '130.123', '0.33', '0'),
        cash: ['USD', '19674.36'],
        // (5.5 × 120.25 + 325.31) / 8 = 986.685 / 8 = 123.335625 → 123.3356
        holding: ['NVDA', '8', '123.3356'],
      },
      {
        name: 'a first buy opens a holding at the fill price',
        fill: fill('BUY', 'AAPL', '3', '150.25', '0.45', '0'),
        cash: ['USD', '19548.8'],
        holding: ['AAPL', '3', '150.25'],
      },
    ] as const)('$name', ({ fill, cash, holding }) => {
      const ledger = account();
      ledger.applyFill(fill);
      expect(ledger.cash(cash[0]).toFixed()).toBe(cash[1]);
      const h = ledger.holding(holding[0]);
      expect([h?.quantity.toFixed(), h?.averagePrice.toFixed()]).toEqual([holding[1], holding[2]]);
    });

    it('drops a holding sold to zero, and fails fast (booking nothing) on a sell beyond it', () => {
      const ledger = account();
      ledger.applyFill(fill('SELL', 'NVDA', '5.5', 130, '0.72'));
      expect(ledger.holding('NVDA')).toBeUndefined();
      expect(ledger.cash('USD').toFixed()).toBe('20714.28');
      expect(() => ledger.applyFill(fill('SELL', 'NVDA', 1, 130, 0))).toThrow(LedgerError);
      expect(ledger.cash('USD').toFixed()).toBe('20714.28');
    });

    it('returns the entry it booked, with the rounded amount', () => {
      const entry = account().applyFill(fill('BUY', 'AAPL', '0.333333', '150.01', '0.05'));
      // 0.333333 × 150.01 = 50.003283… → 50
      expect([entry.amount.toFixed(), entry.tax.toFixed()]).toEqual(['50', '0']);
    });

    it('never changes a holding read earlier', () => {
      const ledger = account();
      const before = ledger.holding('005930')!;
      ledger.applyFill(fill('SELL', '005930', 10, 70000, 0));
      expect(before.quantity.toFixed()).toBe('100');
      expect(ledger.quantity('005930').toFixed()).toBe('90');
    });
  });

  describe('.reserve and .release', () => {
    it('holds cash for open buys and shares for open sells, and gives them back on release', () => {
      const ledger = account();
      const buy = limitOrder('BUY', '000660', 10, 180000);
      const sell = limitOrder('SELL', '005930', 30, 72000);
      // 1,800,000 × 1.00015 = 1,800,270
      expect(ledger.reserve('b1', buy).cash.toFixed()).toBe('1800270');
      ledger.reserve('s1', sell);
      expect(ledger.buyingPower('KRW').toFixed()).toBe('48199730');
      expect(ledger.sellableQuantity('005930').toFixed()).toBe('70');
      // after a partial fill of 4 the reservation is recomputed on the remainder
      ledger.reserve('b1', { ...buy, filledQuantity: d(4), filledAmount: d(720000) });
      expect(ledger.reservedCash('KRW').toFixed()).toBe('1080162');
      ledger.release('b1');
      ledger.release('s1');
      ledger.release('never-reserved');
      expect(ledger.buyingPower('KRW').toFixed()).toBe('50000000');
      expect(ledger.sellableQuantity('005930').toFixed()).toBe('100');
    });

    it('affords an amount exactly when the buying power covers it (KRW in numbers, USD in cents)', () => {
      const ledger = new Ledger({ KRW: d(1_000_000), USD: d('100.25') });
      ledger.reserve('b', limitOrder('BUY', '005930', 10, 70000));
      // 1,000,000 − 700,105 = 299,895 KRW free
      expect([299_895, 299_896].map((n) => ledger.affords('KRW', d(n)))).toEqual([true, false]);
      expect(['100.25', '100.26'].map((n) => ledger.affords('USD', d(n)))).toEqual([true, false]);
      ledger.reserve('b', limitOrder('BUY', '005930', 20, 70000));
      // reserved more than the cash: nothing but 0 is affordable
      expect([0, 1].map((n) => ledger.affords('KRW', d(n)))).toEqual([true, false]);
    });

    it('never shows negative buying power', () => {
      const ledger = new Ledger({ KRW: d(1000) });
      ledger.reserve('b', limitOrder('BUY', '005930', 1, 70000));
      expect(ledger.buyingPower('KRW').toFixed()).toBe('0');
      expect(ledger.buyingPower('USD').toFixed()).toBe('0');
    });

    it('keeps its running totals equal to the sum of the open reservations, whatever the order of reserves, re-reserves and releases', () => {
      const order = fc.record({
        id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
        symbol: fc.constantFrom('005930', '000660', 'AAPL'),
        side: fc.constantFrom('BUY' as const, 'SELL' as const),
        quantity: fc.integer({ min: 1, max: 500 }),
        filled: fc.integer({ min: 0, max: 500 }),
        price: fc.integer({ min: 1, max: 300_000 }),
        release: fc.boolean(),
      });
      fc.assert(
        fc.property(fc.array(order, { maxLength: 40 }), (steps) => {
          const ledger = new Ledger({ KRW: d(1e12), USD: d(1e9) });
          for (const s of steps) {
            if (s.release) {
              ledger.release(s.id);
              continue;
            }
            const us = s.symbol === 'AAPL';
            ledger.reserve(
              s.id,
              limitOrder(s.side, s.symbol, s.quantity, us ? d(s.price).dividedBy(100).toFixed() : s.price, {
                filledQuantity: d(Math.min(s.filled, s.quantity)),
                reservePrice: d(s.price),
              }),
            );
          }
          const ids = ['a', 'b', 'c', 'd', 'e'];
          const open = ids.map((id) => ledger.reservation(id)).filter((r) => r !== undefined);
          for (const currency of ['KRW', 'USD'] as const) {
            const sum = open.filter((r) => r.currency === currency).reduce((t, r) => t.plus(r.cash), d(0));
            expect(ledger.reservedCash(currency).toFixed()).toBe(sum.toFixed());
          }
          for (const symbol of ['005930', '000660', 'AAPL']) {
            const sum = open.filter((r) => r.symbol === symbol).reduce((t, r) => t.plus(r.shares), d(0));
            expect(ledger.reservedShares(symbol).toFixed()).toBe(sum.toFixed());
          }
        }),
      );
    });
  });

  describe('.snapshot and .fromSnapshot', () => {
    it('round-trips cash and holdings as strings', () => {
      const snapshot = account().snapshot();
      expect(snapshot).toEqual({
        cash: { KRW: '50000000', USD: '20000' },
        holdings: {
          '005930': { quantity: '100', averagePrice: '65000' },
          NVDA: { quantity: '5.5', averagePrice: '120.25' },
        },
      });
      expect(Ledger.fromSnapshot(snapshot).snapshot()).toEqual(snapshot);
    });

    it('refuses a snapshot with an unknown currency', () => {
      expect(() => Ledger.fromSnapshot({ cash: { EUR: '1' }, holdings: {} })).toThrow(LedgerError);
    });
  });

  describe('.adjustCash', () => {
    it('adds or withdraws cash, rounded to the currency', () => {
      const ledger = new Ledger();
      ledger.adjustCash('USD', d('10.005'));
      ledger.adjustCash('KRW', d(-500));
      expect([ledger.cash('USD').toFixed(), ledger.cash('KRW').toFixed()]).toEqual(['10.01', '-500']);
    });
  });
});

describe('Ledger figures in numbers', () => {
  it('sellableInt is the sellable quantity of whole shares, NaN for a fractional holding', () => {
    const ledger = account();
    expect(ledger.sellableInt('005930')).toBe(100);
    ledger.reserve('s1', limitOrder('SELL', '005930', 30, 70000));
    expect(ledger.sellableInt('005930')).toBe(70);
    expect(ledger.sellableInt('005930')).toBe(ledger.sellableQuantity('005930').toNumber());
    expect(ledger.sellableInt('000660')).toBe(0);
    expect(ledger.sellableInt('NVDA')).toBeNaN();
  });

  it('approxBuyingPower follows the cash and the reservations, cents included', () => {
    const ledger = account();
    ledger.reserve('b1', limitOrder('BUY', 'AAPL', '3', '187.12'));
    ledger.reserve('b2', limitOrder('BUY', '005930', 10, 70000));
    for (const currency of ['USD', 'KRW'] as const) {
      const exact = ledger.cash(currency).minus(ledger.reservedCash(currency));
      expect(ledger.approxBuyingPower(currency)).toBeCloseTo(exact.toNumber(), 6);
    }
    ledger.release('b1');
    expect(ledger.approxBuyingPower('USD')).toBe(20000);
  });
});
