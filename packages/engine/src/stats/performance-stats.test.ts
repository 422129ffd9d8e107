import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { performanceStats } from './performance-stats.js';

describe('performanceStats', () => {
  it('combines the equity and trade statistics, with the Sharpe ratio on the daily resampled curve', () => {
    const at = (iso: string, equity: number) => ({ time: Date.parse(iso), equity });
    // Minute points; daily closes 100 (start) → 110 → 99 → 121 as in the equity-stats test.
    const curve = [
      at('2026-11-23T09:00:00+09:00', 100),
      at('2026-11-23T12:00:00+09:00', 130),
      at('2026-11-23T15:31:00+09:00', 110),
      at('2026-11-24T15:31:00+09:00', 99),
      at('2026-11-25T10:00:00+09:00', 80),
      at('2026-11-25T15:31:00+09:00', 121),
    ];
    const stats = performanceStats(curve, [
      {
        time: 1,
        symbol: '005930',
        side: 'BUY',
        quantity: new Decimal(1),
        price: new Decimal(100),
        currency: 'KRW',
        commission: new Decimal('0.02'),
        tax: new Decimal(0),
      },
    ]);
    expect(stats.totalReturn).toBeCloseTo(0.21, 12);
    expect(stats.maxDrawdown).toBeCloseTo(50 / 130, 12);
    expect(stats.sharpe).toBeCloseTo(7.228766, 5);
    expect(stats.cagr).not.toBeNull();
    expect(stats.startEquity).toBe(100);
    expect(stats.endEquity).toBe(121);
    expect(stats.trades).toBe(1);
    expect(stats.roundTrips).toBe(0);
    expect(stats.commissions.KRW?.toFixed()).toBe('0.02');
  });
});
