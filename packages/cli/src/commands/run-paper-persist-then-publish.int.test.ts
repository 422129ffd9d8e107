/**
 * A paper run tells its strategy of an order event only once the store holds it (persist, then
 * publish), as a `hoga run --mode paper` child process against the simulator over a real SQLite
 * file: a test-only trigger refuses the write of a fill's rows, the process is killed (SIGKILL)
 * before the store takes it, and the run is started again. Before, the venue's events reached the
 * strategy whether or not the store took them: the strategy heard of the refused fill (and its
 * `ctx.state` counted it), the restarted run filled the order again from what the store held, and
 * the strategy heard of a second fill of the same order, the journal showing both.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { allow, crash, dbJson, refuse } from './paper-store-refusal.test-helper.js';
import { ARGS, env, type Running, readStore, root, start, until } from './run-process.test-helper.js';

/** Buys 2 shares on its first bar (once across runs), records each fill it hears of in `ctx.state`. */
const recordsFills = join(root, 'packages/cli/test/fixtures/records-fills.ts');
const RUN = ['run', recordsFills, '--mode', 'paper', '--symbols', '005930', ...ARGS.slice(2)];
/** Where the strategy's persistent state is kept (`paper/<strategy id>`). */
const STATE_ID = 'paper/RecordsFills';
const FILL_EVENTS = new Set(['OrderFilled', 'OrderPartiallyFilled']);

let sim: SimulatorHandle | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** The simulator at ×120 (a 1-minute bar each half second) and a fresh store, migrated. */
async function setup(): Promise<{ sim: SimulatorHandle; db: string }> {
  sim = await startSimulator({ port: 0, seed: 7, start: '2026-11-23T10:00:00+09:00', speed: 120 });
  const db = join(mkdtempSync(join(tmpdir(), 'hoga-run-')), 'hoga.sqlite');
  readStore(db, () => undefined);
  return { sim, db };
}

/** Whether `pattern` shows in the child's output after the first line matching `after`, within `timeoutMs`. */
async function untilAfter(
  r: Running,
  after: RegExp,
  pattern: RegExp,
  timeoutMs: number,
): Promise<string | null> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    const out = r.out.join('');
    const from = out.search(after);
    const match = from < 0 ? null : out.slice(from).match(pattern);
    if (match !== null) return match[0];
    await new Promise((x) => setTimeout(x, 200));
  }
  return null;
}

/** The fills the strategy recorded in its persistent state. */
function heard(db: string): { clientOrderId: string; quantity: string }[] | undefined {
  return readStore(db, (d) => d.strategyState.get(STATE_ID, 'fills')) as
    | { clientOrderId: string; quantity: string }[]
    | undefined;
}

describe('hoga run --mode paper: persist, then publish', () => {
  it('a fill the store refused, then a crash: after the restart the strategy hears of it once', async () => {
    const { sim, db } = await setup();
    refuse(db, 'fills');
    const first = start(RUN, env(sim, db));
    const refused = /warning: paper-store: .*test: the disk is full/;
    expect(await until(first, refused, 90_000)).toBe(true);
    // while the fill waits for the store (the paper ledger, its account, has the shares already),
    // the strategy sees its order working and no position
    // (soft: before, this and the strategy's state failed too, and the restart shows the double fill)
    expect
      .soft(await untilAfter(first, refused, /bar \d+: [^\n]*account 2/, 30_000))
      .toMatch(/open 1, position 0, account 2/);
    await crash(first);
    allow(db);
    // the strategy never heard of the fill the store did not take
    expect.soft(heard(db)).toBeUndefined();
    expect(readStore(db, (d) => d.fills.list({ mode: 'paper' }))).toEqual([]);

    // the order is worked again from what the store holds: filled once, heard of once
    const second = start(RUN, env(sim, db));
    expect(await until(second, /fills heard: /, 90_000)).toBe(true);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    const fills = heard(db);
    expect(fills?.length).toBe(1);
    const order = fills?.[0]?.clientOrderId;
    expect(fills).toEqual([{ clientOrderId: order, quantity: '2' }]);
    expect(
      (await dbJson(sim, db, 'fills', '--mode', 'paper')).map((f) => [f.clientOrderId, f.quantity]),
    ).toEqual([[order, '2']]);
    const journalled = readStore(db, (d) => d.journal.readFrom(1)).filter(
      (e) => FILL_EVENTS.has(e.type) && e.clientOrderId === order,
    );
    expect(journalled).toHaveLength(1);
  }, 240_000);

  it('the events that waited for the store are told in order once it takes them', async () => {
    const { sim, db } = await setup();
    refuse(db, 'fills');
    const r = start(RUN, env(sim, db));
    const refused = /warning: paper-store: .*test: the disk is full/;
    expect(await until(r, refused, 90_000)).toBe(true);
    expect(await untilAfter(r, refused, /bar \d+: [^\n]*account 2/, 30_000)).toMatch(
      /open 1, position 0, account 2/,
    );
    allow(db);
    // the run's next tick stores the fill, then tells it: the order ends, the position holds it
    expect(await until(r, /fills heard: /, 30_000)).toBe(true);
    expect(await untilAfter(r, /fills heard: /, /bar \d+: [^\n]*/, 30_000)).toMatch(
      /open 0, position 2, account 2/,
    );
    r.child.kill('SIGINT');
    expect(await r.exited).toBe(0);
    const fills = heard(db);
    const order = fills?.[0]?.clientOrderId;
    expect(fills).toEqual([{ clientOrderId: order, quantity: '2' }]);
    // journalled as it happened, each once
    const journalled = readStore(db, (d) => d.journal.readFrom(1)).filter((e) => e.clientOrderId === order);
    expect(journalled.map((e) => e.type)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderFilled']);
    expect(readStore(db, (d) => d.fills.list({ mode: 'paper' })).map((f) => f.quantity.toFixed())).toEqual([
      '2',
    ]);
  }, 150_000);
});
