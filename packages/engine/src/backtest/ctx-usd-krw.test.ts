/**
 * `ctx.usdKrw()` in a backtest: the rate valid at the bar's time, as the run's rates step (the rate
 * `ctx.equity()` values the strategy's dollars at), for sizing a US order against equity in KRW.
 */
import type { Bar } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { SteppedFxRates } from '../portfolio/fx-rates.js';
import { Strategy } from '../strategy/strategy.js';
import { backtestBars, MINUTE, minuteBars, US_OPEN } from './backtest-fixture.test-helper.js';

describe('ctx.usdKrw in a backtest', () => {
  it('answers the rate valid at each bar, the one equity values the dollars at', async () => {
    const seen: [number, number, number][] = [];
    class Sizes extends Strategy {
      override onBar(bar: Bar): void {
        seen.push([bar.closeTime, this.ctx.usdKrw(), this.ctx.equity()]);
      }
    }
    // 1,400 until the second bar's close, 1,450 from it on
    const fx = new SteppedFxRates([
      [0, 1400],
      [US_OPEN + MINUTE, 1450],
    ]);
    await backtestBars([{ strategyClass: Sizes }], minuteBars('AAPL', [200, 201, 202], US_OPEN), {
      start: US_OPEN,
      fx,
      cash: { KRW: new Decimal(1_000_000), USD: new Decimal(1_000) },
    });
    expect(seen).toEqual([
      [US_OPEN, 1400, 1_000_000 + 1_000 * 1400],
      [US_OPEN + MINUTE, 1450, 1_000_000 + 1_000 * 1450],
      [US_OPEN + 2 * MINUTE, 1450, 1_000_000 + 1_000 * 1450],
    ]);
  });
});
