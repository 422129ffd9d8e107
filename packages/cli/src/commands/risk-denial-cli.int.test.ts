/**
 * What a `risk-halted` / `risk-reducing` denial says when more than one scope is restricted: the
 * real `hoga` as a child process, its trading states set by `hoga risk set` in a real SQLite file,
 * and `hoga order --check` judged against the simulator over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd as hoga, setup } from './run-process.test-helper.js';

afterEach(closeSims);

describe('hoga order denied by a trading state', () => {
  it('names every scope restricted beneath the one that decided, and how to lift each', async () => {
    const { sim, db } = await setup(true, 0);
    const environment = env(sim, db);
    expect((await hoga(['db', 'migrate', '--db', db], environment)).code).toBe(0);
    const set = (state: string, ...scope: string[]) =>
      hoga(['risk', 'set', state, ...scope, '--reason', `${state.toLowerCase()} by hand`], environment);
    expect((await set('REDUCING', '--account')).code).toBe(0);
    expect((await set('HALTED', '--strategy', 'manual')).code).toBe(0);
    expect((await set('REDUCING', '--symbol', '005930')).code).toBe(0);

    const text = await hoga(['order', 'buy', '005930', '1', '--limit', '60000', '--check'], environment);
    expect(text.code).toBe(3);
    const [line, ...rest] = text.stdout.split('\n');
    expect(rest.join('')).toBe('');
    expect(line).toMatch(/^denied: risk-halted: Trading is halted for strategy manual: only cancels/);
    // before: only the strategy's halt; an operator lifting it would then meet the account's and
    // the symbol's REDUCING without having been told of them
    expect(line).toContain(
      'Also in force: the account REDUCING (manual: reducing by hand), to lift: hoga risk reset --account; ' +
        '005930 REDUCING (manual: reducing by hand), to lift: hoga risk reset --symbol 005930',
    );

    const json = await hoga(
      ['order', 'buy', '005930', '1', '--limit', '60000', '--check', '--json'],
      environment,
    );
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      verdict: 'denied',
      code: 'risk-halted',
      data: {
        scope: 'strategy:manual',
        alsoInForce: [
          { scope: 'account', state: 'REDUCING', source: 'manual', reason: 'reducing by hand' },
          { scope: 'symbol:005930', state: 'REDUCING', source: 'manual', reason: 'reducing by hand' },
        ],
      },
    });
    expect(sim.counters().ordersCreated).toBe(0);
  }, 120_000);

  it('a halt of the account over a halted strategy names the strategy too', async () => {
    const { sim, db } = await setup(true, 0);
    const environment = env(sim, db);
    expect((await hoga(['db', 'migrate', '--db', db], environment)).code).toBe(0);
    await hoga(['risk', 'set', 'HALTED', '--account', '--reason', 'maintenance'], environment);
    await hoga(['risk', 'set', 'HALTED', '--strategy', 'manual', '--reason', 'runaway'], environment);
    const text = await hoga(['order', 'buy', '005930', '1', '--limit', '60000', '--check'], environment);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/^denied: risk-halted: Trading is halted for the account: /);
    // before: resetting the account (the way out it named) still left the strategy halted, unsaid
    expect(text.stdout).toContain(
      'Also in force: strategy manual HALTED (manual: runaway), to lift: hoga risk reset --strategy manual',
    );
  }, 120_000);
});
