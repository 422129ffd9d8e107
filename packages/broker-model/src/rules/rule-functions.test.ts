import { Decimal, PLAIN_TRADING_FLAGS, SessionName, type TradableInstrument } from '@hoga/core';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { checkModify } from './admission.js';
import { checkChangeable, checkStillOpen } from './change-rules.js';
import { checkLimitPrice, minOrderAmountRejection, usPriceTruncation } from './order-request.js';
import { krPriceLimits } from './price-limits.js';
import type { MarketMoment } from './rule-inputs.js';
import {
  checkAmountOrderWindow,
  checkNotSuspended,
  checkOrderHours,
  checkOrderTypeInSession,
  nextOrderOpen,
} from './session-rules.js';

const KST = 'Asia/Seoul';
const at = (iso: string) => DateTime.fromISO(iso, { zone: KST });
const samsung: TradableInstrument = {
  symbol: '005930',
  market: 'KR',
  currency: 'KRW',
  securityType: 'STOCK',
  flags: { ...PLAIN_TRADING_FLAGS, nxtSupported: true, nxtSuspended: false },
};

function moment(iso: string, session: SessionName | null, nextOpenAt: DateTime | null = null): MarketMoment {
  return {
    at: at(iso),
    session,
    nextOpenAt,
    usRegularHours: null,
    priceLimits: null,
    lastPrice: new Decimal(65800),
    usdKrw: new Decimal(1370),
  };
}

describe('nextOrderOpen', () => {
  // A calendar open 08:00–20:00 KST on weekdays.
  const weekdays = (ms: number) => {
    const t = DateTime.fromMillis(ms, { zone: KST });
    return t.weekday <= 5 && t.hour >= 8 && t.hour < 20 ? SessionName.REGULAR_MARKET : null;
  };

  it.each([
    ['2026-11-28T10:00:00', '2026-11-30T08:00:00'], // Saturday → Monday 08:00
    ['2026-11-23T20:00:00', '2026-11-24T08:00:00'], // Monday evening → Tuesday
    ['2026-11-23T07:59:30', '2026-11-23T08:00:00'], // the next whole minute
    ['2026-11-23T10:00:00', '2026-11-23T10:00:00'], // already open
  ])('from %s finds %s', (from, expected) => {
    expect(nextOrderOpen(weekdays, at(from))?.toMillis()).toBe(at(expected).toMillis());
  });

  it('answers null when nothing opens within 8 days', () => {
    expect(nextOrderOpen(() => null, at('2026-11-23T10:00:00'))).toBeNull();
  });
});

describe('checkOrderHours', () => {
  it('gives retryAfterAt in KST when the next opening is known', () => {
    const verdict = checkOrderHours(samsung, moment('2026-11-28T10:00:00', null, at('2026-11-30T08:00:00')));
    expect(verdict).toMatchObject({
      accepted: false,
      code: 'order-hours-closed',
      status: 422,
      data: { retryAfterAt: '2026-11-30T08:00:00.000+09:00' },
    });
  });

  it('says in its message when orders are taken again: KST for KR, KST and New York for US', () => {
    const kr = checkOrderHours(samsung, moment('2026-11-28T10:00:00', null, at('2026-11-30T08:00:00')));
    expect(kr.accepted ? '' : kr.message).toBe(
      'KR orders are not accepted at 2026-11-28 10:00 KST (Sat); they are taken again from 2026-11-30 08:00 KST (Mon)',
    );
    // Sunday 20:00 New York (EST), the day market of Monday 2026-11-30
    const us = checkOrderHours(
      { market: 'US' },
      moment('2026-11-28T10:00:00', null, at('2026-11-30T10:00:00')),
    );
    expect(us.accepted ? '' : us.message).toBe(
      'US orders are not accepted at 2026-11-28 10:00 KST (Sat) = 2026-11-27 20:00 New York (Fri); they are taken again from 2026-11-30 10:00 KST (Mon) = 2026-11-29 20:00 New York (Sun)',
    );
  });

  it('says when the next opening is not known', () => {
    const verdict = checkOrderHours(samsung, moment('2026-11-28T10:00:00', null, null));
    expect(verdict.accepted ? '' : verdict.message).toMatch(/when they are taken again is not known$/);
    expect(verdict.accepted ? {} : verdict.data).toBeUndefined();
  });
});

describe('checkOrderTypeInSession', () => {
  it('says when the regular session opens, when the moment knows', () => {
    const moment = { session: SessionName.PRE_MARKET, regularOpenAt: at('2026-11-23T09:00:00') };
    const verdict = checkOrderTypeInSession({ orderType: 'MARKET', timeInForce: 'DAY' }, moment, 'KR');
    expect(verdict.accepted ? '' : verdict.message).toBe(
      'MARKET orders are accepted in the regular session only; the regular session opens at 2026-11-23 09:00 KST (Mon)',
    );
    const bare = checkOrderTypeInSession(
      { orderType: 'MARKET', timeInForce: 'DAY' },
      { session: SessionName.PRE_MARKET },
    );
    expect(bare.accepted ? '' : bare.message).toBe('MARKET orders are accepted in the regular session only');
  });
});

