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

  it('counts the amounts the cash moved by, rounded to the cent as the broker books them (before: quantity × price unrounded)', () => {
    // a sub-dollar stock: 3 × 0.5555 = 1.6665 → 1.67 paid; 3 × 0.5557 = 1.6671 → 1.67 received;
    // 0.1 % of 1.67 is 0.00167 → 0.00 commission: the cash is where it was, the trip made 0 (before,
    // +0.0006, a win); a fractional one: 0.0123 × 100 = 1.23, 0.0123 × 100.01 = 1.230123 → 1.23
    const subDollar = [trade(1, 'AAPL', 'BUY', 3, '0.5555', '0'), trade(2, 'AAPL', 'SELL', 3, '0.5557', '0')];
    const fractional: TradeSample[] = [
      { ...trade(3, 'AAPL', 'BUY', 1, '100', '0'), quantity: d('0.0123') },
      { ...trade(4, 'AAPL', 'SELL', 1, '100.01', '0'), quantity: d('0.0123') },
    ];
    expect(roundTrips([...subDollar, ...fractional]).map((t) => t.pnl.toFixed())).toEqual(['0', '0']);
    expect(tradeStats(subDollar)).toMatchObject({ roundTrips: 1, wins: 0 });
    expect(tradeStats(fractional)).toMatchObject({ roundTrips: 1, wins: 0 });
    // 3 × 0.5555 = 1.6665 → 1.67 paid, 3 × 0.5599 = 1.6797 → 1.68 received: +0.01, a win
    const cent = [trade(5, 'AAPL', 'BUY', 3, '0.5555', '0'), trade(6, 'AAPL', 'SELL', 3, '0.5599', '0')];
    expect(roundTrips(cent).map((t) => t.pnl.toFixed())).toEqual(['0.01']);
    expect(tradeStats(cent)).toMatchObject({ roundTrips: 1, wins: 1 });
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

  /** The statistics as the round trips and sums in decimals give them (tradeStats counts in doubles where it may). */
  const inDecimals = (fills: readonly TradeSample[]) => {
    const trips = roundTrips(fills);
    const sums = (field: 'commission' | 'tax') => {
      const out: Record<string, string> = {};
      for (const t of fills)
        out[t.currency] = d(out[t.currency] ?? 0)
          .plus(t[field])
          .toFixed();
      return out;
    };
    return {
      roundTrips: trips.length,
      wins: trips.filter((r) => r.pnl.isPositive() && !r.pnl.isZero()).length,
      commissions: sums('commission'),
      taxes: sums('tax'),
    };
  };
  const counted = (fills: readonly TradeSample[]) => {
    const stats = tradeStats(fills);
    const text = (m: Readonly<Record<string, Decimal>>) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.toFixed()]));
    return {
      roundTrips: stats.roundTrips,
      wins: stats.wins,
      commissions: text(stats.commissions),
      taxes: text(stats.taxes),
    };
  };

  it('agrees with the round trips in decimals on many fills: KRW and USD, crossing flat, break-even trips, two strategies', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    const fills: TradeSample[] = [];
    for (let i = 0; i < 3000; i++) {
      const symbol = ['005930', '000660', 'AAPL', 'MSFT'][next(4)] as string;
      const usd = symbol === 'AAPL' || symbol === 'MSFT';
      const price = usd ? `${100 + next(20)}.${next(100)}` : String(70_000 + 100 * next(5));
      const commission = usd
        ? next(3) === 0
          ? '0'
          : `0.${next(100)}`
        : String(next(3) === 0 ? 0 : next(200));
      const tax = usd || next(2) === 0 ? '0' : String(next(2000));
      fills.push({
        ...trade(i, symbol, next(2) === 0 ? 'BUY' : 'SELL', 1 + next(3), price, commission, tax),
        strategyId: next(2) === 0 ? 'a' : 'b',
      });
    }
    const expected = inDecimals(fills);
    expect(expected.roundTrips).toBeGreaterThan(100);
    expect(counted(fills)).toEqual(expected);
  });

  it('decides a trip whose PnL in doubles is within their rounding error of zero as the decimals do', () => {
    const fills = [
      trade(1, 'AAPL', 'BUY', 1, '0.1', '0'),
      trade(2, 'AAPL', 'BUY', 1, '0.2', '0'),
      trade(3, 'AAPL', 'SELL', 2, '0.15', '0'), // 0.3 − 0.3 = 0 in decimals, −5.6e-17 in doubles
      trade(4, 'MSFT', 'BUY', 1, '0.1', '0', '0', 'USD'),
      // +1e-22, a win no double sees, unrounded; the cash moves by 0.10 both ways: none
      trade(5, 'MSFT', 'SELL', 1, '0.1000000000000000000001', '0', '0', 'USD'),
      trade(6, 'NVDA', 'BUY', 1, '0.1', '0', '0', 'USD'),
      trade(7, 'NVDA', 'SELL', 1, '0.11', '0', '0', 'USD'), // +0.01
    ];
    expect(counted(fills)).toEqual(inDecimals(fills));
    expect(tradeStats(fills).wins).toBe(1);
  });

  it('sums charges exactly beyond 2^53 and in fractions, and counts trips of fractional quantities', () => {
    const fills = [
      trade(1, '005930', 'BUY', 1, '70000', '9007199254740993'),
      trade(2, '005930', 'SELL', 1, '70000', '1'),
      trade(3, 'AAPL', 'BUY', 1, '100', '0.1'),
      { ...trade(4, 'AAPL', 'SELL', 1, '100', '0.2'), quantity: d('0.5') },
      { ...trade(5, 'AAPL', 'SELL', 1, '101', '0'), quantity: d('0.5') },
    ];
    expect(counted(fills)).toEqual(inDecimals(fills));
    expect(tradeStats(fills).commissions.KRW?.toFixed()).toBe('9007199254740994');
    expect(tradeStats(fills).commissions.USD?.toFixed()).toBe('0.3');
  });
});
