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
import {
  asExpectedTrades,
  type ExpectedTrade,
  marketOrderTaken,
  walk,
} from './sma-crossover-reference.test-helper.js';

/** One KR session of minute bars (09:01–15:20) of a seeded walk on the 100-won grid, after `warmup` bars before it. */
function session(symbol: string, seed: number, warmup = 0): Bar[] {
  return minuteBars(symbol, walk(380 + warmup, 70_000, 100, seed), T0 - warmup * MINUTE);
}

/** A config that trades often on the seeded walks below. */
const PULLBACKS = {
  period: 8,
  buyBelow: 35,
  sellAbove: 55,
  quantity: 10,
  discountPct: 0.2,
  maxBarsWorking: 3,
};

/** The bar of a trade's symbol before the one it filled on (the bar its order was placed on). */
function barBefore(bars: readonly Bar[], trade: ExpectedTrade): Bar {
  const own = bars.filter((b) => b.symbol === trade.symbol);
  return own[own.findIndex((b) => b.closeTime === trade.time) - 1] as Bar;
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
    const config = PULLBACKS;
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

  it('sells at market only in the regular session: no refused order over whole KR and US days', async () => {
    // KR 08:01–20:00 KST (pre-market, regular, after-market) and US 04:01–18:00 New York of one
    // day; before, every bar outside the regular session with the RSI high sent a market sell the
    // broker refuses there (order-type-not-allowed), bar after bar while the RSI stayed high
    const krStart = Date.parse('2026-02-23T08:01:00+09:00');
    const usStart = Date.parse('2026-02-23T04:01:00-05:00');
    const kr = minuteBars('005930', walk(720, 70_000, 100, 7), krStart);
    const us = minuteBars('AAPL', walk(840, 200, 0.05, 5), usStart);
    const config = PULLBACKS;
    const bars = [...kr, ...us].sort((a, b) => a.ts - b.ts);
    const { outcome } = await backtestBars([{ strategyClass: RsiPullback, config }], bars, {
      start: krStart,
    });
    expect(outcome.refused).toEqual({});
    const expected = [
      ...expectedRsiTrades(kr, { ...config, tick: 100 }).trades,
      ...expectedRsiTrades(us, { ...config, tick: 0.01 }).trades,
    ].sort((x, y) => x.time - y.time || x.symbol.localeCompare(y.symbol));
    const sells = expected.filter((t) => t.side === 'SELL');
    expect(new Set(sells.map((t) => t.symbol))).toEqual(new Set(['005930', 'AAPL']));
    // the case above happens here: selling at a high RSI outside the session too, the market
    // sells placed there (which the broker refuses) differ from the ones that wait for it
    const anywhere = expectedRsiTrades(kr, { ...config, tick: 100, sellOutsideSession: true }).trades;
    expect(anywhere.filter((t) => t.side === 'SELL').some((t) => !marketOrderTaken(barBefore(kr, t)))).toBe(
      true,
    );
    expect(asExpectedTrades(outcome.trades)).toEqual(expected);
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
