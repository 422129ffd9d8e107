import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { formatKst } from '../time/zones.js';
import { parseKrMarketCalendar, parseUsMarketCalendar } from './calendar-parse.js';

const session = { startTime: '2026-11-23T09:00:00+09:00', endTime: '2026-11-23T15:30:00+09:00' };
const krDay = (date: string) => ({
  date,
  integrated: { preMarket: null, regularMarket: session, afterMarket: null },
});
const usDay = (date: string) => ({
  date,
  dayMarket: null,
  preMarket: null,
  regularMarket: session,
  afterMarket: null,
});

function errorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('expected a ValidationError');
}

describe('parseKrMarketCalendar', () => {
  it('converts times to DateTimes and keeps null sessions', () => {
    const cal = parseKrMarketCalendar({
      previousBusinessDay: krDay('2026-11-20'),
      today: { date: '2026-11-22', integrated: null },
      nextBusinessDay: {
        date: '2026-11-23',
        integrated: {
          preMarket: null,
          regularMarket: { ...session, singlePriceAuctionStartTime: '2026-11-23T15:20:00+09:00' },
          afterMarket: null,
        },
      },
    });
    expect(cal.today.integrated).toBeNull();
    expect(cal.nextBusinessDay.integrated?.preMarket).toBeNull();
    const regular = cal.nextBusinessDay.integrated?.regularMarket;
    expect(regular && formatKst(regular.endTime)).toBe('2026-11-23T15:30:00.000+09:00');
    expect(regular?.singlePriceAuctionStartTime && formatKst(regular.singlePriceAuctionStartTime)).toBe(
      '2026-11-23T15:20:00.000+09:00',
    );
  });

  it('omits an auction time when the payload has null', () => {
    const cal = parseKrMarketCalendar({
      previousBusinessDay: krDay('2026-11-20'),
      today: {
        date: '2026-11-23',
        integrated: {
          preMarket: null,
          regularMarket: { ...session, singlePriceAuctionStartTime: null },
          afterMarket: null,
        },
      },
      nextBusinessDay: krDay('2026-11-24'),
    });
    expect(cal.today.integrated?.regularMarket).not.toHaveProperty('singlePriceAuctionStartTime');
  });

  it.each([
    [
      'a missing day',
      { previousBusinessDay: krDay('2026-11-20'), today: krDay('2026-11-23') },
      'nextBusinessDay',
    ],
    [
      'a bad date',
      {
        previousBusinessDay: krDay('2026-11-20'),
        today: krDay('2026-11-31'),
        nextBusinessDay: krDay('2026-12-01'),
      },
      'today.date',
    ],
    [
      'a time without offset',
      {
        previousBusinessDay: krDay('2026-11-20'),
        today: {
          date: '2026-11-23',
          integrated: { regularMarket: { ...session, endTime: '2026-11-23T15:30:00' } },
        },
        nextBusinessDay: krDay('2026-11-24'),
      },
      'today.integrated.regularMarket.endTime',
    ],
    [
      'an end before the start',
      {
        previousBusinessDay: krDay('2026-11-20'),
        today: {
          date: '2026-11-23',
          integrated: { regularMarket: { startTime: session.endTime, endTime: session.startTime } },
        },
        nextBusinessDay: krDay('2026-11-24'),
      },
      'today.integrated.regularMarket',
    ],
    ['a non-object payload', 'closed', 'calendar'],
  ])('throws a ValidationError naming the path when given %s', (_label, payload, field) => {
    expect(errorOf(() => parseKrMarketCalendar(payload)).field).toBe(field);
  });
});

describe('parseUsMarketCalendar', () => {
  it('parses four nullable sessions per day', () => {
    const cal = parseUsMarketCalendar({
      previousBusinessDay: usDay('2026-11-20'),
      today: usDay('2026-11-23'),
      nextBusinessDay: usDay('2026-11-24'),
    });
    expect(cal.today.dayMarket).toBeNull();
    expect(cal.today.regularMarket?.startTime.toMillis()).toBe(Date.parse('2026-11-23T00:00:00Z'));
  });

  it('throws a ValidationError naming the path when a session time is not a string', () => {
    const bad = { ...usDay('2026-11-23'), preMarket: { startTime: 1, endTime: session.endTime } };
    const error = errorOf(() =>
      parseUsMarketCalendar({
        previousBusinessDay: usDay('2026-11-20'),
        today: bad,
        nextBusinessDay: usDay('2026-11-24'),
      }),
    );
    expect(error.field).toBe('today.preMarket.startTime');
  });
});
