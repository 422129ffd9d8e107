import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { dayOrderExpiry, settlementDate, tradingDate } from './settlement.js';

const ms = (iso: string) => DateTime.fromISO(iso).toMillis();

describe('tradingDate', () => {
  it.each([
    ['KR', '2026-11-23T23:59:00+09:00', '2026-11-23'],
    ['US', '2026-11-24T05:00:00+09:00', '2026-11-23'],
    ['US', '2026-11-24T10:30:00+09:00', '2026-11-24'],
  ] as const)('puts %s %s on %s', (market, at, date) => {
    expect(tradingDate(market, ms(at))).toBe(date);
  });
});

describe('settlementDate', () => {
  it.each([
    ['KR', '2026-11-23T10:00:00+09:00', '2026-11-25'],
    ['KR', '2026-11-26T10:00:00+09:00', '2026-11-30'],
    ['KR', '2026-11-27T10:00:00+09:00', '2026-12-01'],
    ['US', '2026-11-24T05:00:00+09:00', '2026-11-24'],
    ['US', '2026-11-28T05:00:00+09:00', '2026-11-30'],
  ] as const)('settles a %s trade at %s on %s', (market, at, date) => {
    expect(settlementDate(market, ms(at))).toBe(date);
  });
});

describe('dayOrderExpiry', () => {
  it.each([
    ['KR', '2026-11-23T08:00:00+09:00', '2026-11-23T20:00:00.000+09:00'],
    ['US', '2026-11-24T00:30:00+09:00', '2026-11-24T10:00:00.000+09:00'],
    ['US', '2026-11-24T11:00:00+09:00', '2026-11-25T10:00:00.000+09:00'],
  ] as const)('ends a %s DAY order of %s at %s', (market, at, end) => {
    expect(DateTime.fromMillis(dayOrderExpiry(market, ms(at)), { zone: 'Asia/Seoul' }).toISO()).toBe(end);
  });
});
