import { describe, expect, it } from 'vitest';
import { formatKst, parseDateTime } from '../time/zones.js';
import { parseKrMarketCalendar, parseUsMarketCalendar } from './calendar-parse.js';
import { SessionName } from './calendar-types.js';
import { isMarketOpen, isTradingDay, nextClose, nextOpen, sessionAt } from './sessions.js';

const at = (iso: string) => parseDateTime(iso, 'at');

function krDay(date: string) {
  const t = (hm: string) => `${date}T${hm}:00+09:00`;
  return {
    date,
    integrated: {
      preMarket: { startTime: t('08:00'), singlePriceAuctionStartTime: t('08:50'), endTime: t('09:00') },
      regularMarket: { startTime: t('09:00'), singlePriceAuctionStartTime: t('15:20'), endTime: t('15:30') },
      afterMarket: { startTime: t('15:30'), singlePriceAuctionEndTime: t('15:40'), endTime: t('20:00') },
    },
  };
}

/** Winter (EST) US day as the broker lists it in KST: sessions after 24:00 KST fall on the next day. */
function usDay(date: string, nextDate: string) {
  const t = (d: string, hm: string) => `${d}T${hm}:00+09:00`;
  return {
    date,
    dayMarket: { startTime: t(date, '10:00'), endTime: t(date, '17:50') },
    preMarket: { startTime: t(date, '18:00'), endTime: t(date, '23:30') },
    regularMarket: { startTime: t(date, '23:30'), endTime: t(nextDate, '06:00') },
    afterMarket: { startTime: t(nextDate, '06:00'), endTime: t(nextDate, '08:00') },
  };
}

const kr = parseKrMarketCalendar({
  previousBusinessDay: krDay('2026-11-20'),
  today: krDay('2026-11-23'),
  nextBusinessDay: krDay('2026-11-24'),
});

const krHoliday = parseKrMarketCalendar({
  previousBusinessDay: krDay('2026-11-20'),
  today: { date: '2026-11-22', integrated: null },
  nextBusinessDay: {
    ...krDay('2026-11-23'),
    integrated: { ...krDay('2026-11-23').integrated, preMarket: null },
  },
});

const us = parseUsMarketCalendar({
  previousBusinessDay: usDay('2026-11-20', '2026-11-21'),
  today: usDay('2026-11-23', '2026-11-24'),
  nextBusinessDay: usDay('2026-11-24', '2026-11-25'),
});

// Thanksgiving closed, the next day a half day: regular ends 13:00 New York (03:00 KST), no after-market.
const usThanksgiving = parseUsMarketCalendar({
  previousBusinessDay: usDay('2026-11-25', '2026-11-26'),
  today: { date: '2026-11-26', dayMarket: null, preMarket: null, regularMarket: null, afterMarket: null },
  nextBusinessDay: {
    ...usDay('2026-11-27', '2026-11-28'),
    regularMarket: { startTime: '2026-11-27T23:30:00+09:00', endTime: '2026-11-28T03:00:00+09:00' },
    afterMarket: null,
  },
});

describe('sessionAt', () => {
  it.each([
    ['KR before the pre-market', kr, '2026-11-23T07:59:59.999+09:00', null, null],
    ['KR pre-market start', kr, '2026-11-23T08:00:00.000+09:00', 'preMarket', '2026-11-23'],
    ['KR pre-market last ms', kr, '2026-11-23T08:59:59.999+09:00', 'preMarket', '2026-11-23'],
    ['KR regular start', kr, '2026-11-23T09:00:00.000+09:00', 'regularMarket', '2026-11-23'],
    ['KR regular last ms', kr, '2026-11-23T15:29:59.999+09:00', 'regularMarket', '2026-11-23'],
    ['KR after-market start', kr, '2026-11-23T15:30:00.000+09:00', 'afterMarket', '2026-11-23'],
    ['KR after-market last ms', kr, '2026-11-23T19:59:59.999+09:00', 'afterMarket', '2026-11-23'],
    ['KR after the after-market', kr, '2026-11-23T20:00:00.000+09:00', null, null],
    ['KR previous business day', kr, '2026-11-20T10:00:00.000+09:00', 'regularMarket', '2026-11-20'],
    ['KR given in UTC', kr, '2026-11-24T00:30:00.000Z', 'regularMarket', '2026-11-24'],
    ['KR non-trading day', krHoliday, '2026-11-22T10:00:00.000+09:00', null, null],
    ['KR closed single session', krHoliday, '2026-11-23T08:30:00.000+09:00', null, null],
    [
      'KR open session next to a closed one',
      krHoliday,
      '2026-11-23T09:00:00.000+09:00',
      'regularMarket',
      '2026-11-23',
    ],
    ['US day market', us, '2026-11-23T10:00:00.000+09:00', 'dayMarket', '2026-11-23'],
    ['US gap between day and pre-market', us, '2026-11-23T17:55:00.000+09:00', null, null],
    ['US regular before KST midnight', us, '2026-11-23T23:59:59.999+09:00', 'regularMarket', '2026-11-23'],
    ['US regular after KST midnight', us, '2026-11-24T00:00:00.000+09:00', 'regularMarket', '2026-11-23'],
    [
      'US regular last ms on the next KST day',
      us,
      '2026-11-24T05:59:59.999+09:00',
      'regularMarket',
      '2026-11-23',
    ],
    ['US after-market on the next KST day', us, '2026-11-24T06:00:00.000+09:00', 'afterMarket', '2026-11-23'],
    ['US after the after-market', us, '2026-11-24T08:00:00.000+09:00', null, null],
    ['US closed day', usThanksgiving, '2026-11-27T00:00:00.000+09:00', null, null],
    ['US half day after the early close', usThanksgiving, '2026-11-28T03:00:00.000+09:00', null, null],
  ])('%s at %s is %s', (_label, calendar, ts, name, date) => {
    const session = sessionAt(calendar, at(ts));
    expect(session?.name ?? null).toBe(name);
    expect(session?.date ?? null).toBe(date);
    expect(isMarketOpen(calendar, at(ts))).toBe(name !== null);
  });

  it('keeps the single-price auction times of KR sessions', () => {
    const session = sessionAt(kr, at('2026-11-23T15:35:00+09:00'));
    expect(
      session?.session.singlePriceAuctionEndTime && formatKst(session.session.singlePriceAuctionEndTime),
    ).toBe('2026-11-23T15:40:00.000+09:00');
  });

  it('ignores other sessions when given a filter', () => {
    expect(sessionAt(us, at('2026-11-23T20:00:00+09:00'), [SessionName.REGULAR_MARKET])).toBeNull();
    expect(isMarketOpen(us, at('2026-11-24T01:00:00+09:00'), [SessionName.REGULAR_MARKET])).toBe(true);
  });
});

