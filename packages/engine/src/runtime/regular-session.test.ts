/**
 * `ctx.regularSession`: the regular session of a symbol's market on its trading day now, by the
 * broker model in a backtest (here) and by the broker's calendar in paper and live
 * (`calendar-order-hours.test.ts`, `live/regular-session-calendar.int.test.ts`), asked of a
 * strategy's host with a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-error.js';
import { regularSessionAsker } from './market-order-hours.test-helper.js';

const at = (iso: string): number => Date.parse(iso);

/** The answer expected: the date and the open and close as ISO instants. */
function session(date: string, open: string, close: string) {
  return { date, open: at(open), close: at(close) };
}

describe('ctx.regularSession in a backtest (the broker model)', () => {
  const ask = () => regularSessionAsker({ mode: 'backtest', interval: '1m' });

  it('KR: 09:00–15:30 KST of the day, asked before, during or after it', () => {
    const q = ask();
    const monday = session('2026-11-30', '2026-11-30T09:00:00+09:00', '2026-11-30T15:30:00+09:00');
    expect(q('005930', '2026-11-30T07:00:00+09:00')).toEqual(monday);
    expect(q('005930', '2026-11-30T12:00:00+09:00')).toEqual(monday);
    expect(q('005930', '2026-11-30T19:00:00+09:00')).toEqual(monday);
  });

  it('KR: the CSAT day, 10:00–16:30, as the order rules judge it', () => {
    expect(ask()('005930', '2026-11-19T10:30:00+09:00')).toEqual(
      session('2026-11-19', '2026-11-19T10:00:00+09:00', '2026-11-19T16:30:00+09:00'),
    );
  });

  it('US: 09:30–16:00 New York, the early close at 13:00 after Thanksgiving, null on Thanksgiving', () => {
    const q = ask();
    expect(q('AAPL', '2026-12-07T10:00:00-05:00')).toEqual(
      session('2026-12-07', '2026-12-07T09:30:00-05:00', '2026-12-07T16:00:00-05:00'),
    );
    expect(q('AAPL', '2026-11-27T10:00:00-05:00')).toEqual(
      session('2026-11-27', '2026-11-27T09:30:00-05:00', '2026-11-27T13:00:00-05:00'),
    );
    expect(q('AAPL', '2026-11-26T10:00:00-05:00')).toBeNull();
  });

  it("US: from 20:00 New York, the next day's (its trading day begins then, as the order hours count it)", () => {
    expect(ask()('AAPL', '2026-12-07T21:00:00-05:00')).toEqual(
      session('2026-12-08', '2026-12-08T09:30:00-05:00', '2026-12-08T16:00:00-05:00'),
    );
  });

  it('null on a weekend; each market by its own hours; the same object while the day stays', () => {
    const q = ask();
    expect(q('005930', '2026-11-28T12:00:00+09:00')).toBeNull();
    const first = q('005930', '2026-12-01T09:01:00+09:00');
    expect(q('005930', '2026-12-01T15:00:00+09:00')).toBe(first);
    // Tuesday 10:00 KST is Monday 20:00 New York: the US trading day of Tuesday
    expect(q('AAPL', '2026-12-01T10:00:00+09:00')).toEqual(
      session('2026-12-01', '2026-12-01T09:30:00-05:00', '2026-12-01T16:00:00-05:00'),
    );
  });

  it('a daily backtest answers too; a symbol in lower case is read upper-cased, one that is no symbol refused', () => {
    const q = regularSessionAsker({ mode: 'backtest', interval: '1d' });
    expect(q('aapl', '2026-12-07T10:00:00-05:00')?.date).toBe('2026-12-07');
    expect(() => q(42 as unknown as string, '2026-12-07T10:00:00-05:00')).toThrow(EngineError);
    expect(() => q('', '2026-12-07T10:00:00-05:00')).toThrow(/regularSession: expected a symbol/);
  });
});
