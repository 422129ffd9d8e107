import type { Bar } from '@hoga/core';
import { StrategyConfigError } from '@hoga/engine';
import { describe, expect, it } from 'vitest';
import {
  backtestBars,
  minuteBars,
  recordingLogger,
} from '../packages/engine/src/backtest/backtest-fixture.test-helper.js';
import DollarCostAverage from './dollar-cost-average.js';
import { expectedDcaTrades } from './dollar-cost-average-reference.test-helper.js';
import { asExpectedTrades, dailyBarsOf, walk } from './sma-crossover-reference.test-helper.js';

/** Whole days of minute bars of `symbol` on `dates`: KR 08:01–20:00 KST, US 04:01–18:00 New York (EST). */
function minuteDays(symbol: string, dates: readonly string[], seed: number): Bar[] {
  const kr = /^\d/.test(symbol);
  const perDay = kr ? 720 : 840;
  const closes = kr
    ? walk(perDay * dates.length, 70_000, 100, seed)
    : walk(perDay * dates.length, 200, 0.01, seed);
  return dates.flatMap((date, i) =>
    minuteBars(
      symbol,
      closes.slice(perDay * i, perDay * (i + 1)),
      Date.parse(kr ? `${date}T08:01:00+09:00` : `${date}T04:01:00-05:00`),
    ),
  );
}

describe('DollarCostAverage', () => {
  it('buys exactly as an independent computation on daily bars (KR whole shares, US amounts), every everyDays trading days', async () => {
    // 60 trading days each from Monday 2026-03-09, without the exchanges' holidays of the span (the
    // KRX's Labour Day, Children's Day, Buddha's Birthday observed and the local elections; the
    // NYSE's Good Friday and Memorial Day)
    const bars = [
      ...dailyBarsOf('005930', walk(60, 70_000, 100, 3), '2026-03-09', [
        '2026-05-01',
        '2026-05-05',
        '2026-05-25',
        '2026-06-03',
      ]),
      ...dailyBarsOf('AAPL', walk(60, 200, 0.01, 5), '2026-03-09', ['2026-04-03', '2026-05-25']),
    ].sort((a, b) => a.closeTime - b.closeTime);
    const config = { usd: 250, krw: 1_000_000, everyDays: 5 };
    const { outcome } = await backtestBars([{ strategyClass: DollarCostAverage, config }], bars, {
      interval: '1d',
      start: bars[0]?.ts as number,
    });
    expect(outcome.refused).toEqual({});
    const expected = expectedDcaTrades(bars, config);
    // the first trading day and every fifth after it, of 60: 12 buys a symbol (the last one's fill on the 56th bar)
    expect(expected.filter((t) => t.symbol === 'AAPL')).toHaveLength(12);
    expect(expected.filter((t) => t.symbol === '005930')).toHaveLength(12);
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
    // a US buy is a fraction of a share worth about $250
    const aapl = outcome.trades.filter((t) => t.symbol === 'AAPL');
    expect(
      aapl.every((t) => !t.quantity.isInteger() && t.quantity.times(t.price).minus(250).abs().lt(0.01)),
    ).toBe(true);
  });

  it('on minute bars, buys in the broker windows only: none refused over whole KR and US days', async () => {
    const dates = ['2026-02-23', '2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27'];
    const bars = [...minuteDays('005930', dates, 7), ...minuteDays('AAPL', dates, 11)].sort(
      (a, b) => a.closeTime - b.closeTime || (a.symbol < b.symbol ? -1 : 1),
    );
    const config = { usd: 100, krw: 500_000, everyDays: 2 };
    const { outcome } = await backtestBars([{ strategyClass: DollarCostAverage, config }], bars, {
      start: bars[0]?.ts as number,
    });
    expect(outcome.refused).toEqual({});
    const expected = expectedDcaTrades(bars, config);
    // days 1, 3 and 5: at the first bar of each window (KR 09:00 KST, US 09:30 New York), filled on the next
    expect(expected.map((t) => [t.symbol, new Date(t.time).toISOString()])).toEqual([
      ['005930', '2026-02-23T00:01:00.000Z'],
      ['AAPL', '2026-02-23T14:31:00.000Z'],
      ['005930', '2026-02-25T00:01:00.000Z'],
      ['AAPL', '2026-02-25T14:31:00.000Z'],
      ['005930', '2026-02-27T00:01:00.000Z'],
      ['AAPL', '2026-02-27T14:31:00.000Z'],
    ]);
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
  });

  it('a KR stock dearer than krw a share is not bought, and said once', async () => {
    const bars = dailyBarsOf('005930', walk(20, 70_000, 100, 3), '2026-03-09');
    const { logger, records } = recordingLogger('info');
    const { outcome } = await backtestBars(
      [{ strategyClass: DollarCostAverage, config: { krw: 50_000, everyDays: 1 } }],
      bars,
      { interval: '1d', start: bars[0]?.ts as number, logger },
    );
    expect(outcome.trades).toEqual([]);
    expect(outcome.refused).toEqual({});
    const said = records.filter((r) => r.msg === 'one share costs more than krw: not bought');
    expect(said.map((r) => [r.symbol, r.krw])).toEqual([['005930', 50_000]]);
  });

  it("takes an amount in dollars and cents, from the broker's least ($1)", async () => {
    const bars = dailyBarsOf('AAPL', walk(3, 200, 0.01, 5), '2026-03-09');
    for (const usd of [19.99, 100.1, 1]) {
      const { outcome } = await backtestBars([{ strategyClass: DollarCostAverage, config: { usd } }], bars, {
        interval: '1d',
        start: bars[0]?.ts as number,
      });
      expect(outcome.refused).toEqual({});
      const buy = outcome.trades[0];
      expect(buy?.quantity.times(buy.price).minus(usd).abs().lt(0.01)).toBe(true);
    }
  });

  it.each([
    [{ usd: 0 }, 'usd', '0'],
    // under the broker's least amount order: each buy would be denied risk-amount-below-minimum
    [{ usd: 0.5 }, 'usd', '0.5'],
    // the broker takes an amount to the cent: each buy would be denied invalid-request
    [{ usd: 100.555 }, 'usd', '100.555'],
    [{ krw: 1.5 }, 'krw', '1.5'],
    [{ everyDays: 0 }, 'everyDays', '0'],
    [{ everyDays: 2.5 }, 'everyDays', '2.5'],
  ])('refuses the config %j naming the field and the value', async (config, field, value) => {
    const run = backtestBars([{ strategyClass: DollarCostAverage, config }], minuteBars('005930', [1, 2]));
    await expect(run).rejects.toBeInstanceOf(StrategyConfigError);
    await expect(run).rejects.toThrow(new RegExp(`\\n  ${field}: found ${value}`));
  });
});
