/**
 * A broker outage during `hoga run` is told once per kind of failure, then counted, not printed at
 * every failed poll: `hoga run` as a child process against the simulator, its candle endpoint
 * failing (a body that is not JSON) for a dozen polls. Before, each failed poll printed its own
 * warning line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ARGS,
  closeSims,
  env,
  exitedWithin,
  setup,
  start,
  strategy,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga run: a failing endpoint', () => {
  it('is warned of once and its repeats counted', async () => {
    const { sim, db } = await setup();
    const r = start(['run', strategy, '--mode', 'paper', ...ARGS], env(sim, db));
    expect(await until(r, /status\s+holdings/, 90_000), r.out.join('')).toBe(true);
    const fired = sim.counters().faultsFired;
    // a body that is not JSON: a failure the connector does not retry, so each fault is one failed
    // poll (before, one warning line each)
    sim.injectFault({ kind: 'malformed-body', path: '/api/v1/candles', method: 'GET', count: 12 });
    const over = () => sim.counters().faultsFired >= fired + 12;
    for (let i = 0; i < 600 && !over(); i++) await new Promise((x) => setTimeout(x, 200));
    expect(over()).toBe(true);
    const text = () => r.out.join('');
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, 60_000)).not.toBe('still running');
    const warnings = text()
      .split('\n')
      .filter((l) => / warning: /.test(l) && /candles|temporary server failure/i.test(l));
    // 12 failed polls (three symbols): a first line, and the rest counted in at most a few more
    // (told at the stop at the latest)
    expect(warnings.length, text()).toBeGreaterThan(0);
    expect(warnings.length, text()).toBeLessThanOrEqual(4);
    expect(text()).toMatch(/more like it/);
  }, 240_000);
});
