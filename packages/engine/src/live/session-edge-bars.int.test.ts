/**
 * The bars at a session's edges reach the strategy as they complete, over the simulator on
 * 127.0.0.1:
 * - the first bars after an open: the streams do not poll a closed market, and before, they looked
 *   at it again only every 30 real seconds, so the first poll after an open came up to 30 s late
 *   (at ×20, ten simulated minutes: the session's first ten minute bars at once); now they wait
 *   for the calendar's next open, at the clock's speed, and wait again when the speed changes
 *   (the run's clock frozen while they found the market closed, then started at ×20), and a look at
 *   the closed market that stalls until the open passed (a loaded machine) no longer finds the
 *   open after it, the regular session's 09:00, and waits 30 real s: it judges the market and its
 *   next open at one instant, and looks again at once when the clock passed that open meanwhile;
 * - the last bars at the close: the streams stop polling a market once it closed, and before, the
 *   bar ending at the close (KR 20:00 KST, completed at that instant) was only fetched at the next
 *   morning's first poll (Monday's after a Friday), a stale bar of the previous session.
 */
import { MarketHours } from '@hoga/connector';
import type { Bar, ScaledClock } from '@hoga/core';
import { Decimal } from '@hoga/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Strategy } from '../strategy/strategy.js';
import {
  Closers,
  openTempDb,
  type SimulatedBroker,
  startSimulatedBroker,
  startTestRun,
  until,
} from './live-run.test-helper.js';

const closers = new Closers();
afterEach(async () => {
  vi.restoreAllMocks();
  await closers.closeAll();
});

/** Notes the close time of each bar it gets, and the engine time then. */
class Note extends Strategy {
  static seen: { closeMs: number; nowMs: number }[] = [];
  override onBar(bar: Bar): void {
    Note.seen.push({ closeMs: bar.closeTime, nowMs: this.ctx.now() });
  }
}

/**
 * A paper run of {@link Note} on 005930 from `start` (KST), both clocks frozen while the run starts
 * (its streams look at the market then) and until `frozenUntil` holds, then both at ×20;
 * `onBroker` gets the simulator and the engine clock before the run starts.
 */
async function paperRunFrom(
  start: string,
  runId: string,
  frozenUntil: () => boolean = () => true,
  onBroker: (s: SimulatedBroker) => void = () => undefined,
) {
  Note.seen = [];
  const s = await startSimulatedBroker(closers, { start, speed: 0 });
  onBroker(s);
  const db = openTempDb(closers, `hoga-${runId}-`, s.clock);
  const run = await startTestRun(
    { client: s.client, clock: s.clock, db },
    {
      runId,
      mode: 'paper',
      symbols: ['005930'],
      cashKrw: new Decimal(1_000_000),
      strategies: [{ strategyClass: Note }],
    },
    { pollIntervalMs: 200, streamIntervals: { candles1m: 300 } },
  );
  closers.add(() => run.handle.stop());
  await until(frozenUntil, 60_000);
  s.sim.setSpeed(20);
  s.clock.setSpeed(20);
  return s;
}

/** Blocks the thread, as a loaded machine stalls a process, until `clock` is past `ms` (10 real s at most). */
function stallUntil(clock: ScaledClock, ms: number): void {
  const giveUpAt = Date.now() + 10_000;
  while (clock.nowMs() <= ms && Date.now() < giveUpAt) {
    // nothing else runs meanwhile
  }
}

/** Each bar came once, in order. */
function expectOnceInOrder(): void {
  const stamps = Note.seen.map((b) => b.closeMs);
  expect(new Set(stamps).size).toBe(stamps.length);
  expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
}

describe('the bars at the edges of a session', () => {
  it('reach onBar as they complete after the open (KR pre-market 08:00 KST), not in a batch minutes later', async () => {
    // Monday 2026-11-30 07:59:30 KST, KR closed until the pre-market at 08:00; the clocks are
    // started once the streams found the market closed (on the calendar read from the simulator)
    const looks = vi.spyOn(MarketHours.prototype, 'isOpen');
    await paperRunFrom('2026-11-30T07:59:30+09:00', 'first-bar', () =>
      looks.mock.results.some((r) => r.type === 'return' && r.value === false),
    );
    const open = Date.parse('2026-11-30T08:00:00+09:00');
    const firstClose = open + 60_000;
    // before: the streams looked again 30 real s after they found it closed, at about 08:09, and
    // the bars ending 08:01 .. 08:09 came together then
    await until(() => Note.seen.some((b) => b.closeMs >= firstClose), 180_000);
    const first = Note.seen.find((b) => b.closeMs > open);
    expect(first?.closeMs).toBe(firstClose);
    // it came before the bar ending 08:05 completed (about 08:01 plus a poll, on an idle machine)
    expect(first?.nowMs).toBeLessThan(open + 5 * 60_000);
    expectOnceInOrder();
  }, 240_000);

  it('reach onBar as they complete after the open when a look at the closed market just before it stalls', async () => {
    // Monday 2026-11-30 07:59:30 KST as above; once the clocks run, the minute candles' first look
    // at the market (the one asking for the close's grace) finds it closed and then stalls (a
    // loaded machine: a collection pause, another process on the core) until 08:00:01
    const open = Date.parse('2026-11-30T08:00:00+09:00');
    const isOpen = MarketHours.prototype.isOpen;
    let clock: ScaledClock | null = null;
    let stalled = false;
    const looks = vi.spyOn(MarketHours.prototype, 'isOpen').mockImplementation(function (
      this: MarketHours,
      ...args: Parameters<MarketHours['isOpen']>
    ) {
      const answer = isOpen.apply(this, args);
      const [, graceMs] = args;
      if (!stalled && answer === false && (graceMs ?? 0) > 0 && clock !== null && clock.getSpeed() > 0) {
        stalled = true;
        stallUntil(clock, open + 1_000);
      }
      return answer;
    });
    await paperRunFrom(
      '2026-11-30T07:59:30+09:00',
      'stalled-look',
      () => looks.mock.results.some((r) => r.type === 'return' && r.value === false),
      (s) => {
        clock = s.clock;
      },
    );
    const firstClose = open + 60_000;
    // before: the stalled look asked for the next open at 08:00:01, found 09:00, and the streams
    // looked again 30 real s later, at about 08:10: the bars ending 08:01 .. 08:10 came together
    await until(() => Note.seen.some((b) => b.closeMs >= firstClose), 180_000);
    expect(stalled).toBe(true);
    const first = Note.seen.find((b) => b.closeMs > open);
    expect(first?.closeMs).toBe(firstClose);
    expect(first?.nowMs).toBeLessThan(open + 5 * 60_000);
    expectOnceInOrder();
  }, 240_000);

  it('reach onBar at the close (KR 20:00 KST), not at the next open', async () => {
    // Wednesday 2026-11-25 19:57 KST, the KR after-market
    const s = await paperRunFrom('2026-11-25T19:57:00+09:00', 'last-bar');
    const close = Date.parse('2026-11-25T20:00:00+09:00');
    // the bar ending 20:00 comes while the clock is still before 20:10 (before: at 08:00 the next day)
    await until(
      () => Note.seen.some((b) => b.closeMs === close) || s.clock.nowMs() > close + 10 * 60_000,
      180_000,
    );
    const last = Note.seen.find((b) => b.closeMs === close);
    expect(last).toBeDefined();
    expect(last?.nowMs).toBeLessThan(close + 10 * 60_000);
    expectOnceInOrder();
  }, 240_000);
});
