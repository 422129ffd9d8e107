/**
 * Timers in a minute backtest of a KR and a US symbol fire at their time, as the run's first hours
 * go by: from 00:00 KST the KR day has begun, while AAPL's bars until 08:00 KST are still of the
 * previous New York day (warm-up bars, before AAPL's start). Before, those warm-up bars moved the
 * clock on without firing the timers: a timer due at 02:00 KST fired at 08:00, with the others due
 * by then, all at once; and a timer's hook right after a warm-up bar saw `ctx.isWarmingUp` still
 * true (its orders denied `warm-up`). `hoga backtest` in a child process over the simulator's
 * candles.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { hogaBacktest as hoga } from './backtest-runs.test-helper.js';
import { useCliSimulator } from './cli-simulator.test-helper.js';

/**
 * Two timers, at 02:00 and 08:00:30 KST; each logs the clock and the warm-up flag it sees (warm-up
 * bars reach a strategy with an `onBar` only).
 */
const TIMERS = `
import { Strategy, type TimerFired } from '@hoga/engine';

export default class WarmTimers extends Strategy {
  static readonly warmupBars = 3;
  override onStart(): void {
    this.ctx.setTimer('early', { at: Date.parse('2026-11-03T02:00:00+09:00') });
    this.ctx.setTimer('late', { at: Date.parse('2026-11-03T08:00:30+09:00') });
  }
  override onBar(): void {}
  override onTimer(timer: TimerFired): void {
    this.ctx.log.info('timer ' + timer.name + ' now ' + new Date(this.ctx.now()).toISOString() + ' warming ' + this.ctx.isWarmingUp);
  }
}
`;

const scratch = useCliSimulator('hoga-backtest-timer-warmup-');
const db = join(scratch.dir, 'hoga.sqlite');
const strategy = join(scratch.dir, 'warm-timers.ts');
writeFileSync(strategy, TIMERS);
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }));

describe('hoga backtest: timers during a US symbol warm-up bars', { timeout: 180_000 }, () => {
  it('fire at their time, not warming up, on minute bars of 005930 and AAPL', async () => {
    const result = await hoga([
      strategy,
      ...['--symbols', '005930,AAPL', '--interval', '1m', '--from', '2026-11-03', '--to', '2026-11-03'],
      ...['--usd-krw', '1400', ...simFlags(scratch.sim.url), '--db', db],
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('timer early now 2026-11-02T17:00:00.000Z warming false');
    expect(result.stderr).toContain('timer late now 2026-11-02T23:00:30.000Z warming false');
  });
});
