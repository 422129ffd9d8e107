import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { roundTrips, type TradeSample, tradeStats } from './trade-stats.js';

const d = (v: string | number) => new Decimal(v);
const trade = (
  time: number,
  symbol: string,
  side: 'BUY' | 'SELL',
  quantity: number,
  price: string,
  commission: string,
  tax = '0',
  currency = symbol === 'AAPL' ? 'USD' : 'KRW',
): TradeSample => ({
  time,
  symbol,
  side,
  quantity: d(quantity),
  price: d(price),
  currency,
  commission: d(commission),
  tax: d(tax),
});

const trades: TradeSample[] = [
  trade(1, '005930', 'BUY', 10, '70000', '105'), // cost 700,000 + 105
  trade(2, 'AAPL', 'BUY', 2, '100', '0.5'),
  trade(3, '005930', 'SELL', 10, '71000', '106', '1420'), // proceeds 710,000 − 106 − 1,420
  trade(4, 'AAPL', 'SELL', 2, '99', '0.5'), // 198 − 200 − 1 = −3
  trade(5, '005930', 'BUY', 5, '72000', '54'), // still open
];

describe('roundTrips', () => {
  it('closes a trip when the position returns to flat, net of commissions and taxes', () => {
    const trips = roundTrips(trades);
    // 005930: 710,000 − 700,000 − 105 − 106 − 1,420 = 8,369; AAPL: 198 − 200 − 0.5 − 0.5 = −3
    expect(trips.map((t) => [t.symbol, t.pnl.toFixed(), t.openedAt, t.closedAt])).toEqual([
      ['005930', '8369', 1, 3],
      ['AAPL', '-3', 2, 4],
    ]);
  });

  it('splits a fill that crosses flat between the trip it closes and the one it opens', () => {
    const trips = roundTrips([
      trade(1, 'AAPL', 'BUY', 2, '100', '0'),
      trade(2, 'AAPL', 'SELL', 4, '110', '4'), // closes 2 (+20 − 2), opens −2 at 110 with 2 charged
      trade(3, 'AAPL', 'BUY', 2, '100', '0'), // closes the short: 220 − 2 − 200 = 18
    ]);
    expect(trips.map((t) => t.pnl.toFixed())).toEqual(['18', '18']);
  });

  it('keeps strategies apart in one symbol', () => {
    const a = { ...trade(1, 'AAPL', 'BUY', 1, '100', '0'), strategyId: 'a' };
    const b = { ...trade(2, 'AAPL', 'SELL', 1, '110', '0'), strategyId: 'b' };
    expect(roundTrips([a, b])).toEqual([]);
  });
});

describe('tradeStats', () => {
  it('counts fills, round trips and wins, and sums charges per currency', () => {
    const stats = tradeStats(trades);
    expect(stats.trades).toBe(5);
    expect(stats.roundTrips).toBe(2);
    expect(stats.wins).toBe(1);
    expect(stats.winRate).toBe(0.5);
    expect(stats.commissions.KRW?.toFixed()).toBe('265');
    expect(stats.commissions.USD?.toFixed()).toBe('1');
    expect(stats.taxes.KRW?.toFixed()).toBe('1420');
    expect(stats.taxes.USD?.toFixed()).toBe('0');
  });

  it('has no win rate without a closed round trip', () => {
    expect(tradeStats([]).winRate).toBeNull();
  });
});
