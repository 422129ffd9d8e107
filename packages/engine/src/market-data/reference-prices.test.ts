import type { Bar } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { ReferencePrices } from './reference-prices.js';

const bar = (iso: string, close: number, symbol = '005930'): Bar => {
  const ts = Date.parse(iso);
  return {
    symbol,
    interval: '1m',
    ts,
    closeTime: ts,
    open: close,
    high: close,
    low: close,
    close,
    volume: 1,
  };
};

describe('ReferencePrices', () => {
  it('gives a day’s bars the previous trading day’s last close, per symbol', () => {
    const refs = new ReferencePrices();
    const first = bar('2026-11-20T09:01:00+09:00', 70_000);
    expect(refs.of(first)).toBeUndefined();
    refs.observe(first);
    refs.observe(bar('2026-11-20T15:31:00+09:00', 71_000));
    refs.observe(bar('2026-11-20T15:31:00+09:00', 150_000, '000660'));
    const monday = bar('2026-11-23T09:01:00+09:00', 72_000);
    expect(refs.of(monday)).toBe(71_000);
    refs.observe(monday);
    expect(refs.of(bar('2026-11-23T09:02:00+09:00', 72_500))).toBe(71_000);
    refs.observe(bar('2026-11-23T15:31:00+09:00', 73_000));
    expect(refs.of(bar('2026-11-24T09:01:00+09:00', 74_000))).toBe(73_000);
    expect(refs.of(bar('2026-11-23T09:01:00+09:00', 1, '000660'))).toBe(150_000);
  });
});

describe('ReferencePrices of KR minute bars', () => {
  it('takes the regular close (the closing auction, in the 15:31 candle), not the after-market’s later closes', () => {
    const refs = new ReferencePrices();
    refs.observe(bar('2026-11-24T15:19:00+09:00', 71_200));
    refs.observe(bar('2026-11-24T15:30:00+09:00', 71_100)); // continuous trading's last, before the auction
    refs.observe(bar('2026-11-24T15:31:00+09:00', 71_000)); // the closing auction
    refs.observe(bar('2026-11-24T15:41:00+09:00', 70_900)); // NXT after-market
    refs.observe(bar('2026-11-24T20:00:00+09:00', 70_800));
    expect(refs.of(bar('2026-11-25T08:01:00+09:00', 70_700))).toBe(71_000);
    expect(refs.at('005930', Date.parse('2026-11-25T09:01:00+09:00'))).toBe(71_000);
    expect(refs.at('005930')).toBe(71_000);
    // the day's own bars keep the day before's reference
    refs.observe(bar('2026-11-25T09:01:00+09:00', 72_000));
    refs.observe(bar('2026-11-25T20:00:00+09:00', 73_000));
    expect(refs.of(bar('2026-11-25T20:00:00+09:00', 73_000))).toBe(71_000);
    expect(refs.at('005930')).toBe(72_000);
  });

  it('takes a day of special hours’ own close (the CSAT day closes at 16:30: its auction is in the 16:31 candle)', () => {
    const refs = new ReferencePrices();
    refs.observe(bar('2026-11-19T15:31:00+09:00', 67_500));
    refs.observe(bar('2026-11-19T16:31:00+09:00', 66_900));
    refs.observe(bar('2026-11-19T16:41:00+09:00', 66_700));
    refs.observe(bar('2026-11-19T20:00:00+09:00', 66_800));
    expect(refs.at('005930', Date.parse('2026-11-20T10:00:00+09:00'))).toBe(66_900);
  });

  it('falls back to the day’s last close when none of its bars holds the regular close', () => {
    const refs = new ReferencePrices();
    refs.observe(bar('2026-11-24T16:00:00+09:00', 70_500));
    refs.observe(bar('2026-11-24T20:00:00+09:00', 70_800));
    expect(refs.of(bar('2026-11-25T09:01:00+09:00', 1))).toBe(70_800);
  });

  it('keeps a US symbol’s last close and a daily bar’s close as they are', () => {
    const refs = new ReferencePrices();
    refs.observe(bar('2026-11-24T06:00:00+09:00', 190, 'AAPL')); // 16:00 New York
    refs.observe(bar('2026-11-24T10:00:00+09:00', 191, 'AAPL')); // 20:00 New York, after-market
    expect(refs.at('AAPL', Date.parse('2026-11-25T00:00:00+09:00'))).toBe(191);
    const day = Date.parse('2026-11-24T00:00:00+09:00');
    refs.observe({
      ...bar('2026-11-24T00:00:00+09:00', 71_000),
      interval: '1d',
      closeTime: day + 15.5 * 3_600_000,
    });
    expect(refs.at('005930')).toBe(71_000);
  });
});
