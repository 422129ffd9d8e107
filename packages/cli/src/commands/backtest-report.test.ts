import { describe, expect, it } from 'vitest';
import { money, type StatsView, statisticsRows } from './backtest-report.js';
import { strategyRows } from './backtest-report-strategies.js';

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

describe('money in the report', () => {
  it("rounds to the currency's unit: fractional US shares make PnL of many decimals (before: $12,377.59815585)", () => {
    expect(money({ USD: '12377.59815585', KRW: '-95900' })).toBe('$12,377.60, -95,900 KRW');
    expect(money({ USD: '-0.8823999746' })).toBe('-$0.88');
    expect(money({ KRW: '1234.5' })).toBe('1,235 KRW');
    // a value that rounds to nothing shows no sign (-$0.00 reads as a loss)
    expect(money({ USD: '-0.004' })).toBe('$0.00');
    expect(money({ USD: '0', KRW: '0' })).toBe('0');
  });

  it("rounds each strategy's row as the run's rows are (a run of two strategies)", () => {
    const part = {
      trades: 108,
      roundTrips: 0,
      winRate: null,
      realizedPnl: {},
      unrealizedPnl: { KRW: '-95900', USD: '12377.59815585' },
      commissions: { KRW: '2231', USD: '38' },
      taxes: {},
    };
    const rows = strategyRows([
      { strategyId: 'dca', ...part },
      { strategyId: 'sma', ...part, unrealizedPnl: {} },
    ]);
    expect(rows[0]).toEqual([
      'strategy dca',
      '108 trades, 0 round trips, win rate n/a, realized PnL 0 before charges, unrealized -95,900 KRW, $12,377.60, commissions 2,231 KRW, $38.00, taxes 0',
    ]);
  });
});
