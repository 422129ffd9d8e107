/**
 * A repeating timer set with an `at` in the past fires once for the firings it missed, at the
 * latest of them, then every `every` from there: `ctx.setTimer('m', {at: open, every: 60_000})`
 * at 14:00 is not 300 calls of `onTimer` in a row, each reading 14:00. Before, it fired every missed
 * period at once (paper and live alike: see timer-missed.int.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { backtestBars, MINUTE, minuteBars, T0 } from '../backtest/backtest-fixture.test-helper.js';
import type { TimerFired } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';

class PastGrid extends Strategy {
  static started = 0;
  static fired: { due: number; now: number }[] = [];
  override onStart(): void {
    PastGrid.started = this.ctx.now();
    this.ctx.setTimer('grid', { at: PastGrid.started - 10 * MINUTE, every: MINUTE });
  }
  override onTimer(timer: TimerFired): void {
    PastGrid.fired.push({ due: timer.tsEvent, now: this.ctx.now() });
  }
}

describe('a repeating timer whose at is past', () => {
  it('fires once for the periods it missed, then on the grid of at + k × every', async () => {
    PastGrid.fired = [];
    const { outcome } = await backtestBars(
      [{ strategyClass: PastGrid }],
      minuteBars('005930', [70_000, 70_100, 70_200]),
      { start: T0 },
    );
    expect(outcome.status).toBe('completed');
    const start = PastGrid.started;
    // the latest missed firing (start itself: 10 periods after at), then one a minute
    const dues = PastGrid.fired.map((f) => f.due - start);
    expect(dues[0]).toBe(0);
    expect(dues.filter((d) => d < 0)).toEqual([]);
    for (let i = 1; i < dues.length; i++) expect((dues[i] as number) - (dues[i - 1] as number)).toBe(MINUTE);
  });
});
