/**
 * `ctx.subscribeBars(symbol, '5m')` (an interval the broker has no candles of) stops a paper run at
 * once, naming the intervals there are, as a backtest does. Before, paper and live took the
 * subscription, polled nothing for it and ran on with no bar of it, saying nothing; `hoga backtest`
 * said to run with `--interval 5m`, which it refuses.
 */

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { simFlags } from '../hoga-process.test-helper.js';
import { hogaBacktest } from './backtest-runs.test-helper.js';
import { closeSims, env, exitedWithin, REST_ARGS, root, setup, start } from './run-process.test-helper.js';

afterEach(closeSims);

const FIVE_MINUTES = join(root, 'packages/cli/test/fixtures/subscribes-five-minutes.ts');
const MESSAGE =
  'strategy SubscribesFiveMinutes threw in onStart: subscribeBars 000660: expected an interval of 1m or 1d, found "5m"';

describe('a subscription to 5m bars', () => {
  it('stops a paper run at its start with exit 1, naming the intervals there are', async () => {
    const { sim, db } = await setup();
    const r = start(['run', FIVE_MINUTES, '--mode', 'paper', ...REST_ARGS], env(sim, db));
    // before: still running when killed, no word of the subscription
    expect(await exitedWithin(r, 90_000), r.out.join('')).toBe(1);
    expect(r.out.join('')).toContain(MESSAGE);
  }, 150_000);

  it('stops a backtest the same way (before: exit 2 advising --interval 5m)', async () => {
    const { sim, db } = await setup();
    const result = await hogaBacktest([
      FIVE_MINUTES,
      ...['--symbols', '005930', '--interval', '1d', '--from', '2026-11-03', '--to', '2026-11-05'],
      ...simFlags(sim.url),
      ...['--db', db],
    ]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(MESSAGE);
    expect(result.stderr).not.toContain('--interval 5m');
  }, 150_000);
});
