/**
 * `hoga order` records its orders under the strategy `manual` (unless `--strategy` names another),
 * so a live strategy of id `manual` (`FILE.ts:manual`) takes them over: it works the hand-placed
 * open orders as its own (`--cancel-on-stop` cancels them), starts from the positions bought by
 * hand, and its risk limits count them. Before, `hoga run x.ts:manual --mode live` said nothing of
 * it. Now such a run is refused (exit 2) before it asks the broker anything, unless
 * `--take-over-manual` asks for it, and then it says so at its start. A paper run shares nothing
 * with `hoga order` (which places live orders only): `manual` runs there as any id.
 *
 * The real `hoga` as a child process over the simulator (HTTP, a port the system picks) and a real
 * SQLite file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  exitedWithin,
  hogaToEnd,
  REST_ARGS,
  setup,
  start,
  strategy,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

/** Time a start may take, the child's own start-up included (a loaded machine is slow). */
const PROMPTLY_MS = 60_000;

/** A hand order resting below the market (the simulator's 005930 trades near 66,000 then). */
async function handOrder(e: NodeJS.ProcessEnv): Promise<string> {
  const placed = await hogaToEnd(['order', 'buy', '005930', '1', '--limit', '50000', '--json'], e);
  expect(placed.code, placed.out).toBe(0);
  return (JSON.parse(placed.stdout) as { clientOrderId: string }).clientOrderId;
}

/** The stored state of the order `clientOrderId`. */
async function stateOf(e: NodeJS.ProcessEnv, clientOrderId: string): Promise<string | undefined> {
  const listed = await hogaToEnd(['db', 'orders', '--json'], e);
  const rows = JSON.parse(listed.stdout) as { clientOrderId: string; strategyId: string; state: string }[];
  return rows.find((r) => r.clientOrderId === clientOrderId)?.state;
}

describe('hoga run with a strategy of id manual (hoga order’s)', () => {
  it('live without --take-over-manual: refused with exit 2 before the broker is asked anything; the hand order stays open', async () => {
    const { sim, db } = await setup();
    const e = env(sim, db);
    const id = await handOrder(e);
    const requests = sim.counters().requestsTotal;
    const r = start(['run', `${strategy}:manual`, '--mode', 'live', '--cancel-on-stop', ...REST_ARGS], e);
    expect(await exitedWithin(r, PROMPTLY_MS), r.out.join('')).toBe(2);
    const text = r.out.join('');
    expect(text).toContain("hoga: strategy id manual is hoga order's");
    expect(text).toContain('give the strategy another id (FILE.ts:ID), or --take-over-manual');
    expect(text).not.toContain('hoga run:');
    expect(sim.counters().requestsTotal).toBe(requests);
    expect(await stateOf(e, id)).toBe('ACCEPTED');
  }, 120_000);

  it('live with --take-over-manual: said at the start, and the run works the hand order as its own', async () => {
    const { sim, db } = await setup();
    const e = env(sim, db);
    const id = await handOrder(e);
    const r = start(
      ['run', `${strategy}:manual`, '--mode', 'live', '--take-over-manual', '--cancel-on-stop', ...REST_ARGS],
      e,
    );
    const up = await until(r, /status .*open orders 1/, PROMPTLY_MS);
    expect(up, r.out.join('')).toBe(true);
    expect(r.out.join('')).toContain(
      "hoga run: strategy manual takes over hoga order's orders, fills and positions (--take-over-manual)",
    );
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, PROMPTLY_MS), r.out.join('')).toBe(0);
    // what the warning said: --cancel-on-stop cancelled the order placed by hand
    expect(r.out.join('')).toContain('cancel on stop: 1 open order cancelled');
    expect(await stateOf(e, id)).toBe('CANCELED');
  }, 150_000);

  it('paper: runs as any id, without a word about hoga order', async () => {
    const { sim, db } = await setup();
    const r = start(['run', `${strategy}:manual`, '--mode', 'paper', ...REST_ARGS], env(sim, db));
    const up = await until(r, / status /, PROMPTLY_MS);
    expect(up, r.out.join('')).toBe(true);
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, PROMPTLY_MS), r.out.join('')).toBe(0);
    expect(r.out.join('')).not.toContain('hoga order');
  }, 150_000);
});
