/**
 * An order placed with `hoga order buy|sell --strategy ID` is stored as strategy ID's, and a live
 * run of that strategy started later works it as its own (docs/cli.md, `--strategy`): it is among
 * `ctx.openOrders()` at `onStart`, `ctx.cancel` cancels it at the broker and the strategy is told
 * `OrderCanceled`. Another strategy's hand order is not its own. A paper run shares nothing with
 * `hoga order` (live orders only). The real `hoga` as child processes, the simulator over HTTP (a
 * port the system picks), a real SQLite file.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  exitedWithin,
  hogaToEnd,
  REST_ARGS,
  root,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

const fixture = join(root, 'packages/cli/test/fixtures/cancels-its-open-orders.ts');
/** Time a start may take, the child's own start-up included (a loaded machine is slow). */
const PROMPTLY_MS = 60_000;

/** A hand order resting below the market (005930 trades near 66,000 then) for `strategy`. */
async function handOrder(e: NodeJS.ProcessEnv, strategy: string, limit: string): Promise<string> {
  const args = ['order', 'buy', '005930', '1', '--limit', limit, '--strategy', strategy, '--json'];
  const placed = await hogaToEnd(args, e);
  expect(placed.code, placed.out).toBe(0);
  return (JSON.parse(placed.stdout) as { clientOrderId: string }).clientOrderId;
}

/** The stored state of each order. */
async function states(e: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const listed = await hogaToEnd(['db', 'orders', '--json'], e);
  const rows = JSON.parse(listed.stdout) as { clientOrderId: string; state: string }[];
  return Object.fromEntries(rows.map((r) => [r.clientOrderId, r.state]));
}

describe('hoga order --strategy ID, then hoga run of ID', () => {
  it("live: the run sees the hand order among its open orders and cancels it; another strategy's is left", async () => {
    const { sim, db } = await setup();
    const e = env(sim, db);
    const own = await handOrder(e, 's1', '50000');
    const other = await handOrder(e, 's2', '50100');
    const r = start(['run', `${fixture}:s1`, '--mode', 'live', ...REST_ARGS], e);
    const told = await until(r, new RegExp(`event OrderCanceled ${own}`), PROMPTLY_MS);
    const out = () => r.out.join('');
    expect(told, out()).toBe(true);
    expect(out()).toContain('open orders at start: 1');
    expect(out()).toContain(`cancelling ${own} BUY 005930 @ 50000`);
    expect(out()).not.toContain(`cancelling ${other}`);
    // s2's is named among the open orders of strategies not in the run, and keeps working
    expect(out()).toContain(`${other} s2 BUY 1 005930 LIMIT @ 50100`);
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, PROMPTLY_MS), out()).toBe(0);
    expect(await states(e)).toMatchObject({ [own]: 'CANCELED', [other]: 'ACCEPTED' });
  }, 150_000);

  it('paper: the live hand order is not the paper run’s, and stays open', async () => {
    const { sim, db } = await setup();
    const e = env(sim, db);
    const own = await handOrder(e, 's1', '50000');
    const r = start(['run', `${fixture}:s1`, '--mode', 'paper', ...REST_ARGS], e);
    const up = await until(r, /open orders at start: \d+/, PROMPTLY_MS);
    expect(up, r.out.join('')).toBe(true);
    expect(r.out.join('')).toContain('open orders at start: 0');
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, PROMPTLY_MS), r.out.join('')).toBe(0);
    expect((await states(e))[own]).toBe('ACCEPTED');
  }, 150_000);
});
