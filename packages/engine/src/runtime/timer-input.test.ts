/**
 * `ctx.setTimer` refuses an `at` that is no instant (NaN, a Date, a string): the call throws naming
 * the timer and the value, as it does for `every: 0`. Before, a timer at NaN was queued first and
 * held back every timer set after it: a backtest ran to its end without firing any, silently.
 */
import { describe, expect, it } from 'vitest';
import { backtestBars, MINUTE, minuteBars, T0 } from '../backtest/backtest-fixture.test-helper.js';
import { Strategy } from '../strategy/strategy.js';

class SetsTimers extends Strategy {
  static fired: string[] = [];
  override onStart(): void {
    this.ctx.setTimer('bad', { at: Number.NaN });
    this.ctx.setTimer('good', { at: this.ctx.now() + MINUTE });
  }
  override onTimer(timer: { name: string }): void {
    SetsTimers.fired.push(timer.name);
  }
}

describe('ctx.setTimer', () => {
  it('throws naming the timer when at is not a finite number, and the run says so', async () => {
    SetsTimers.fired = [];
    const { outcome } = await backtestBars(
      [{ strategyClass: SetsTimers }],
      minuteBars('005930', [70_000, 70_100, 70_200]),
      { start: T0 },
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.failure?.message).toContain(
      'timer bad: expected at in epoch ms (a finite number), found NaN',
    );
  });
});
