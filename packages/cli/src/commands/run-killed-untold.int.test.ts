/**
 * `hoga run` killed with SIGKILL after the store took a fill and before the strategy heard of it:
 * the real `hoga` as a child process, the simulator over HTTP (its clock stopped), a real SQLite
 * file. Paper and live both commit a fill before they tell the runtime (persist, then publish); a
 * kill between the two (the commit's fsync is a few milliseconds wide) left the fill stored, booked
 * at the next start, and never told: CI saw a paper strategy told of cumulative fills 4,746 and
 * 6,620 where the store held 4,746, 5,619 and 6,620. Here the process stops right after that commit
 * (`stall-after-fill-stored.mjs`, preloaded) and is killed there; the next start tells the fill,
 * once, before `onStart`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Heard } from './run-killed.test-helper.js';
import { closeSessions, PART, Session, stopRun, waitFor } from './run-killed.test-helper.js';
import {
  kill,
  lastStart,
  noOrderRequests,
  paper,
  paperFills,
  runs,
  sum,
} from './run-paper-killed.test-helper.js';
import { exitedWithin } from './run-process.test-helper.js';

afterEach(async () => {
  for (const r of runs.splice(0)) await exitedWithin(r, 0);
  await closeSessions();
});

const STALL = pathToFileURL(
  join(import.meta.dirname, '../../test/fixtures/stall-after-fill-stored.mjs'),
).href;

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The run `pid` told the strategy of a fill of `id` before its `onStart`. */
function expectToldBeforeStart(heard: readonly Heard[], id: string, pid: number | undefined): void {
  const start = heard.findIndex((h) => h.hook === 'start' && h.pid === pid);
  const told = heard.findIndex((h) => h.hook === 'fill' && h.id === id && h.pid === pid);
  expect(told).toBeGreaterThan(-1);
  expect(told).toBeLessThan(start);
}

describe('hoga run killed between a fill stored and its telling', () => {
  it('paper: tells the fill at the next start, once, before onStart', async () => {
    const s = await Session.open();
    const stallLog = join(s.dir, 'stall.log');
    // the buy fills in part at once: the process stops after the commit that stored the fill
    const first = paper(s, 1, { CrashPlan: { place: [PART] } }, [], {
      NODE_OPTIONS: `--import ${STALL}`,
      HOGA_TEST_STALL_LOG: stallLog,
    });
    const part = await s.idOf('part');
    await waitFor('the fill stored, the process stopped after its commit', () =>
      read(stallLog).includes('stalled'),
    );
    await kill(first);
    const stored = paperFills(s);
    expect(stored).toHaveLength(1);
    expect(s.fillsHeard(part)).toEqual([]);

    // started again: told of the fill the killed run stored, before onStart (its books hold it)
    const second = paper(s, 2, { CrashPlan: { place: [PART] } });
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    await stopRun(second);
    const heard = s.heard();
    expectToldBeforeStart(heard, part, second.child.pid);
    expect(lastStart(heard)?.positions).toEqual([{ symbol: 'ZOM', quantity: stored[0]?.quantity }]);
    // every fill the store holds told once, in order, each with its event
    const fills = paperFills(s);
    const cumulative = fills.map((_, i) => sum(fills.slice(0, i + 1).map((f) => f.quantity)));
    expect(s.fillsHeard(part).map((h) => h.cumulative)).toEqual(cumulative);
    const fillEvents = heard.filter(
      (h) => h.hook === 'event' && h.id === part && /Filled$/.test(String(h.type)),
    );
    expect(fillEvents).toHaveLength(fills.length);

    // once more: nothing told again
    const third = paper(s, 3, { CrashPlan: { place: [PART] } });
    await waitFor('the third start', () => s.heard().filter((h) => h.hook === 'start').length === 3);
    await stopRun(third);
    expect(s.fillsHeard(part).map((h) => h.cumulative)).toEqual(cumulative);
    noOrderRequests(s);
  }, 120_000);
  it('live: tells the fill at the next start, once, before onStart', async () => {
    const s = await Session.open();
    const stallLog = join(s.dir, 'stall.log');
    // the buy fills in part at once at the broker: the process stops after the commit that counted it
    const first = s.run(1, { place: [PART] }, undefined, {
      NODE_OPTIONS: `--import ${STALL}`,
      HOGA_TEST_STALL_LOG: stallLog,
    });
    const part = await s.idOf('part');
    await waitFor('the fill stored, the process stopped after its commit', () =>
      read(stallLog).includes('stalled'),
    );
    await s.kill(first);
    expect(s.fillsHeard(part)).toEqual([]);
    const stored = s.storedFilled('ZOM');
    expect(stored.isZero()).toBe(false);

    // started again: its reconciliation finds the fill counted already; told of it before onStart
    const second = s.run(2, { place: [PART] });
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    await stopRun(second);
    expectToldBeforeStart(s.heard(), part, second.child.pid);
    const told = s.fillsHeard(part).reduce((t, h) => t.plus(h.quantity ?? 0), new Decimal(0));
    expect(told.toFixed()).toBe(s.storedFilled('ZOM').toFixed());
    expect(told.toFixed()).toBe((await s.filledAtBroker('ZOM')).toFixed());
  }, 120_000);
});

