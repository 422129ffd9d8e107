/**
 * A cancel or a modify in the same hook as its order's create reaches the broker after the create,
 * in paper and live as in a backtest: `hoga run` as a child process against the simulator. Before,
 * the risk gate checked the cancel first (its view refreshed faster, or not at all for an order it
 * did not know yet) and refused it `order-not-found: No order … is known`, with a warning that the
 * event did not apply to the order's state, and the order went on working at the broker; live, once
 * the gate let it through, the order manager refused it `order-not-open` (no broker order yet).
 * And an order for a symbol the broker does not know is denied with the broker's `stock-not-found`
 * (before, `risk-unavailable: the risk gate could not refresh its view`, as for a passing failure).
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

afterEach(closeSims);

const CANCELS_AT_ONCE = join(root, 'packages/cli/test/fixtures/cancels-at-once.ts');

describe('hoga run: a cancel and a modify in the same hook as the create', () => {
  for (const mode of ['paper', 'live']) {
    it(`${mode}: cancels the one order and modifies the other`, async () => {
      const { sim, db } = await setup();
      const r = start(['run', CANCELS_AT_ONCE, '--mode', mode, ...REST_ARGS], env(sim, db));
      const both =
        /event OrderCanceled[\s\S]*event OrderModified|event OrderModified[\s\S]*event OrderCanceled/;
      const seen = await until(r, both, 90_000);
      r.child.kill('SIGINT');
      expect(await exitedWithin(r, 60_000)).not.toBe('still running');
      const out = r.out.join('');
      expect(seen, out).toBe(true);
      expect(out).not.toContain('order-not-found');
      expect(out).not.toContain('order-not-open');
      expect(out).not.toContain('does not apply to the order state');
    }, 180_000);
  }
});

const BUYS_UNKNOWN = join(root, 'packages/cli/test/fixtures/buys-unknown-symbol.ts');

describe('hoga run: an order for a symbol the broker does not know', () => {
  it('is denied stock-not-found, paper and live (before: risk-unavailable)', async () => {
    const { sim, db } = await setup();
    for (const mode of ['paper', 'live']) {
      const r = start(['run', BUYS_UNKNOWN, '--mode', mode, ...REST_ARGS], env(sim, db));
      const seen = await until(r, /denied \S+: stock-not-found/, 90_000);
      r.child.kill('SIGINT');
      expect(await exitedWithin(r, 60_000)).not.toBe('still running');
      expect(seen, r.out.join('')).toBe(true);
      expect(r.out.join('')).not.toContain('risk-unavailable');
    }
  }, 240_000);
});
