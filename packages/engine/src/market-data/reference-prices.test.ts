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
