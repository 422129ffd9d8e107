import { type Bar, Decimal } from '@hoga/core';
import { StrategyConfigError } from '@hoga/engine';
import { describe, expect, it } from 'vitest';
import {
  backtestBars,
  MINUTE,
  minuteBars,
} from '../packages/engine/src/backtest/backtest-fixture.test-helper.js';
import SmaCrossover from './sma-crossover.js';
import {
  asExpectedTrades,
  dailyBarsOf,
  expectedSmaTrades,
  walk,
} from './sma-crossover-reference.test-helper.js';

describe('SmaCrossover', () => {
  it('trades exactly the crossovers of an independent computation (time, side, quantity, next open)', async () => {
    const bars: Bar[] = [
      ...minuteBars('005930', walk(600, 70_000, 100, 7)),
      ...minuteBars('000660', walk(600, 150_000, 100, 11)),
    ];
    const { outcome } = await backtestBars([{ strategyClass: SmaCrossover }], bars);
    const expected = expectedSmaTrades(bars, { fast: 5, slow: 20, quantity: 10 });
    expect(expected.length).toBeGreaterThan(20);
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
  });

  it('places no market order outside the regular session: no refused order over whole KR and US days', async () => {
    // KR 08:01–20:00 KST (pre-market, regular, after-market) and US 04:01–18:00 New York (pre-market,
    // regular, after-market) of one day; before, each cross outside the regular session sent a
    // market order the broker refuses there (order-type-not-allowed)
    const krStart = Date.parse('2026-02-23T08:01:00+09:00');
    const usStart = Date.parse('2026-02-23T04:01:00-05:00');
    const bars: Bar[] = [
      ...minuteBars('005930', walk(720, 70_000, 100, 7), krStart),
      ...minuteBars('AAPL', walk(840, 200, 0.01, 5), usStart),
    ].sort((a, b) => a.ts - b.ts);
    const config = { fast: 3, slow: 8, quantity: 10 };
    const { outcome } = await backtestBars([{ strategyClass: SmaCrossover, config }], bars, {
      start: krStart,
    });
    expect(outcome.refused).toEqual({});
    const expected = expectedSmaTrades(bars, config);
    expect(new Set(expected.map((t) => t.symbol))).toEqual(new Set(['005930', 'AAPL']));
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
  });

  it("trades every cross of bars like the benchmark's: minute bars 09:01–15:30 KST, daily bars", async () => {
    const days = ['2026-02-23', '2026-02-24', '2026-02-25'].map((d) => Date.parse(`${d}T09:01:00+09:00`));
    const closes = walk(390 * days.length, 70_000, 100, 13);
    const minute = days.flatMap((day, i) => minuteBars('005930', closes.slice(390 * i, 390 * (i + 1)), day));
    const config = { fast: 3, slow: 8, quantity: 10 };
    const m = await backtestBars([{ strategyClass: SmaCrossover, config }], minute);
    expect(m.outcome.refused).toEqual({});
    expect(asExpectedTrades(m.outcome.trades)).toEqual(expectedSmaTrades(minute, config));

    const firstDay = Date.parse('2026-03-03T00:00:00+09:00');
    const daily = dailyBarsOf('005930', walk(120, 70_000, 100, 17), '2026-03-03');
    const d = await backtestBars([{ strategyClass: SmaCrossover, config }], daily, {
      interval: '1d',
      start: firstDay,
    });
    const expectedDaily = expectedSmaTrades(daily, config);
    expect(expectedDaily.length).toBeGreaterThan(5);
    expect(d.outcome.refused).toEqual({});
    expect(asExpectedTrades(d.outcome.trades)).toEqual(expectedDaily);
  });

  it.each([
    ['15:29', 1],
    // the broker's after-market starts at 15:30: a market order then would be refused
    ['15:30', 0],
  ])('a cross up on the bar closing at %s KST makes %i buy', async (at, trades) => {
    const last = Date.parse(`2026-02-23T${at}:00+09:00`);
    const closes = [...Array.from({ length: 20 }, () => 70_000), 71_000, 71_000];
    const start = last - 20 * MINUTE;
    const bars = minuteBars('005930', closes, start);
    const config = { fast: 3, slow: 8, quantity: 10 };
    const { outcome } = await backtestBars([{ strategyClass: SmaCrossover, config }], bars, { start });
    expect(outcome.refused).toEqual({});
    expect(outcome.trades.map((t) => [t.time - last, t.side])).toEqual(trades ? [[MINUTE, 'BUY']] : []);
  });

  it('uses the config it is given', async () => {
    const bars = minuteBars('005930', walk(300, 70_000, 100, 3));
    const config = { fast: 3, slow: 8, quantity: 4 };
    const { outcome } = await backtestBars([{ strategyClass: SmaCrossover, config }], bars);
    expect(outcome.trades.map((t) => [t.time, t.side, t.quantity.toFixed(), t.price.toFixed()])).toEqual(
      expectedSmaTrades(bars, config).map((t) => [
        t.time,
        t.side,
        String(t.quantity),
        new Decimal(t.price).toFixed(),
      ]),
    );
  });

  it.each([
    [{ fast: 'five' }, 'fast', '"five"'],
    [{ slow: 0 }, 'slow', '0'],
    [{ fast: 30, slow: 20 }, 'fast', '30'],
    // before: accepted, and the run failed at its first buy (a fractional quantity is refused)
    [{ quantity: 1.5 }, 'quantity', '1.5'],
    [{ slow: Number.POSITIVE_INFINITY }, 'slow', 'Infinity'],
    [null, '\\(config\\)', 'null'],
  ])('refuses the config %j naming the field and the value', async (config, field, value) => {
    const run = backtestBars([{ strategyClass: SmaCrossover, config }], minuteBars('005930', [1, 2]));
    await expect(run).rejects.toBeInstanceOf(StrategyConfigError);
    await expect(run).rejects.toThrow(new RegExp(`\\n  ${field}: found ${value}, expected `));
  });
});
