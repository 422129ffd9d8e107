/**
 * Each `hoga order` subcommand takes its own flags, over the real `hoga` as a child process. Before,
 * the four shared one option builder: `hoga order cancel` took `--confirm-high-value` and
 * `--strategy` (its help printing the long take-over description of a new order) and did nothing
 * with them (`cancel --confirm-high-value --check` printed `accepted`), where an unknown flag is a
 * usage error naming it. `hoga order modify` keeps `--confirm-high-value`: the broker asks for it on
 * a modify as on a create (a modified order of 100,000,000 KRW or more).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags, tempHome } from '../hoga-process.test-helper.js';

let sim: SimulatorHandle;
const dir = mkdtempSync(join(tmpdir(), 'hoga-order-flags-'));
const dbFile = join(dir, 'hoga.sqlite');
// Monday 10:30 in New York: the US market is open (AAPL at about $226, the account holds $20,000)
const env = { HOME: tempHome(), HOGA_TOKEN_FILE: join(dir, 'tokens.json') };

beforeAll(async () => {
  sim = await startSimulator({ port: 0, start: '2026-11-24T00:30:00+09:00', speed: 0, rateLimit: false });
});
afterAll(async () => {
  await sim.close();
});

const order = (...args: string[]) =>
  hoga(['order', ...args, ...simFlags(sim.url), '--db', dbFile], { env, killAfterMs: 30_000 });

/** The long flags a subcommand's `--help` lists. */
async function flagsOf(subcommand: string): Promise<string[]> {
  const help = await hoga(['order', subcommand, '--help'], { env });
  expect(help.code, help.err).toBe(0);
  return [...help.out.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
}

describe('hoga order subcommands take their own flags', () => {
  it('cancel refuses the flags of a new order as unknown, naming each, and sends nothing', async () => {
    const placed = await order('buy', 'AAPL', '1', '--limit', '100', '--json');
    expect(placed.code, placed.err).toBe(0);
    const { clientOrderId } = JSON.parse(placed.out) as { clientOrderId: string };
    const before = sim.counters().requestsByGroup.ORDER ?? 0;
    for (const [flag, ...value] of [['--confirm-high-value'], ['--strategy', 's1']]) {
      const run = await order('cancel', clientOrderId, flag!, ...value, '--check');
      expect([run.code, run.out]).toEqual([2, '']);
      expect(run.err).toBe(`hoga order cancel: unknown option '${flag}'\nsee hoga order cancel --help\n`);
    }
    expect(sim.counters().requestsByGroup.ORDER ?? 0).toBe(before);
    const check = await order('cancel', clientOrderId, '--check');
    expect([check.code, check.out]).toEqual([0, 'accepted\n']);
  });

  it("each --help lists only the subcommand's flags", async () => {
    const shared = ['--db', '--check', '--risk-config', '--at', '--sim-clock', '--json', '--base-url'];
    const cancel = await flagsOf('cancel');
    expect(cancel).toEqual(expect.arrayContaining(shared));
    for (const flag of [
      '--confirm-high-value',
      '--strategy',
      '--limit',
      '--market',
      '--amount',
      '--quantity',
    ])
      expect(cancel).not.toContain(flag);
    const modify = await flagsOf('modify');
    expect(modify).toEqual(
      expect.arrayContaining([
        ...shared,
        '--limit',
        '--market',
        '--quantity',
        '--confirm-high-value',
        '--strategy',
      ]),
    );
    for (const flag of ['--amount', '--client-order-id']) expect(modify).not.toContain(flag);
    const buy = await flagsOf('buy');
    expect(buy).toEqual(
      expect.arrayContaining([
        ...shared,
        '--limit',
        '--market',
        '--amount',
        '--client-order-id',
        '--confirm-high-value',
        '--strategy',
      ]),
    );
    expect(buy).not.toContain('--quantity');
    // the take-over of a new order by a live run of its strategy is told where an order is placed
    const text = async (sub: string) =>
      (await hoga(['order', sub, '--help'], { env })).out.replace(/\s+/g, ' ');
    expect(await text('buy')).toContain('takes the order over');
    expect(await text('modify')).not.toContain('takes the order over');
  });

  it('modify keeps --confirm-high-value: the broker asks for it when the modified order is worth 100,000,000 KRW or more', async () => {
    const placed = await order('buy', 'AAPL', '1', '--limit', '100', '--json');
    expect(placed.code, placed.err).toBe(0);
    const { clientOrderId } = JSON.parse(placed.out) as { clientOrderId: string };
    // one share at $100,000: about 138,000,000 KRW
    const raise = ['modify', clientOrderId, '--limit', '100000', '--check'];
    const unconfirmed = await order(...raise);
    expect(unconfirmed.code, unconfirmed.err).toBe(3);
    expect(unconfirmed.out).toMatch(/^denied: confirm-high-value-required: .*give --confirm-high-value/);
    const confirmed = await order(...raise, '--confirm-high-value');
    expect(confirmed.code, confirmed.err).toBe(3);
    expect(confirmed.out).toMatch(/^denied: insufficient-buying-power: /);
  });
});