/**
 * The fills a run told its strategy before it started again, and its start: the counts the
 * strategy kept in `ctx.state` then.
 */
function countsAtStart(heard: readonly Heard[], id: string, pid: number | undefined) {
  const start = heard.findIndex((h) => h.hook === 'start' && h.pid === pid);
  const told = heard.filter((h, i) => h.hook === 'fill' && h.id === id && h.pid === pid && i < start);
  return { told: told.map((h) => h.counted), start: heard[start]?.counted };
}

describe('hoga run killed inside onFill, after the strategy wrote its ctx.state', () => {
  // The fill's note is dropped once the strategy was told; a kill inside the hook tells the fill
  // again at the next start. Its ctx.state writes are committed with that drop: the strategy hears
  // the fill again with the state it had before it heard it (before, its count was 2 for 1 fill).
  it('paper: the fill told again at the next start, to a state that never counted it', async () => {
    const s = await Session.open();
    const killed = join(s.dir, 'killed-on-fill');
    const first = paper(s, 1, { CrashPlan: { place: [PART], killOnFill: killed } });
    const part = await s.idOf('part');
    expect(await first.exited).toBeNull();
    expect(s.fillsHeard(part).map((h) => h.counted)).toEqual([1]);

    const second = paper(s, 2, { CrashPlan: { place: [PART], killOnFill: killed } });
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    await stopRun(second);
    expect(countsAtStart(s.heard(), part, second.child.pid)).toEqual({ told: [1], start: 1 });
    // every fill the store holds counted once
    expect(s.fillsHeard(part).at(-1)?.counted).toBe(paperFills(s).length);
    noOrderRequests(s);
  }, 120_000);

  it('live: the fill told again at the next start, to a state that never counted it', async () => {
    const s = await Session.open();
    const killed = join(s.dir, 'killed-on-fill');
    const first = s.run(1, { place: [PART], killOnFill: killed });
    const part = await s.idOf('part');
    expect(await first.exited).toBeNull();
    expect(s.fillsHeard(part).map((h) => h.counted)).toEqual([1]);

    const second = s.run(2, { place: [PART], killOnFill: killed });
    await waitFor('the second start', () => s.heard().filter((h) => h.hook === 'start').length === 2);
    await stopRun(second);
    expect(countsAtStart(s.heard(), part, second.child.pid)).toEqual({ told: [1], start: 1 });
    expect(s.fillsHeard(part).at(-1)?.counted).toBe(
      s.fillsHeard(part).filter((h) => h.pid === second.child.pid).length,
    );
  }, 120_000);
});
