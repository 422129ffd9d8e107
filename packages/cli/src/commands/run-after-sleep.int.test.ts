/**
 * `hoga run` stopped for hours within a session (a laptop's lid closed, SIGSTOP) hands over every
 * minute bar it missed when it wakes: the child is stopped, the simulator's clock jumped five hours
 * on, the child continued (it follows the simulator's clock). Before, only the last 199 of the 300
 * bars came (one candle request's 200 candles, the one in progress among them), and nothing said
 * the others were missed.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  exitedWithin,
  REST_ARGS,
  root,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

const LOGS_EACH_BAR = join(root, 'packages/cli/test/fixtures/logs-each-bar.ts');

afterEach(async () => {
  await closeSims();
});

describe('hoga run after the process was stopped for five hours', () => {
  it('hands over each of the 300 minute bars it missed, and warns of none', async () => {
    const { sim, db } = await setup(true, 1);
    sim.setClock('2026-11-23T10:00:02+09:00');
    const r = start(['run', LOGS_EACH_BAR, '--mode', 'paper', ...REST_ARGS], env(sim, db));
    try {
      // the newest completed candle (ending 10:00) comes at the start
      expect(await until(r, /bar 1 of 005930/, 60_000), r.out.join('')).toBe(true);
      r.child.kill('SIGSTOP');
      sim.setClock('2026-11-23T15:00:02+09:00');
      r.child.kill('SIGCONT');
      // the bars ending 10:01 .. 15:00 (before: those ending 10:01 .. 11:41 never came, and bar 200
      // was the last until the one ending 15:01)
      expect(await until(r, /bar 301 of 005930/, 60_000), r.out.join('')).toBe(true);
      expect(r.out.join('')).not.toContain('were missed');
    } finally {
      r.child.kill('SIGCONT');
      r.child.kill('SIGTERM');
      expect(await exitedWithin(r, 60_000)).toBe(0);
    }
  }, 180_000);
});
