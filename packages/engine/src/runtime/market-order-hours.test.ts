/**
 * `ctx.marketOrderAllowed`: whether the broker takes a market order now, by the broker model's
 * session rules, asked of a strategy's host with a fake clock.
 */
import type { TradingMode } from '@hoga/store';
import { describe, expect, it } from 'vitest';
import { amountOrderAsker, marketOrderAsker } from './market-order-hours.test-helper.js';

/** A host of `mode` on `interval` bars whose clock the test sets, and its question at an instant. */
function askAt(mode: TradingMode = 'backtest', interval: '1m' | '1d' = '1m') {
  return marketOrderAsker({ mode, interval });
}

describe('ctx.marketOrderAllowed', () => {
  it('KR: from the regular open at 09:00 to 15:29; the pre-market and the after-market from 15:30 take none', () => {
    const ask = askAt();
    expect(ask('005930', '2026-11-30T07:59:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-30T08:59:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-30T09:00:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-30T12:00:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-30T15:29:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-30T15:29:59.999+09:00')).toBe(true);
    // the bar stamped 15:30 closes in the after-market: a market order placed on it is refused
    expect(ask('005930', '2026-11-30T15:30:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-30T19:59:00+09:00')).toBe(false);
    expect(ask('005930', '2026-12-01T09:00:00+09:00')).toBe(true);
  });

  it('KR: the CSAT day opens at 10:00 and closes at 16:30', () => {
    const ask = askAt();
    expect(ask('005930', '2026-11-19T09:00:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-19T09:59:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-19T10:00:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-19T16:29:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-19T16:30:00+09:00')).toBe(false);
  });

  it('US: 09:30 to 15:59 New York, an early close at 13:00, daylight saving time followed', () => {
    const ask = askAt();
    expect(ask('AAPL', '2026-12-07T09:29:00-05:00')).toBe(false);
    expect(ask('AAPL', '2026-12-07T09:30:00-05:00')).toBe(true);
    expect(ask('AAPL', '2026-12-07T15:59:00-05:00')).toBe(true);
    expect(ask('AAPL', '2026-12-07T16:00:00-05:00')).toBe(false);
    expect(ask('AAPL', '2026-07-06T09:30:00-04:00')).toBe(true);
    expect(ask('AAPL', '2026-07-06T16:00:00-04:00')).toBe(false);
    // the day after Thanksgiving closes at 13:00
    expect(ask('AAPL', '2026-11-27T12:59:00-05:00')).toBe(true);
    expect(ask('AAPL', '2026-11-27T13:00:00-05:00')).toBe(false);
    expect(ask('AAPL', '2026-11-27T15:00:00-05:00')).toBe(false);
  });

  it('takes none on an exchange holiday or a weekend, and answers each market by its own hours', () => {
    const ask = askAt();
    // Thanksgiving (US), Hangul Day (KR), a Saturday
    expect(ask('AAPL', '2026-11-26T11:00:00-05:00')).toBe(false);
    expect(ask('005930', '2026-10-09T11:00:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-28T11:00:00+09:00')).toBe(false);
    // 23:31 KST on a Monday: New York's regular session, Seoul's night
    expect(ask('AAPL', '2026-02-23T23:31:00+09:00')).toBe(true);
    expect(ask('005930', '2026-02-23T23:31:00+09:00')).toBe(false);
  });

  it('answers anew when the clock goes back into a stretch it left', () => {
    const ask = askAt();
    expect(ask('005930', '2026-11-30T15:30:00+09:00')).toBe(false);
    expect(ask('005930', '2026-11-30T10:00:00+09:00')).toBe(true);
    expect(ask('005930', '2026-11-30T08:30:00+09:00')).toBe(false);
  });

  it('a daily backtest takes every market order (it is for the next open); paper on daily bars asks the clock', () => {
    expect(askAt('backtest', '1d')('005930', '2026-11-30T15:30:00+09:00')).toBe(true);
    expect(askAt('paper', '1d')('005930', '2026-11-30T15:30:00+09:00')).toBe(false);
    expect(askAt('live', '1m')('005930', '2026-11-30T09:00:00+09:00')).toBe(true);
  });
});

describe('ctx.amountOrderAllowed', () => {
  const ask = (mode: TradingMode = 'backtest', interval: '1m' | '1d' = '1m') =>
    amountOrderAsker({ mode, interval });

  it("US: from the regular open at 09:30 to an hour before the close, New York time (the broker model's window)", () => {
    const at = ask();
    expect(at('AAPL', '2026-12-07T09:29:59.999-05:00')).toBe(false);
    expect(at('AAPL', '2026-12-07T09:30:00-05:00')).toBe(true);
    expect(at('AAPL', '2026-12-07T12:00:00-05:00')).toBe(true);
    expect(at('AAPL', '2026-12-07T14:59:59.999-05:00')).toBe(true);
    // the last hour: a market order is still taken, an amount or fractional one no longer
    expect(at('AAPL', '2026-12-07T15:00:00-05:00')).toBe(false);
    expect(ask()('AAPL', '2026-12-07T15:30:00-05:00')).toBe(false);
    expect(marketOrderAsker({ mode: 'backtest', interval: '1m' })('AAPL', '2026-12-07T15:30:00-05:00')).toBe(
      true,
    );
    expect(at('AAPL', '2026-12-07T16:00:00-05:00')).toBe(false);
    // the pre-market and the day market take none
    expect(at('AAPL', '2026-12-07T08:00:00-05:00')).toBe(false);
    expect(at('AAPL', '2026-12-07T21:00:00-05:00')).toBe(false);
    // summer time
    expect(at('AAPL', '2026-07-06T09:30:00-04:00')).toBe(true);
    expect(at('AAPL', '2026-07-06T15:00:00-04:00')).toBe(false);
  });

  it('US: an early close at 13:00 ends the window at 12:00; a holiday and a weekend have none', () => {
    const at = ask();
    expect(at('AAPL', '2026-11-27T11:59:00-05:00')).toBe(true);
    expect(at('AAPL', '2026-11-27T12:00:00-05:00')).toBe(false);
    expect(at('AAPL', '2026-11-26T11:00:00-05:00')).toBe(false);
    expect(at('AAPL', '2026-11-28T11:00:00-05:00')).toBe(false);
  });

  it('a KR stock takes no amount or fractional order at any hour', () => {
    const at = ask();
    expect(at('005930', '2026-11-30T10:00:00+09:00')).toBe(false);
    expect(ask('live')('005930', '2026-11-30T10:00:00+09:00')).toBe(false);
    expect(ask('backtest', '1d')('005930', '2026-11-30T15:30:00+09:00')).toBe(false);
  });

  it('a daily backtest takes every US amount order (it is for the next open); paper on daily bars asks the clock', () => {
    expect(ask('backtest', '1d')('AAPL', '2026-12-07T16:00:00-05:00')).toBe(true);
    expect(ask('paper', '1d')('AAPL', '2026-12-07T16:00:00-05:00')).toBe(false);
    expect(ask('paper', '1d')('AAPL', '2026-12-07T10:00:00-05:00')).toBe(true);
  });

  it('names a symbol that is not one, as the other calls do', () => {
    const at = ask();
    expect(() => at(5 as unknown as string, '2026-12-07T10:00:00-05:00')).toThrow(
      'amountOrderAllowed: expected a symbol (a non-empty string), found 5',
    );
    expect(at('aapl', '2026-12-07T10:00:00-05:00')).toBe(true);
  });
});
