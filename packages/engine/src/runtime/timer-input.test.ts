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

describe('ctx.setTimer every', () => {
  it.each([0.5, 1.5, 0, -1000, Number.POSITIVE_INFINITY])(
    'throws naming the timer for every: %s (whole milliseconds from 1)',
    async (every) => {
      // before: every 0.5 was taken and fired twice a millisecond of the virtual clock (a backtest
      // of a day: 172.8 million calls of onTimer)
      class EveryHalf extends Strategy {
        override onStart(): void {
          this.ctx.setTimer('fast', { every });
        }
      }
      const { outcome } = await backtestBars(
        [{ strategyClass: EveryHalf }],
        minuteBars('005930', [70_000, 70_100]),
        { start: T0 },
      );
      expect(outcome.status).toBe('failed');
      expect(outcome.failure?.message).toContain(
        `timer fast: expected every in whole milliseconds from 1, found ${String(every)}`,
      );
    },
  );
});
