import type { Bar, OrderEvent } from '@hoga/core';
import { StrategyConfigError } from '@hoga/engine';
import { RSI } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import {
  backtestBars,
  MINUTE,
  minuteBars,
  T0,
} from '../packages/engine/src/backtest/backtest-fixture.test-helper.js';
import RsiPullback from './rsi-pullback.js';
import { expectedRsiTrades, wilderRsi } from './rsi-pullback-reference.test-helper.js';
import { asExpectedTrades, walk } from './sma-crossover-reference.test-helper.js';

/** One KR session of minute bars (09:01–15:20) of a seeded walk on the 100-won grid, after `warmup` bars before it. */
function session(symbol: string, seed: number, warmup = 0): Bar[] {
  return minuteBars(symbol, walk(380 + warmup, 70_000, 100, seed), T0 - warmup * MINUTE);
}

describe('RsiPullback', () => {
  it('computes the RSI as Wilder defines it (the independent computation agrees with trading-signals)', () => {
    const closes = walk(200, 70_000, 100, 5);
    const rsi = new RSI(14);
    const ours = wilderRsi(closes, 14);
    closes.forEach((c, i) => {
      const theirs = rsi.add(c);
      if (theirs === null) expect(ours[i]).toBeNaN();
      else expect(ours[i]).toBeCloseTo(theirs, 9);
    });
    expect(ours.filter((r) => !Number.isNaN(r))).toHaveLength(200 - 14);
  });

  it('trades exactly the pullbacks of an independent computation: limit buys under the close, cancelled when stale, market sells', async () => {
    const a = session('005930', 7);
    const b = session('000660', 11);
    const config = {
      period: 8,
      buyBelow: 35,
      sellAbove: 55,
      quantity: 10,
      discountPct: 0.2,
      maxBarsWorking: 3,
    };
    let cancels = 0;
    class Counted extends RsiPullback {
      override onOrderEvent(event: OrderEvent): void {
        super.onOrderEvent(event);
        if (event.type === 'OrderCanceled') cancels += 1;
      }
    }
    const { outcome } = await backtestBars([{ strategyClass: Counted, config }], [...a, ...b]);
    const rule = { ...config, tick: 100 };
    const [ea, eb] = [expectedRsiTrades(a, rule), expectedRsiTrades(b, rule)];
    const expected = [...ea.trades, ...eb.trades].sort(
      (x, y) => x.time - y.time || x.symbol.localeCompare(y.symbol),
    );
    const buys = expected.filter((t) => t.side === 'BUY');
    expect(buys.length).toBeGreaterThan(10);
    // some buys filled at their limit, under the bar's open
    const opens = new Map([...a, ...b].map((bar) => [`${bar.symbol} ${bar.closeTime}`, bar.open]));
    expect(buys.some((t) => t.price < (opens.get(`${t.symbol} ${t.time}`) as number))).toBe(true);
    expect(ea.cancelled + eb.cancelled).toBeGreaterThan(3);
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
    expect(cancels).toBe(ea.cancelled + eb.cancelled);
  });

  it('is ready at the first bar after warm-up, and places nothing during it', async () => {
    const bars = session('005930', 3, 50);
    const config = {
      period: 10,
      buyBelow: 35,
      sellAbove: 60,
      quantity: 3,
      discountPct: 0.2,
      maxBarsWorking: 2,
    };
    const { outcome } = await backtestBars([{ strategyClass: RsiPullback, config }], bars, { start: T0 });
    const { trades: expected } = expectedRsiTrades(bars, { ...config, tick: 100 }, 50);
    expect(expected.length).toBeGreaterThan(4);
    expect(outcome.warmupBars).toBe(50);
    expect(outcome.refused).toEqual({});
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
  });

  it.each([
    [{ buyBelow: 60, sellAbove: 55 }, 'buyBelow', '60'],
    [{ period: 50 }, 'period', '50'],
    [{ discountPct: -1 }, 'discountPct', '-1'],
    // before: accepted, and every buy was denied invalid-request (a KR buy of 1.5 shares)
    [{ quantity: 1.5 }, 'quantity', '1.5'],
  ])('refuses the config %j naming the field and the value', async (config, field, value) => {
    const run = backtestBars([{ strategyClass: RsiPullback, config }], minuteBars('005930', [1, 2]));
    await expect(run).rejects.toBeInstanceOf(StrategyConfigError);
    await expect(run).rejects.toThrow(new RegExp(`\\n  ${field}: found ${value}, expected `));
  });
});
