/**
 * A KR sell and then a buy of the same stock in one hook (`sells-then-buys.ts`): `hoga run` as a
 * child process against the simulator, the sellable quantity answered late and read for every order
 * (`accountInfoMaxAgeMs` 0). The broker takes the sell and rejects the buy
 * (`opposite-pending-order-exists`); paper, and live with the risk module on, must answer the same
 * and deny the buy before the broker. Before, the risk gate checked the commands in the order their
 * refreshes ended: the buy's (the buying power only) before the sell's (the sellable quantity too),
 * so the buy was sent and the sell denied, the other way round from the broker.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

const SELLS_THEN_BUYS = join(root, 'packages/cli/test/fixtures/sells-then-buys.ts');

describe('hoga run: a KR sell and then a buy of the same stock in one hook', () => {
  for (const mode of ['paper', 'live'] as const) {
    it(`${mode}: takes the sell and denies the buy opposite-pending-order-exists, as the broker answers`, async () => {
      const { sim, db } = await setup();
      sim.injectFault({ kind: 'delay', path: '/api/v1/sellable-quantity', delayMs: 1_500 });
      const risk = join(dirname(db), 'risk.json');
      writeFileSync(risk, JSON.stringify({ accountInfoMaxAgeMs: 0 }));
      const args = ['run', SELLS_THEN_BUYS, '--mode', mode, '--risk-config', risk, ...REST_ARGS];
      // paper: the account's 100 shares of 005930 in the paper ledger, so the sell has shares
      if (mode === 'paper') args.push('--paper-from-account');
      const r = start(args, env(sim, db));
      const seen = await until(
        r,
        /first [^\n]*[\s\S]*second [^\n]*\n|second [^\n]*[\s\S]*first [^\n]*\n/,
        90_000,
      );
      r.child.kill('SIGINT');
      expect(await exitedWithin(r, 60_000)).not.toBe('still running');
      const out = r.out.join('');
      expect(seen, out).toBe(true);
      expect(out).toContain('first accepted');
      expect(out).toContain('second OrderDenied opposite-pending-order-exists');
    }, 180_000);
  }
});
