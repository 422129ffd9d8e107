/**
 * `hoga run --mode paper --paper-from-account` on a store that already holds a paper account (an
 * earlier paper run's): the run goes on with that account, and says so at the start, on stderr,
 * with what to do for a fresh copy of the real account. Before, the flag was ignored without a word.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  REST_ARGS,
  type Running,
  restsBelow,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

/** Starts `hoga run … --mode paper --paper-from-account` (its stderr gathered apart as well: `err`). */
function startFromAccount(environment: NodeJS.ProcessEnv): Running {
  return start(['run', restsBelow, '--mode', 'paper', '--paper-from-account', ...REST_ARGS], environment);
}

describe('hoga run --mode paper --paper-from-account on a store with a paper account', () => {
  it('says at the start that the flag is ignored, what the account holds, and what to do', async () => {
    const { sim, db } = await setup();
    // the first paper run on the store copies the real account: not a word of it ignored
    const first = startFromAccount(env(sim, db));
    expect(await until(first, / status /, 60_000)).toBe(true);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(first.err.join('')).not.toContain('ignored');

    // the next one keeps the paper account the first left, and says so before its first status line
    const second = startFromAccount(env(sim, db));
    expect(await until(second, /--paper-from-account is ignored.* status /s, 60_000)).toBe(true);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    const err = second.err.join('');
    expect(err).toMatch(
      /^hoga: warning: --paper-from-account is ignored: the store already holds a paper account \(\d+ KRW, [\d.]+ USD, \d+ holdings?\), which this run goes on with, as an earlier paper run left it; for a fresh copy of the real account's cash and holdings, give the run a store of its own \(--db FILE\)$/m,
    );
    expect(err.match(/is ignored/g)).toHaveLength(1);
  }, 150_000);
});
