import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import type { CurrencyTotals } from '../portfolio/strategy-book.js';
import { strategyStats } from './strategy-stats.js';
import { type TradeSample, tradeStats } from './trade-stats.js';

const d = (v: string | number) => new Decimal(v);
const trade = (
  strategyId: string,
  time: number,
  side: 'BUY' | 'SELL',
  quantity: number,
  price: string,
  commission: string,
  tax = '0',
): TradeSample => ({
  strategyId,
  time,
  symbol: '005930',
  side,
  quantity: d(quantity),
  price: d(price),
  currency: 'KRW',
  commission: d(commission),
  tax: d(tax),
});

const zero: CurrencyTotals = { cash: d(0), realizedPnl: d(0), commissions: d(0), taxes: d(0) };

describe('strategyStats', () => {
  it('counts each strategy’s fills and round trips apart, in the order given, money from its book', () => {
    // A and B trade the same symbol, interleaved: A wins its trip, B loses its own
    const trades = [
      trade('A', 1, 'BUY', 10, '70000', '105'),
      trade('B', 2, 'BUY', 5, '70000', '52'),
      trade('A', 3, 'SELL', 10, '71000', '106', '1065'),
      trade('B', 4, 'SELL', 5, '69000', '51', '517'),
    ];
    const books: Record<string, CurrencyTotals> = {
      A: { ...zero, realizedPnl: d(10000), commissions: d(211), taxes: d(1065) },
      B: { ...zero, realizedPnl: d(-5000), commissions: d(103), taxes: d(517) },
    };
    const parts = strategyStats(['B', 'A', 'C'], trades, ['KRW'], (id, currency) =>
      currency === 'KRW' ? (books[id] ?? zero) : zero,
    );
    expect(
      parts.map((p) => [
        p.strategyId,
        p.trades,
        p.roundTrips,
        p.wins,
        p.winRate,
        p.realizedPnl.KRW?.toFixed(),
        p.commissions.KRW?.toFixed(),
        p.taxes.KRW?.toFixed(),
      ]),
    ).toEqual([
      ['B', 2, 1, 0, 0, '-5000', '103', '517'],
      ['A', 2, 1, 1, 1, '10000', '211', '1065'],
      // a strategy that never filled: nothing, and no win rate
      ['C', 0, 0, 0, null, '0', '0', '0'],
    ]);
  });
});

describe('strategyStats of a run of one strategy', () => {
  it('gives the run’s counts when every fill is its own, and counts its own fills when not', () => {
    const trades = [
      trade('A', 1, 'BUY', 10, '70000', '105'),
      trade('A', 2, 'SELL', 10, '71000', '106', '1065'),
    ];
    const run = tradeStats(trades);
    const [part] = strategyStats(['A'], trades, ['KRW'], () => zero, run);
    expect([part?.trades, part?.roundTrips, part?.wins, part?.winRate]).toEqual([2, 1, 1, 1]);
    // a fill of no strategy of the list (not the run's own counts)
    const [other] = strategyStats(
      ['A'],
      [...trades, trade('B', 3, 'BUY', 1, '70000', '10')],
      ['KRW'],
      () => zero,
      run,
    );
    expect(other?.trades).toBe(2);
  });
});
