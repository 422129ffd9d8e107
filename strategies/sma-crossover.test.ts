import { type Bar, Decimal } from '@hoga/core';
import { StrategyConfigError } from '@hoga/engine';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../packages/engine/src/backtest/backtest-fixture.test-helper.js';
import SmaCrossover from './sma-crossover.js';
import { asExpectedTrades, expectedSmaTrades, walk } from './sma-crossover-reference.test-helper.js';

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
