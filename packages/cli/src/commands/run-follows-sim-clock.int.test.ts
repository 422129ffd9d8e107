/**
 * `hoga run` against the simulator follows the simulator's clock when its speed changes through
 * the control API during the run. Before, the run read the speed once, at its start: a simulator
 * sped up from 1 to 120 was still polled at a minute of real time per minute bar.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, REST_ARGS, root, setup, start, until } from './run-process.test-helper.js';

const LOGS_EACH_BAR = join(root, 'packages/cli/test/fixtures/logs-each-bar.ts');

afterEach(async () => {
  await closeSims();
});

describe('hoga run against the simulator', () => {
  it("takes the simulator's new speed: sped up from 1 to 120, its minute bars come every half second", async () => {
    const { sim, db } = await setup();
    sim.setSpeed(1);
    sim.setClock('2026-11-23T10:00:02+09:00');
    const r = start(['run', LOGS_EACH_BAR, '--mode', 'paper', ...REST_ARGS], env(sim, db));
    // the newest completed candle (09:59) comes at the start
    expect(await until(r, /bar 1 of 005930/, 60_000), r.out.join('')).toBe(true);
    sim.setSpeed(120);
    // at 120, a simulated minute is half a real second: the run, following within 2 s, hands over
    // the 10:00 and 10:01 bars within seconds; at its old speed of 1 its clock would reach 10:01
    // (where it polls for the 10:00 bar) only about a real minute after its start
    expect(await until(r, /bar 3 of 005930/, 20_000), r.out.join('')).toBe(true);
    r.child.kill('SIGTERM');
    expect(await r.exited).toBe(0);
    expect(r.out.join('')).not.toContain("the simulator's clock is");
  }, 120_000);
});
