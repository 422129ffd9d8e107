import type { Bar } from '@hoga/core';
import { StrategyConfigError } from '@hoga/engine';
import { describe, expect, it } from 'vitest';
import {
  backtestBars,
  minuteBars,
  recordingLogger,
  T0,
} from '../packages/engine/src/backtest/backtest-fixture.test-helper.js';
import OpeningRange, { regularSessionOf } from './opening-range.js';
import { expectedOpeningRangeTrades } from './opening-range-reference.test-helper.js';
import { asExpectedTrades, walk } from './sma-crossover-reference.test-helper.js';

const DAY = 86_400_000;

/** `days` KR sessions of minute bars (09:01–15:30, 390 a day) of a seeded walk on the 100-won grid. */
function sessions(symbol: string, seed: number, days: number): Bar[] {
  const closes = walk(390 * days, 70_000, 100, seed);
  return Array.from({ length: days }, (_, d) =>
    minuteBars(symbol, closes.slice(d * 390, (d + 1) * 390), T0 + d * DAY),
  ).flat();
}

describe('OpeningRange', () => {
  it('trades exactly the breakouts, stops and flat exits of an independent computation', async () => {
    const a = sessions('005930', 7, 5);
    const b = sessions('000660', 11, 5);
    const rule = { rangeMinutes: 30, quantity: 10, flatMinutes: 15 };
    const { outcome } = await backtestBars([{ strategyClass: OpeningRange, config: rule }], [...a, ...b]);
    const [ea, eb] = [expectedOpeningRangeTrades(a, rule), expectedOpeningRangeTrades(b, rule)];
    const expected = [...ea.trades, ...eb.trades].sort(
      (x, y) => x.time - y.time || x.symbol.localeCompare(y.symbol),
    );
    // the walks break out of their ranges, and exit both ways
    expect(expected.filter((t) => t.side === 'BUY').length).toBeGreaterThanOrEqual(5);
    expect(ea.exits.stop + eb.exits.stop).toBeGreaterThan(0);
    expect(ea.exits.timer + eb.exits.timer).toBeGreaterThan(0);
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
    // at most one entry a day per symbol, and flat at every day's end
    const buysPerDay = new Map<string, number>();
    for (const t of expected.filter((x) => x.side === 'BUY')) {
      const key = `${t.symbol} ${Math.floor((t.time + 9 * 3_600_000) / DAY)}`;
      buysPerDay.set(key, (buysPerDay.get(key) ?? 0) + 1);
    }
    expect(Math.max(...buysPerDay.values())).toBe(1);
    expect(outcome.trades.length % 2).toBe(0);
  });

  it('sells at the flat time by its timer when no bar comes then (a gap in the minutes)', async () => {
    // no bars from 15:11 to 15:25: the timer's sell (15:15) fills at the 15:26 bar's open, where a
    // sell placed on the first bar after the gap would fill at the 15:27 one's
    const gap = (bar: Bar) => {
      const minute = Math.floor(((bar.ts + 9 * 3_600_000) % DAY) / 60_000);
      return minute < 15 * 60 + 11 || minute > 15 * 60 + 25;
    };
    const a = sessions('005930', 7, 5).filter(gap);
    const b = sessions('000660', 11, 5).filter(gap);
    const rule = { rangeMinutes: 30, quantity: 10, flatMinutes: 15 };
    const { outcome } = await backtestBars([{ strategyClass: OpeningRange, config: rule }], [...a, ...b]);
    const [ea, eb] = [expectedOpeningRangeTrades(a, rule), expectedOpeningRangeTrades(b, rule)];
    expect(ea.exits.timer + eb.exits.timer).toBeGreaterThan(0);
    const expected = [...ea.trades, ...eb.trades].sort(
      (x, y) => x.time - y.time || x.symbol.localeCompare(y.symbol),
    );
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
    const fifteenTwentySix = (t: { time: number }) =>
      Math.floor(((t.time + 9 * 3_600_000) % DAY) / 60_000) === 15 * 60 + 26;
    expect(outcome.trades.filter((t) => t.side === 'SELL' && fifteenTwentySix(t)).length).toBe(
      ea.exits.timer + eb.exits.timer,
    );
  });

  it.each([
    // KR: flat at 70,000 from 09:01, a breakout on the 15:14 bar, then no trade until the bar that
    // closes at 15:30 (the after-market has begun then: the broker takes no market order)
    ['005930', T0, 374, T0 + 389 * 60_000, [70_000, 70_100, 69_900]],
    // US, the day after Thanksgiving (closes at 13:00): a breakout on the 12:44 bar, then the 13:00 one
    [
      'AAPL',
      Date.parse('2026-11-27T09:31:00-05:00'),
      194,
      Date.parse('2026-11-27T13:00:00-05:00'),
      [100, 100.1, 99.9],
    ],
  ])(
    '%s: is flat by the close when its entry would fill only on the bar closing at the close',
    async (symbol, first, count, closeBar, [flat, high, low]) => {
      const closes = Array.from({ length: count }, (_, i) => (i === count - 1 ? high : flat)) as number[];
      const day = minuteBars(symbol, closes, first);
      const atClose = { ...(day[count - 1] as Bar), ts: closeBar, closeTime: closeBar };
      const bars = [...day, { ...atClose, open: high, high, low, close: low } as Bar];
      const rule = { rangeMinutes: 30, quantity: 10, flatMinutes: 15 };
      const { logger, records } = recordingLogger();
      const { outcome } = await backtestBars([{ strategyClass: OpeningRange, config: rule }], bars, {
        logger,
      });
      // before: the buy filled at the open of the bar stamped with the close, and the stop's market
      // sell placed on that bar was refused (order-type-not-allowed), leaving 10 shares held over the
      // close; now the buy still unfilled in the last regular minute is cancelled
      expect(outcome.refused).toEqual({});
      expect(outcome.trades).toEqual([]);
      expect(records.map((r) => r.msg)).toContain(
        'the buy has not filled by the last regular minute: cancelled',
      );
    },
  );

  it('sells the filled part of a buy it cancels in the last regular minute, flat by the close', async () => {
    // KR: a breakout on the 15:14 bar; the 15:15 bar trades 50 shares, of which the buy of 10 may
    // take a tenth (5); no trade after it until the bar closing at 15:30. Before, the cancel of the
    // rest left its 5 shares held over the close: the sell waited for no open order, and the buy
    // was still open (its cancel not answered yet) when the last timer looked
    const flat = minuteBars('005930', [...Array.from({ length: 373 }, () => 70_000), 70_100], T0);
    const thin = minuteBars('005930', [70_100], T0 + 374 * 60_000, 50);
    const closeBar = T0 + 389 * 60_000;
    const atClose = { ...(thin[0] as Bar), ts: closeBar, closeTime: closeBar, volume: 1_000_000 };
    const rule = { rangeMinutes: 30, quantity: 10, flatMinutes: 15 };
    const { outcome } = await backtestBars(
      [{ strategyClass: OpeningRange, config: rule }],
      [...flat, ...thin, atClose],
    );
    expect(outcome.refused).toEqual({});
    const shares = (side: string) =>
      outcome.trades.filter((t) => t.side === side).reduce((n, t) => n + Number(t.quantity.toFixed()), 0);
    expect(shares('BUY')).toBe(5);
    expect(shares('SELL')).toBe(5);
  });

  it('knows the regular sessions of both markets, daylight saving time included', () => {
    const kr = regularSessionOf('KR', Date.parse('2026-03-02T09:01:00+09:00'));
    expect(kr).toEqual({
      date: '2026-03-02',
      open: Date.parse('2026-03-02T09:00:00+09:00'),
      close: Date.parse('2026-03-02T15:30:00+09:00'),
    });
    // the 15:31 candle holds the closing auction's trades, after the regular session
    expect(regularSessionOf('KR', Date.parse('2026-03-02T15:31:00+09:00'))).toBeNull();
    expect(regularSessionOf('KR', Date.parse('2026-03-02T09:00:00+09:00'))).toBeNull();
    // New York in summer (UTC-4) and in winter (UTC-5)
    expect(regularSessionOf('US', Date.parse('2026-07-06T09:31:00-04:00'))?.close).toBe(
      Date.parse('2026-07-06T16:00:00-04:00'),
    );
    expect(regularSessionOf('US', Date.parse('2026-12-07T16:00:00-05:00'))?.open).toBe(
      Date.parse('2026-12-07T09:30:00-05:00'),
    );
    expect(regularSessionOf('US', Date.parse('2026-12-07T16:01:00-05:00'))).toBeNull();
  });

  it('knows the days of special hours: a NYSE early close, the KRX late openings', () => {
    // the day after Thanksgiving closes at 13:00 New York: the 13:01 bar is the after-market's
    // (before: the usual 16:00, so the flat timer came at 15:45, after the close, and its market
    // sells were refused there)
    expect(regularSessionOf('US', Date.parse('2026-11-27T13:00:00-05:00'))).toEqual({
      date: '2026-11-27',
      open: Date.parse('2026-11-27T09:30:00-05:00'),
      close: Date.parse('2026-11-27T13:00:00-05:00'),
    });
    expect(regularSessionOf('US', Date.parse('2026-11-27T13:01:00-05:00'))).toBeNull();
    // the CSAT day trades 10:00–16:30 KST, the year's first trading day 10:00–15:30: the minutes
    // before 10:00 are the pre-market's (before: taken as the opening range)
    expect(regularSessionOf('KR', Date.parse('2026-11-19T09:31:00+09:00'))).toBeNull();
    expect(regularSessionOf('KR', Date.parse('2026-11-19T16:30:00+09:00'))).toEqual({
      date: '2026-11-19',
      open: Date.parse('2026-11-19T10:00:00+09:00'),
      close: Date.parse('2026-11-19T16:30:00+09:00'),
    });
    expect(regularSessionOf('KR', Date.parse('2026-01-02T10:00:00+09:00'))).toBeNull();
    expect(regularSessionOf('KR', Date.parse('2026-01-02T10:01:00+09:00'))?.close).toBe(
      Date.parse('2026-01-02T15:30:00+09:00'),
    );
  });

  it.each([
    [{ rangeMinutes: 0 }, 'rangeMinutes', '0'],
    [{ flatMinutes: 'late' }, 'flatMinutes', '"late"'],
    [{ quantity: -1 }, 'quantity', '-1'],
    // before: accepted, and every buy was denied invalid-request (a KR buy of 1.5 shares)
    [{ quantity: 1.5 }, 'quantity', '1.5'],
  ])('refuses the config %j naming the field and the value', async (config, field, value) => {
    const run = backtestBars([{ strategyClass: OpeningRange, config }], minuteBars('005930', [1, 2]));
    await expect(run).rejects.toBeInstanceOf(StrategyConfigError);
    await expect(run).rejects.toThrow(new RegExp(`\\n  ${field}: found ${value}, expected `));
  });
});
