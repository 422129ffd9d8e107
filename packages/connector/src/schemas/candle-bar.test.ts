import { describe, expect, it } from 'vitest';
import { candleToBar } from './candle-bar.js';
import { CandleSchema } from './market-data.js';

const candle = (timestamp: string, currency = 'KRW') =>
  CandleSchema.parse({
    timestamp,
    openPrice: '72000',
    highPrice: '72500.5',
    lowPrice: '71900',
    closePrice: '72100',
    volume: '1234',
    currency,
  });

describe('candleToBar', () => {
  it('turns a KR minute candle into a bar closing at its stamp', () => {
    const bar = candleToBar(candle('2026-11-23T09:01:00.000+09:00'), '005930', '1m');
    const ts = Date.parse('2026-11-23T09:01:00+09:00');
    expect(bar).toEqual({
      symbol: '005930',
      interval: '1m',
      ts,
      closeTime: ts,
      open: 72000,
      high: 72500.5,
      low: 71900,
      close: 72100,
      volume: 1234,
    });
  });

  it('closes a KR daily bar at 15:30 KST of its trading day', () => {
    const bar = candleToBar(candle('2026-11-23T00:00:00.000+09:00'), '005930', '1d');
    expect(bar.ts).toBe(Date.parse('2026-11-23T00:00:00+09:00'));
    expect(bar.closeTime).toBe(Date.parse('2026-11-23T15:30:00+09:00'));
  });

  it('closes a US daily bar at 16:00 New York of its trading date (winter and summer)', () => {
    const winter = candleToBar(candle('2026-11-23T00:00:00.000+09:00', 'USD'), 'AAPL', '1d');
    expect(winter.closeTime).toBe(Date.parse('2026-11-23T16:00:00-05:00'));
    const summer = candleToBar(candle('2026-07-01T00:00:00.000+09:00', 'USD'), 'AAPL', '1d');
    expect(summer.closeTime).toBe(Date.parse('2026-07-01T16:00:00-04:00'));
  });
});
