import { describe, expect, it } from 'vitest';
import { tradingDateRange } from './trading-dates.js';

const ms = Date.parse;

describe('tradingDateRange', () => {
  it('takes KR dates as KST midnights, --to inclusive', () => {
    expect(tradingDateRange('KR', '1m', '2026-11-23', '2026-11-24')).toEqual({
      start: ms('2026-11-23T00:00:00+09:00'),
      end: ms('2026-11-25T00:00:00+09:00'),
    });
  });

  it('takes US daily dates as their stamps (KST midnight of the trading date)', () => {
    expect(tradingDateRange('US', '1d', '2026-11-23', '2026-11-23')).toEqual({
      start: ms('2026-11-23T00:00:00+09:00'),
      end: ms('2026-11-24T00:00:00+09:00'),
    });
  });

  it('takes US minute dates as New York trading days (20:00 the evening before, exclusive, to 20:00)', () => {
    const r = tradingDateRange('US', '1m', '2026-11-23', '2026-11-23');
    expect(r).toEqual({
      start: ms('2026-11-22T20:00:00-05:00') + 1,
      end: ms('2026-11-23T20:00:00-05:00') + 1,
    });
  });

  it('clamps minute ranges to the minute history start and leaves daily ranges alone', () => {
    expect(tradingDateRange('KR', '1m', '2020-01-01', '2022-11-23')?.start).toBe(
      ms('2022-11-23T00:00:00+09:00'),
    );
    expect(tradingDateRange('US', '1m', '2020-01-01', '2021-12-01')?.start).toBe(
      ms('2021-11-30T20:00:00-05:00') + 1,
    );
    expect(tradingDateRange('KR', '1d', '2020-01-02', '2020-01-02')?.start).toBe(
      ms('2020-01-02T00:00:00+09:00'),
    );
    expect(tradingDateRange('KR', '1m', '2020-01-01', '2021-01-01')).toBeNull();
  });

  it('takes a date-time as the exact instant (inclusive --to)', () => {
    expect(tradingDateRange('KR', '1m', '2026-11-23T09:30:00+09:00', '2026-11-23T10:00:00+09:00')).toEqual({
      start: ms('2026-11-23T09:30:00+09:00'),
      end: ms('2026-11-23T10:00:00+09:00') + 1,
    });
  });

  it('bounds daily bars by their close for a date-time: a bar closing after --to is left out, one closing after --from kept', () => {
    // KR closes 15:30 KST: the 14th's bar is not closed at 12:00, the 12th's is still to close at 10:00
    expect(tradingDateRange('KR', '1d', '2026-10-12T10:00:00+09:00', '2026-10-14T12:00:00+09:00')).toEqual({
      start: ms('2026-10-12T00:00:00+09:00'),
      end: ms('2026-10-14T00:00:00+09:00'),
    });
    expect(tradingDateRange('KR', '1d', '2026-10-12T15:31:00+09:00', '2026-10-14T15:30:00+09:00')).toEqual({
      start: ms('2026-10-13T00:00:00+09:00'),
      end: ms('2026-10-15T00:00:00+09:00'),
    });
    // US closes 16:00 New York; daily stamps are KST midnight of the New York date
    expect(tradingDateRange('US', '1d', '2026-11-20T16:00:00-05:00', '2026-11-23T15:59:00-05:00')).toEqual({
      start: ms('2026-11-20T00:00:00+09:00'),
      end: ms('2026-11-23T00:00:00+09:00'),
    });
  });

  it('refuses a malformed date, naming the flag', () => {
    expect(() => tradingDateRange('KR', '1d', '2026-13-01', '2026-12-01')).toThrow(/from/);
  });
});
