/**
 * A subscription to no symbol (`''`, `undefined` from a config field left out) throws naming the
 * context method the strategy called (`subscribePrices: expected a symbol …`), as a wrong interval
 * names `subscribeBars`. Before, the message named `subscribe prices`, a call that does not exist.
 */
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars, T0 } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

describe('ctx.subscribe… without a symbol', () => {
  it.each([
    ['subscribeBars', ''],
    ['subscribePrices', ''],
    ['subscribeOrderbook', undefined],
    ['subscribeTrades', 7],
  ] as const)('%s(%j) stops the run naming the call and the value', async (call, symbol) => {
    class Subscribes extends Strategy {
      override onStart(): void {
        (this.ctx[call] as (s: unknown) => void)(symbol);
      }
    }
    const { outcome } = await backtestBars(
      [{ strategyClass: Subscribes }],
      minuteBars('005930', [70_000, 70_100]),
      { start: T0 },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toContain(`${call}: expected a symbol (a non-empty string), found`);
  });
});
