import { describe, expect, it } from 'vitest';
import { isUsEarlyClose, NO_HOLIDAYS } from './exchange-holidays.js';
import { dayNumber, daySessions, orderSessionAt, usRegularSessionAt } from './session-hours.js';

const at = (iso: string): number => Date.parse(iso);

describe('orderSessionAt', () => {
  it.each([
    ['2026-11-25T07:59:59+09:00', null],
    ['2026-11-25T08:00:00+09:00', 'preMarket'],
    ['2026-11-25T08:59:59+09:00', 'preMarket'],
    ['2026-11-25T09:00:00+09:00', 'regularMarket'],
    ['2026-11-25T15:29:59+09:00', 'regularMarket'],
    ['2026-11-25T15:30:00+09:00', 'afterMarket'],
    ['2026-11-25T19:59:59+09:00', 'afterMarket'],
    ['2026-11-25T20:00:00+09:00', null],
    ['2026-11-28T10:00:00+09:00', null], // Saturday
    ['2026-09-24T10:00:00+09:00', null], // Chuseok
  ])('KR at %s: %s', (time, session) => {
    expect(orderSessionAt('KR', at(time))).toBe(session);
  });

  it.each([
    // winter: New York is UTC-5, KST is UTC+9 (14 hours ahead)
    ['2026-11-24T10:00:00+09:00', 'dayMarket'], // 20:00 New York on the 23rd: the 24th's day market
    ['2026-11-24T17:50:00+09:00', null], // 03:50 New York: the gap before the pre-market
    ['2026-11-24T18:00:00+09:00', 'preMarket'],
    ['2026-11-24T23:30:00+09:00', 'regularMarket'],
    ['2026-11-25T05:59:59+09:00', 'regularMarket'],
    ['2026-11-25T06:00:00+09:00', 'afterMarket'],
    ['2026-11-25T08:00:00+09:00', null],
    // summer: UTC-4, the regular session an hour earlier in KST
    ['2026-07-01T22:30:00+09:00', 'regularMarket'],
    ['2026-07-01T22:29:59+09:00', 'preMarket'],
    ['2026-11-26T23:30:00+09:00', null], // Thanksgiving
    // the day after Thanksgiving closes early: regular to 13:00, after-market 13:00–17:00 New York
    ['2026-11-27T12:59:59-05:00', 'regularMarket'],
    ['2026-11-27T13:00:00-05:00', 'afterMarket'],
    ['2026-11-27T16:59:59-05:00', 'afterMarket'],
    ['2026-11-27T17:00:00-05:00', null],
    ['2026-12-24T13:30:00-05:00', 'afterMarket'], // Christmas Eve
    ['2027-11-26T12:00:00-05:00', 'regularMarket'],
    ['2027-11-26T13:00:00-05:00', 'afterMarket'],
  ])('US at %s: %s', (time, session) => {
    expect(orderSessionAt('US', at(time))).toBe(session);
  });

  it.each([
    // the CSAT day 2026-11-19: pre-market 09:00–10:00, regular 10:00–16:30, after-market to 20:00
    ['2026-11-19T08:30:00+09:00', null],
    ['2026-11-19T09:00:00+09:00', 'preMarket'],
    ['2026-11-19T09:59:59+09:00', 'preMarket'],
    ['2026-11-19T10:00:00+09:00', 'regularMarket'],
    ['2026-11-19T16:29:59+09:00', 'regularMarket'],
    ['2026-11-19T16:30:00+09:00', 'afterMarket'],
    ['2026-11-19T19:59:59+09:00', 'afterMarket'],
    // the first trading day of 2027 opens late, closes as usual
    ['2027-01-04T09:30:00+09:00', 'preMarket'],
    ['2027-01-04T15:30:00+09:00', 'afterMarket'],
  ])('KR on a late opening at %s: %s', (time, session) => {
    expect(orderSessionAt('KR', at(time))).toBe(session);
  });

  it('treats an unknown holiday as a trading day when told there are none', () => {
    expect(orderSessionAt('KR', at('2026-09-24T10:00:00+09:00'), NO_HOLIDAYS)).toBe('regularMarket');
  });
});

describe('daySessions', () => {
  it('lists a day’s sessions in time order, a year without a holiday list too', () => {
    const kr = daySessions('KR', dayNumber('2031-03-04'));
    expect(kr.map((s) => s.name)).toEqual(['preMarket', 'regularMarket', 'afterMarket']);
    expect(kr[1]?.start).toBe(at('2031-03-04T09:00:00+09:00'));
    expect(kr[1]?.end).toBe(at('2031-03-04T15:30:00+09:00'));
    const us = daySessions('US', dayNumber('2031-03-04'));
    expect(us.map((s) => s.name)).toEqual(['dayMarket', 'preMarket', 'regularMarket', 'afterMarket']);
    expect(us[2]?.start).toBe(at('2031-03-04T09:30:00-05:00'));
  });
});

describe('usRegularSessionAt', () => {
  it('gives the regular session around an instant, and null outside it', () => {
    expect(usRegularSessionAt(at('2026-11-25T01:00:00+09:00'))).toEqual({
      start: at('2026-11-24T23:30:00+09:00'),
      end: at('2026-11-25T06:00:00+09:00'),
    });
    expect(usRegularSessionAt(at('2026-11-25T07:00:00+09:00'))).toBeNull();
  });

  it('ends at 13:00 New York on an early close', () => {
    expect(usRegularSessionAt(at('2026-11-27T12:00:00-05:00'))).toEqual({
      start: at('2026-11-27T09:30:00-05:00'),
      end: at('2026-11-27T13:00:00-05:00'),
    });
    expect(usRegularSessionAt(at('2026-11-27T14:00:00-05:00'))).toBeNull();
    expect(isUsEarlyClose('2026-11-27')).toBe(true);
    expect(isUsEarlyClose('2026-11-25')).toBe(false);
  });
});
