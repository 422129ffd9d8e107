import { describe, expect, it } from 'vitest';
import { type StatsView, statisticsRows } from './backtest-report.js';

const stats: StatsView = {
  bars: 261,
  startEquity: 220_000_000,
  endEquity: 219_999_990,
  fxOnUsdCash: null,
  totalReturn: -0.00000004,
  cagr: -0.00000004,
  maxDrawdown: 0.0000001,
  sharpe: -0.001,
  trades: 2,
  roundTrips: 1,
  winRate: 0,
  commissions: { KRW: '10' },
  taxes: {},
  refused: {},
  halts: {},
};

describe('statisticsRows', () => {
  it('prints a loss too small for its digits as 0.00, not -0.00', () => {
    const rows = new Map(statisticsRows(stats));
    expect([rows.get('total return'), rows.get('CAGR'), rows.get('Sharpe ratio')]).toEqual([
      '0.00 %',
      '0.00 %',
      '0.00',
    ]);
  });

  it('keeps the sign of a loss its digits show', () => {
    const rows = new Map(statisticsRows({ ...stats, totalReturn: -0.0123, sharpe: -0.456 }));
    expect([rows.get('total return'), rows.get('Sharpe ratio')]).toEqual(['-1.23 %', '-0.46']);
  });

  it('gives the net profit as the end equity less the start, signed, to the won they print', () => {
    const rows = new Map(statisticsRows({ ...stats, startEquity: 220_000_000.4, endEquity: 219_999_990.6 }));
    // 219,999,991 − 220,000,000: the printed ends' difference, not round(−9.8) = −10
    expect([rows.get('start equity'), rows.get('end equity'), rows.get('net profit')]).toEqual([
      '220,000,000 KRW',
      '219,999,991 KRW',
      '-9 KRW',
    ]);
    expect(new Map(statisticsRows({ ...stats, endEquity: null })).get('net profit')).toBe('-');
  });
});
