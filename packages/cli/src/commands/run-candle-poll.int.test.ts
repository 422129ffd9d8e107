/**
 * `hoga run --candle-poll-ms`: how often the run polls the broker's candles, for its `--interval`
 * (1m or 1d). Before, the polls were fixed (every 5 s for minute bars, 60 s for daily bars), a
 * minute bar up to 5 s late and no way to tune it, and the session's `candlePollMs` set only the
 * minute poll. Child processes of `hoga run --mode paper` against the simulator on 127.0.0.1,
 * counting the simulator's candle requests (the `MARKET_DATA_CHART` group) over the same window
 * of the runs: counts with generous bounds, not timings.
 */
import type { SimulatorHandle } from '@hoga/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  exitedWithin,
  hogaToEnd,
  type Running,
  setup,
  start,
  strategy,
  until,
} from './run-process.test-helper.js';

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    if (r.child.exitCode === null && r.child.signalCode === null) {
      r.child.kill('SIGKILL');
      await r.exited;
    }
  }
  await closeSims();
});

/** Real ms the candle requests are counted over. */
const WINDOW_MS = 12_000;

/** The simulator's candle requests so far. */
function candleRequests(sim: SimulatorHandle): number {
  return sim.counters().requestsByGroup.MARKET_DATA_CHART ?? 0;
}

/**
 * A paper run of the SMA strategy on `symbols` (005930 unless given) with `args`, against a
 * simulator of its own (×30, Monday 10:00 KST: the KR market open).
 */
async function paperRun(
  args: readonly string[],
  symbols = '005930',
): Promise<{ sim: SimulatorHandle; r: Running }> {
  const { sim, db, config } = await setup();
  const common = ['--mode', 'paper', '--config', config, '--symbols', symbols, '--status-every', '1'];
  const r = start(['run', strategy, ...common, ...args], env(sim, db));
  running.push(r);
  return { sim, r };
}

/**
 * The candle requests each run's simulator got over the same window, once every run printed its
 * first status line (its start and warm-up done); the runs are then stopped (exit 0).
 */
async function countOverWindow(runs: readonly { sim: SimulatorHandle; r: Running }[]): Promise<number[]> {
  for (const { r } of runs) expect(await until(r, / status /, 120_000), r.out.join('')).toBe(true);
  const before = runs.map(({ sim }) => candleRequests(sim));
  await new Promise((done) => setTimeout(done, WINDOW_MS));
  const counts = runs.map(({ sim }, i) => candleRequests(sim) - (before[i] ?? 0));
  for (const { r } of runs) {
    r.child.kill('SIGINT');
    expect(await exitedWithin(r, 60_000), r.out.join('')).toBe(0);
  }
  return counts;
}

describe('hoga run --candle-poll-ms', () => {
  it('polls minute and daily candles as often as asked: clearly more requests at 500 ms than at the default 5 s (before: only the minute poll could be set)', async () => {
    // side by side: the runs share the machine's load over the same window
    const runs = [
      await paperRun(['--interval', '1m']),
      await paperRun(['--interval', '1m', '--candle-poll-ms', '500']),
      await paperRun(['--interval', '1d', '--candle-poll-ms', '500']),
    ];
    const [usual = 0, fast = 0, daily = 0] = await countOverWindow(runs);
    const counts = `default: ${usual}, 500 ms: ${fast}, daily at 500 ms: ${daily}`;
    // the default spaces a symbol's polls at least 5 s apart: at most 3 in 12 s (5 leaves room for
    // a window that ends late on a loaded machine)
    expect(usual, counts).toBeLessThanOrEqual(5);
    // every 500 ms is about 24 in 12 s; a third of that on a loaded machine is still clearly more
    expect(fast, counts).toBeGreaterThanOrEqual(8);
    expect(fast, counts).toBeGreaterThan(2 * usual);
    // the daily default (60 s) allows at most 1 in 12 s
    expect(daily, counts).toBeGreaterThanOrEqual(8);
  }, 240_000);

  it("keeps to the broker's 5 candle requests a second when the symbols' polls ask for more", async () => {
    // three symbols every 250 ms ask for 12 candle requests a second
    const run = await paperRun(['--interval', '1m', '--candle-poll-ms', '250'], '005930,000660,035420');
    const [count = 0] = await countOverWindow([run]);
    // the poll scheduler shares the group's 5 a second among them: the simulator, whose token
    // buckets answer 429 to any request past its limits, answered none
    expect(run.sim.counters().rateLimited, `${count} candle requests`).toBe(0);
    // still clearly faster than the default's (3 symbols every 5 s: at most 9 in 12 s)
    expect(count).toBeGreaterThanOrEqual(20);
  }, 240_000);

  it('exits 2 naming the flag and what it expects for 0, -1 and abc, before anything runs', async () => {
    const outcomes = await Promise.all(
      ['0', '-1', 'abc'].map((value) =>
        hogaToEnd(['run', strategy, '--mode', 'paper', '--candle-poll-ms', value], process.env).then((o) => ({
          value,
          ...o,
        })),
      ),
    );
    for (const { value, out, code } of outcomes) {
      expect(code, out).toBe(2);
      expect(out).toContain(`'--candle-poll-ms <ms>' argument '${value}' is invalid`);
      expect(out).toContain(
        `expected whole milliseconds from 250 to 3600000, found "${value}" (the floor: the broker allows 5 candle requests a second)`,
      );
      expect(out).not.toContain('unexpected error');
      expect(out).not.toMatch(/\n\s+at /);
    }
  }, 240_000);
});
