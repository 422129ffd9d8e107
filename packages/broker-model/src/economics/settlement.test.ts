import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { NO_HOLIDAYS } from '../calendar/exchange-holidays.js';
import { addBusinessDays, dayOrderExpiry, isBusinessDay, settlementDate, tradingDate } from './settlement.js';

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

  it.each([
    // US Wednesday 2026-11-25: T+1 is Thanksgiving (NYSE closed), so Friday
    ['US', '2026-11-26T05:00:00+09:00', '2026-11-27'],
    // KR Wednesday 2026-09-23: Chuseok 24–26 and the weekend, so Tuesday 29th is T+2
    ['KR', '2026-09-23T10:00:00+09:00', '2026-09-29'],
    // KR Tuesday 2026-12-29: T+1 the 30th, the 31st is the year-end closing, then New Year's Day
    ['KR', '2026-12-29T10:00:00+09:00', '2027-01-04'],
  ] as const)('skips the exchange holidays: a %s trade at %s settles on %s', (market, at, date) => {
    expect(settlementDate(market, ms(at))).toBe(date);
  });

  it('counts weekdays only when given no holidays', () => {
    expect(settlementDate('US', ms('2026-11-26T05:00:00+09:00'), NO_HOLIDAYS)).toBe('2026-11-26');
  });

  it('takes the holidays as a predicate (e.g. from a live calendar)', () => {
    const closed = new Set(['2026-11-24']);
    expect(settlementDate('KR', ms('2026-11-23T10:00:00+09:00'), (d) => closed.has(d))).toBe('2026-11-26');
  });
});

describe('isBusinessDay and addBusinessDays', () => {
  it.each([
    ['2026-11-27', true],
    ['2026-11-28', false],
    ['2026-11-29', false],
    ['2026-11-26', false],
  ] as const)('knows %s is a US business day: %s', (date, open) => {
    expect(isBusinessDay(date, (d) => d === '2026-11-26')).toBe(open);
  });

  it('adds zero days as the date itself', () => {
    expect(addBusinessDays('2026-11-28', 0, NO_HOLIDAYS)).toBe('2026-11-28');
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

  it('ends a KR order at 20:00 KST of its KST date at every hour from 2000 to 2030 (no zone lookup)', () => {
    for (let t = Date.UTC(2000, 0, 1); t < Date.UTC(2030, 0, 1); t += 3_600_000 * 7 + 60_001) {
      const date = DateTime.fromMillis(t, { zone: 'Asia/Seoul' }).toISODate();
      expect(dayOrderExpiry('KR', t)).toBe(
        DateTime.fromISO(`${date}T20:00:00`, { zone: 'Asia/Seoul' }).toMillis(),
      );
    }
  });
});