describe('nextOpen', () => {
  it.each([
    [
      'KR before the pre-market',
      kr,
      '2026-11-23T07:00:00.000+09:00',
      'preMarket',
      '2026-11-23T08:00:00.000+09:00',
    ],
    [
      'KR at the pre-market start',
      kr,
      '2026-11-23T08:00:00.000+09:00',
      'regularMarket',
      '2026-11-23T09:00:00.000+09:00',
    ],
    ['KR after close', kr, '2026-11-23T20:00:00.000+09:00', 'preMarket', '2026-11-24T08:00:00.000+09:00'],
    [
      'KR on a non-trading day',
      krHoliday,
      '2026-11-22T12:00:00.000+09:00',
      'regularMarket',
      '2026-11-23T09:00:00.000+09:00',
    ],
    ['US after close', us, '2026-11-24T08:00:00.000+09:00', 'dayMarket', '2026-11-24T10:00:00.000+09:00'],
    [
      'US on a closed day',
      usThanksgiving,
      '2026-11-27T00:00:00.000+09:00',
      'dayMarket',
      '2026-11-27T10:00:00.000+09:00',
    ],
  ])('%s at %s is %s at %s', (_label, calendar, ts, name, open) => {
    const boundary = nextOpen(calendar, at(ts));
    expect(boundary?.name).toBe(name);
    expect(boundary && formatKst(boundary.at)).toBe(open);
  });

  it('returns null when the calendar shows no later session', () => {
    expect(nextOpen(usThanksgiving, at('2026-11-28T03:00:00+09:00'))).toBeNull();
  });

  it('finds the next regular session when filtered', () => {
    const boundary = nextOpen(us, at('2026-11-23T10:00:00+09:00'), [SessionName.REGULAR_MARKET]);
    expect(boundary && formatKst(boundary.at)).toBe('2026-11-23T23:30:00.000+09:00');
  });
});

describe('nextClose', () => {
  it.each([
    [
      'KR in the regular session',
      kr,
      '2026-11-23T10:00:00.000+09:00',
      'regularMarket',
      '2026-11-23T15:30:00.000+09:00',
    ],
    [
      'KR at the regular end',
      kr,
      '2026-11-23T15:30:00.000+09:00',
      'afterMarket',
      '2026-11-23T20:00:00.000+09:00',
    ],
    ['KR while closed', kr, '2026-11-23T21:00:00.000+09:00', 'preMarket', '2026-11-24T09:00:00.000+09:00'],
    [
      'US regular ending on the next KST day',
      us,
      '2026-11-23T23:45:00.000+09:00',
      'regularMarket',
      '2026-11-24T06:00:00.000+09:00',
    ],
    [
      'US half day',
      usThanksgiving,
      '2026-11-28T01:00:00.000+09:00',
      'regularMarket',
      '2026-11-28T03:00:00.000+09:00',
    ],
  ])('%s at %s is the end of %s at %s', (_label, calendar, ts, name, close) => {
    const boundary = nextClose(calendar, at(ts));
    expect(boundary?.name).toBe(name);
    expect(boundary && formatKst(boundary.at)).toBe(close);
  });

  it('returns null after the last session of the calendar', () => {
    expect(nextClose(kr, at('2026-11-24T20:00:00+09:00'))).toBeNull();
  });
});

describe('isTradingDay', () => {
  it.each([
    ['KR trading day', kr.today, true],
    ['KR non-trading day', krHoliday.today, false],
    ['KR day with a closed pre-market', krHoliday.nextBusinessDay, true],
    ['US trading day', us.today, true],
    ['US closed day', usThanksgiving.today, false],
    ['US half day', usThanksgiving.nextBusinessDay, true],
  ])('%s is %s', (_label, day, expected) => {
    expect(isTradingDay(day)).toBe(expected);
  });
});
