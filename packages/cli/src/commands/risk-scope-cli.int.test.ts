/**
 * The scopes an operator names to `hoga risk`: a blank id or one with spaces around it names no
 * strategy or symbol an order has, so it is refused (exit 2) rather than kept as a halt that holds
 * nothing. The real `hoga` as a child process over a real SQLite file, `hoga order --check` judged
 * against the simulator over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga risk set|reset|status with a blank or padded scope id', () => {
  it('refuses it as bad usage and keeps nothing; the id as the order gives it halts the strategy', async () => {
    const { sim, db } = await setup(true, 0);
    const environment = env(sim, db);
    expect((await hoga(['db', 'migrate', '--db', db], environment)).code).toBe(0);
    const check = () =>
      hoga(['order', 'buy', '005930', '1', '--limit', '60000', '--check', '--strategy', 'b1'], environment);

    // before: exit 0, 'risk: strategy: b1 HALTED (…)', and b1's orders went on being accepted
    const padded = await hoga(
      ['risk', 'set', 'HALTED', '--strategy', ' b1', '--reason', 'runaway'],
      environment,
    );
    expect(padded.code).toBe(2);
    expect(padded.out).toContain('--strategy');
    expect(padded.out).toContain('without spaces around it');
    for (const args of [
      ['risk', 'set', 'HALTED', '--strategy', ''],
      ['risk', 'set', 'REDUCING', '--symbol', ' '],
      ['risk', 'reset', '--symbol', '005930 '],
      ['risk', 'status', '--strategy', ''],
    ]) {
      const run = await hoga(args, environment);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
    }
    const blank = await hoga(['risk', 'set', 'HALTED', '--strategy', '', '--json'], environment);
    expect(blank.code).toBe(2);
    expect(JSON.parse(blank.out)).toMatchObject({
      error: { code: 'usage', message: expect.stringContaining('empty') },
    });
    expect((await hoga(['risk', 'status'], environment)).stdout).toBe('risk: all ACTIVE\n');
    expect((await check()).code).toBe(0);

    const set = await hoga(['risk', 'set', 'HALTED', '--strategy', 'b1', '--reason', 'runaway'], environment);
    expect(set.code).toBe(0);
    const denied = await check();
    expect(denied.code).toBe(3);
    expect(denied.stdout).toMatch(/^denied: risk-halted: Trading is halted for strategy b1: .*\(runaway\)/);
    expect(sim.counters().ordersCreated).toBe(0);
  }, 120_000);
});