describe('checkAmountOrderWindow', () => {
  it('says when the next US regular session opens, outside one', () => {
    const verdict = checkAmountOrderWindow(
      'orderAmount',
      null,
      at('2026-12-02T20:00:00'),
      at('2026-12-02T23:30:00'),
    );
    expect(verdict.accepted ? '' : verdict.message).toMatch(
      /; the next regular session opens at 2026-12-02 23:30 KST \(Wed\) = 2026-12-02 09:30 New York \(Wed\)$/,
    );
  });
});

describe('checkAmountOrderWindow in the last hour of a regular session', () => {
  it('says when the window closed (before, it said only the rule)', () => {
    const regular = { start: at('2026-11-25T23:30:00'), end: at('2026-11-26T06:00:00') };
    const verdict = checkAmountOrderWindow('orderAmount', regular, at('2026-11-26T05:30:00'));
    expect(verdict.accepted ? '' : verdict.message).toBe(
      'Amount and fractional orders are accepted from the US regular-session start until one hour before its end; today they stopped at 2026-11-26 05:00 KST (Thu) = 2026-11-25 15:00 New York (Wed)',
    );
  });
});

describe('checkNotSuspended', () => {
  it.each([
    [false, false, SessionName.REGULAR_MARKET, true],
    [true, false, SessionName.REGULAR_MARKET, false],
    [false, true, SessionName.REGULAR_MARKET, true], // the main exchange still takes it
    [false, true, SessionName.PRE_MARKET, false], // an NXT-only session
    [false, false, SessionName.AFTER_MARKET, true],
  ] as const)('krx suspended %s, nxt suspended %s, in %s: accepted %s', (krx, nxt, session, accepted) => {
    const instrument = { ...samsung, flags: { ...samsung.flags, krxSuspended: krx, nxtSuspended: nxt } };
    expect(checkNotSuspended(instrument, moment('2026-11-23T10:00:00', session)).accepted).toBe(accepted);
  });
});

describe('checkStillOpen', () => {
  it.each([
    ['PENDING', null],
    ['PARTIAL_FILLED', null],
    ['FILLED', 'already-filled'],
    ['CANCELED', 'already-canceled'],
    ['REPLACED', 'already-modified'],
    ['REJECTED', 'already-rejected'],
    ['CANCEL_REJECTED', 'already-rejected'],
    ['REPLACE_REJECTED', 'already-rejected'],
    ['PENDING_CANCEL', 'already-processing'],
    ['PENDING_REPLACE', 'already-processing'],
  ] as const)('answers %s with %s', (status, code) => {
    const verdict = checkStillOpen({ orderId: 'o-1', status });
    if (code === null) expect(verdict.accepted).toBe(true);
    else expect(verdict).toMatchObject({ accepted: false, code, status: 409 });
  });

  it('tells a client to retry a processing order after a second', () => {
    expect(checkStillOpen({ orderId: 'o-1', status: 'PENDING_CANCEL' })).toMatchObject({
      data: { retryAfterSeconds: 1 },
    });
  });
});

describe('checkChangeable', () => {
  const closeMs = at('2026-11-24T06:00:00').toMillis();
  const cls = { orderAmount: null, timeInForce: 'CLS' as const, expiresAtMs: closeMs };

  it.each([
    ['modify', '2026-11-24T05:49:59', true],
    ['modify', '2026-11-24T05:50:00', false],
    ['cancel', '2026-11-24T05:49:59', true],
    ['cancel', '2026-11-24T05:50:00', false],
  ] as const)('a CLS %s at %s: accepted %s', (action, when, accepted) => {
    expect(checkChangeable(cls, action, at(when).toMillis()).accepted).toBe(accepted);
  });

  it('refuses to modify an amount order, but lets it be cancelled', () => {
    const amount = { orderAmount: new Decimal(100), timeInForce: 'DAY' as const, expiresAtMs: closeMs };
    expect(checkChangeable(amount, 'modify', 0)).toMatchObject({ code: 'modify-restricted', status: 422 });
    expect(checkChangeable(amount, 'cancel', 0).accepted).toBe(true);
  });
});

