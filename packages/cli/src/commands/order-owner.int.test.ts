/**
 * `hoga order modify` and `hoga order cancel` judge a change as the strategy that owns the stored
 * order, as a running engine judges a strategy's own modify or cancel: its trading state and its
 * limits. Before, both were judged as the `--strategy` given (default `manual`): an order of a
 * strategy halted by hand or by its kill switch could be modified as if it were a manual order, and
 * the owner's limits were read from the wrong strategy. A cancel is let through in every state (it
 * only reduces risk). The real `hoga` as a child process, the simulator over HTTP (a port the system
 * picks), a real SQLite file.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SimulatorHandle } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { closeSims, env, hogaToEnd, readStore, setup } from './run-process.test-helper.js';

afterEach(closeSims);

/** The simulator (its clock still: Monday 10:00 KST, 005930 near 66,000) and `hoga` on a fresh store. */
async function session(riskConfig?: object) {
  const { sim, db } = await setup(true, 0);
  const e = env(sim, db);
  if (riskConfig !== undefined) {
    const file = join(dirname(db), 'risk.json');
    writeFileSync(file, JSON.stringify(riskConfig));
    e.HOGA_RISK_CONFIG = file;
  }
  const hoga = (...args: string[]) => hogaToEnd(args, e);
  /** Places a KR limit buy resting below the market; answers its clientOrderId. */
  const rest = async (quantity: string, limit: string, ...more: string[]) => {
    const placed = await hoga('order', 'buy', '005930', quantity, '--limit', limit, '--json', ...more);
    expect(placed.code, placed.out).toBe(0);
    return (JSON.parse(placed.stdout) as { clientOrderId: string }).clientOrderId;
  };
  const stored = (id: string) =>
    readStore(db, (d) => {
      const o = d.orders.get(id);
      return { price: o?.price?.toFixed(), state: o?.state, strategy: o?.strategyId };
    });
  return { sim, db, hoga, rest, stored };
}

const orderRequests = (sim: SimulatorHandle) => sim.counters().requestsByGroup.ORDER ?? 0;

describe('hoga order modify and cancel judge the change as the order’s own strategy', () => {
  it('a modify of a halted strategy’s order is denied naming the strategy, nothing is sent; its cancel goes through', async () => {
    const { sim, hoga, rest, stored } = await session();
    const id = await rest('1', '60000', '--strategy', 's1');
    expect(stored(id)).toMatchObject({ strategy: 's1', state: 'ACCEPTED' });
    expect((await hoga('risk', 'set', 'HALTED', '--strategy', 's1', '--reason', 'runaway')).code).toBe(0);

    const check = await hoga('order', 'modify', id, '--limit', '60100', '--check');
    expect(check.code, check.out).toBe(3);
    expect(check.stdout).toMatch(/^denied: risk-halted: Trading is halted for strategy s1: only cancels/);
    expect(check.stdout).toContain(`order ${id} is strategy s1's`);

    const before = orderRequests(sim);
    const modify = await hoga('order', 'modify', id, '--limit', '60100', '--json');
    expect(modify.code, modify.out).toBe(3);
    expect(JSON.parse(modify.stdout)).toMatchObject({
      verdict: 'denied',
      sent: false,
      code: 'risk-halted',
      strategy: 's1',
      data: { scope: 'strategy:s1' },
    });
    expect(orderRequests(sim)).toBe(before);
    expect(stored(id)).toMatchObject({ price: '60000', state: 'ACCEPTED' });

    // a cancel only reduces risk: let through while the strategy is halted, as the engine lets a
    // halted strategy's own cancel through
    const cancel = await hoga('order', 'cancel', id, '--json');
    expect(cancel.code, cancel.out).toBe(0);
    expect(JSON.parse(cancel.stdout)).toMatchObject({ sent: true, outcome: 'sent', strategy: 's1' });
    expect(stored(id).state).toBe('CANCELED');
  }, 120_000);

  it('the owner’s limits judge a modify: a strategy’s tighter maximum denies it, a manual order keeps manual’s', async () => {
    const { hoga, rest, stored } = await session({ strategies: { s1: { maxOrderValueKrw: '580000' } } });
    const s1 = await rest('10', '55000', '--strategy', 's1');
    const manual = await rest('10', '55000');

    // 10 × 59,000 = 590,000 KRW: over s1's maximum, within manual's (the defaults)
    const raised = await hoga('order', 'modify', s1, '--limit', '59000', '--check');
    expect(raised.code, raised.out).toBe(3);
    expect(raised.stdout).toMatch(/^denied: risk-max-order-value: The order is worth 590,000 KRW/);
    expect(raised.stdout).toContain(`order ${s1} is strategy s1's`);
    const sent = await hoga('order', 'modify', s1, '--limit', '59000');
    expect(sent.code, sent.out).toBe(3);
    expect(stored(s1).price).toBe('55000');

    const own = await hoga('order', 'modify', manual, '--limit', '59000', '--json');
    expect(own.code, own.out).toBe(0);
    expect(JSON.parse(own.stdout)).toMatchObject({ sent: true, outcome: 'sent', strategy: 'manual' });
    expect(stored(manual).price).toBe('59000');
  }, 120_000);

  it('--strategy naming another strategy than the order’s is a usage error; naming its own is taken', async () => {
    const { sim, hoga, rest, stored } = await session();
    const id = await rest('1', '60000', '--strategy', 's1');
    const before = orderRequests(sim);
    const other = await hoga('order', 'modify', id, '--limit', '60100', '--strategy', 'manual');
    expect(other.code, other.out).toBe(2);
    expect(other.out).toContain(
      `hoga: order ${id} is strategy s1's: a modify is judged by its own strategy's trading state and limits; leave out --strategy (or give --strategy s1)`,
    );
    expect(orderRequests(sim)).toBe(before);
    const same = await hoga('order', 'modify', id, '--limit', '60100', '--strategy', 's1');
    expect(same.code, same.out).toBe(0);
    expect(stored(id).price).toBe('60100');
  }, 120_000);

  it('a modify or cancel of an order the store does not know is a plain error (exit 1), nothing sent', async () => {
    const { sim, db, hoga } = await session();
    for (const verb of [
      ['modify', 'nope', '--limit', '60000'],
      ['cancel', 'nope'],
    ]) {
      const run = await hoga('order', ...verb);
      expect(run.code, run.out).toBe(1);
      expect(run.out).toContain(`hoga: order nope is not in hoga's store (${db})`);
      expect(run.out).not.toContain('unexpected');
    }
    expect(orderRequests(sim)).toBe(0);
  }, 120_000);
});
