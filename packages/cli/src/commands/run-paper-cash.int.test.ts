/**
 * `hoga run --mode paper` given more cash (`--cash-krw`, `--cash-usd`) than the paper account an
 * earlier paper run left in the store holds: said once at the start, on stderr.
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

/** Starts `hoga run … --mode paper` (its stderr gathered apart as well: `err`). */
function startPaper(extra: string[], environment: NodeJS.ProcessEnv): Running {
  return start(['run', restsBelow, '--mode', 'paper', ...REST_ARGS, ...extra], environment);
}

describe('hoga run --mode paper, more cash than the paper account holds', () => {
  it("says once at the start that the strategies' cash is more than the paper account holds, and what to do", async () => {
    const { sim, db } = await setup();
    // the first paper run on the store opens the paper account with its --cash-krw
    const first = startPaper(['--cash-krw', '5000000'], env(sim, db));
    expect(await until(first, / status /, 60_000)).toBe(true);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(first.err.join('')).not.toContain('warning');

    // a later run with the default 10,000,000 KRW: the strategies' ctx.cash is 10,000,000 KRW, the
    // paper account still 5,000,000 KRW (before, not a word: its buys past 5,000,000 were refused)
    const second = startPaper([], env(sim, db));
    expect(await until(second, /more than the paper account holds.* status /s, 60_000)).toBe(true);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    const err = second.err.join('');
    expect(err).toContain(
      "hoga: warning: the strategies' cash 10,000,000 KRW is more than the paper account holds (5,000,000 KRW): " +
        'their buys past it are refused insufficient-buying-power; run with --cash-krw 5000000 or less, ' +
        'or give the run a fresh paper account in a store of its own (--db FILE)\n',
    );
    // once, and of KRW only: the USD budget ($10,000.00) is what the account holds
    expect(err.match(/more than the paper account holds/g)).toHaveLength(1);
    expect(err).not.toContain('$');
  }, 150_000);
});