describe("checkModify: the replacement keeps the order's time in force and quantity", () => {
  const apple: TradableInstrument = { ...samsung, symbol: 'AAPL', market: 'US', currency: 'USD' };
  const usOpen = {
    ...moment('2026-11-24T00:30:00', SessionName.REGULAR_MARKET),
    lastPrice: new Decimal(225),
  };
  const target = {
    orderId: 'o-1',
    status: 'PENDING' as const,
    side: 'SELL' as const,
    timeInForce: 'DAY' as const,
    quantity: new Decimal('0.5'),
    filledQuantity: new Decimal(0),
    orderAmount: null,
    expiresAtMs: Number.POSITIVE_INFINITY,
  };
  const toLimit = {
    orderType: 'LIMIT' as const,
    price: new Decimal(230),
    quantity: null,
    confirmHighValueOrder: false,
  };

  it('refuses to turn a fractional market sell into a limit order (fractions are for market sells only)', () => {
    expect(checkModify({ instrument: apple, order: target, request: toLimit, moment: usOpen })).toMatchObject(
      {
        accepted: false,
        code: 'invalid-request',
        status: 400,
        data: { field: 'orderType', allowedValues: ['MARKET'] },
      },
    );
  });

  it('refuses to turn a CLS limit into a market order (CLS is for limit orders only)', () => {
    const cls = { ...target, timeInForce: 'CLS' as const, quantity: new Decimal(1) };
    const toMarket = { ...toLimit, orderType: 'MARKET' as const, price: null };
    expect(checkModify({ instrument: apple, order: cls, request: toMarket, moment: usOpen })).toMatchObject({
      accepted: false,
      code: 'invalid-request',
      data: { field: 'orderType', allowedValues: ['LIMIT'] },
    });
  });

  it('lets a whole-share order change its type, and a CLS limit its price', () => {
    const whole = { ...target, quantity: new Decimal(2) };
    expect(checkModify({ instrument: apple, order: whole, request: toLimit, moment: usOpen })).toMatchObject({
      accepted: true,
      quantity: new Decimal(2),
    });
    const cls = { ...whole, timeInForce: 'CLS' as const };
    expect(checkModify({ instrument: apple, order: cls, request: toLimit, moment: usOpen }).accepted).toBe(
      true,
    );
  });
});

describe('checkLimitPrice', () => {
  it('puts the tick size and the nearest valid prices in data', () => {
    expect(checkLimitPrice(samsung, new Decimal(72050))).toMatchObject({
      accepted: false,
      code: 'invalid-request',
      data: { field: 'price', tickSize: '100', lowerTick: '72000', upperTick: '72100' },
    });
  });

  it('refuses a US price that truncates to nothing', () => {
    const apple = { ...samsung, symbol: 'AAPL', market: 'US' as const, currency: 'USD' as const };
    expect(checkLimitPrice(apple, new Decimal('0.00001'))).toMatchObject({
      accepted: false,
      code: 'invalid-request',
    });
  });
});

describe('usPriceTruncation', () => {
  const apple = { ...samsung, symbol: 'AAPL', market: 'US' as const, currency: 'USD' as const };
  it.each([
    ['220.129', '0.01', '220.12', '220.13'],
    ['100.005', '0.01', '100', '100.01'],
    ['0.12345', '0.0001', '0.1234', '0.1235'],
  ])(
    '%s: the broker works it at its truncation; the nearest prices either side',
    (price, tick, lower, upper) => {
      const off = usPriceTruncation(apple, new Decimal(price));
      expect(off?.tickSize.toFixed()).toBe(tick);
      expect(off?.truncatedTo.toFixed()).toBe(lower);
      expect(off?.nearestPrices.map((p) => p.toFixed())).toEqual([lower, upper]);
      // the same price the broker model's admission works with
      expect(checkLimitPrice(apple, new Decimal(price))).toMatchObject({
        accepted: true,
        price: off?.truncatedTo,
      });
    },
  );
  it('is null on the grid and for a KR instrument', () => {
    expect(usPriceTruncation(apple, new Decimal('220.12'))).toBeNull();
    expect(usPriceTruncation(apple, new Decimal('0.1234'))).toBeNull();
    expect(usPriceTruncation(samsung, new Decimal('72050'))).toBeNull();
  });
});

describe('minOrderAmountRejection', () => {
  it('rejects an amount under 1 USD, not one of 1 USD or an order by quantity', () => {
    expect(minOrderAmountRejection(new Decimal('0.99'))).toBe(
      'An amount order of 0.99 USD is under the broker’s least amount, 1 USD: the broker takes it, then rejects it',
    );
    expect(minOrderAmountRejection(new Decimal('1'))).toBeNull();
    expect(minOrderAmountRejection(null)).toBeNull();
  });
});

describe('krPriceLimits', () => {
  it('puts the limits ±30% of the reference, inward on the grid', () => {
    const limits = krPriceLimits(samsung, new Decimal(65400));
    expect([limits.lower.toFixed(), limits.upper.toFixed()]).toEqual(['45800', '85000']);
  });
});
