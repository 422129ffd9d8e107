/**
 * `hoga run` (a child process over the simulator, a real SQLite file) with a strategy that calls
 * `ctx.cancel` with an id that is not one (`undefined`: `order.id` of an `OrderView`, whose field is
 * `clientOrderId`). Before: the runtime denied the cancel with an `OrderCancelRejected` event whose
 * `clientOrderId` was undefined, and the run's printer threw on it, outside the strategy: `hoga run:
 * uncaught exception not traced to a strategy (…): Cannot read properties of undefined (reading
 * 'startsWith')`, then `hoga: unexpected error`. Now the call throws in the strategy's hook, as a
 * NaN quantity does, and the run stops naming the strategy, the hook, the value and the line.
 */

import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ARGS, closeSims, env, exitedWithin, root, setup, start } from './run-process.test-helper.js';

afterEach(closeSims);

const fixture = join(root, 'packages/cli/test/fixtures/cancels-wrong-id.ts');

describe('hoga run: a modify or cancel of something that is not an order id', () => {
  it('stops the run naming the strategy and its line, not an error outside it', async () => {
    const { sim, db } = await setup();
    const r = start(
      ['run', fixture, '--mode', 'live', '--symbols', '005930', ...ARGS.slice(2)],
      env(sim, db),
    );
    const code = await exitedWithin(r, 90_000);
    const text = r.out.join('');
    expect(code, text).toBe(1);
    expect(text).not.toContain('not traced to a strategy');
    expect(text).not.toContain('unexpected error');
    expect(text).toMatch(
      /strategy CancelsWrongId threw in onBar: cancel: expected an order id \(a string\), found undefined \(at \S*cancels-wrong-id\.ts:17:\d+\)/,
    );
  }, 120_000);
});
