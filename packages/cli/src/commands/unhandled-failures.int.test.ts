/**
 * A strategy that fails outside the engine's call of its hooks (a promise it leaves rejected with
 * no handler, a throw in a `setTimeout` callback it set) stops the run as a hook's throw does:
 * `hoga backtest` (the real bin, a child process, candles from a simulator) and `hoga run --mode
 * paper` (a child process against the simulator) say which strategy and what, exit 1, and the
 * stored run is `failed` with what happened so far. Before, Node ended the process with a raw
 * stack and the run stayed `running`, with no statistics, equity or trades.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { RunRepository } from '@hoga/store';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hoga, REPO_ROOT, simFlags } from '../hoga-process.test-helper.js';
import { closeSims, env, REST_ARGS, readStore, setup, start } from './run-process.test-helper.js';

const FIXTURE = join(REPO_ROOT, 'packages', 'cli', 'test', 'fixtures', 'fails-outside-hooks.ts');
/** Where the fixture's helper throws, as the message names it (relative to the repository's root). */
const AT_CHECK = '(at packages/cli/test/fixtures/fails-outside-hooks.ts:31:11)';
const AT_TIMER = '(at packages/cli/test/fixtures/fails-outside-hooks.ts:35:11)';

/** What Node prints when it ends the process at an unhandled rejection or exception. */
const NODE_CRASH = /^\s+at |Node\.js v\d+/m;

describe('hoga backtest with a strategy that fails outside its hooks', () => {
  let sim: SimulatorHandle;
  let dir: string;
  let db: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'hoga-unhandled-'));
    db = join(dir, 'hoga.sqlite');
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `hoga backtest` of the fixture failing `how`, daily bars of 005930 in Q1 2025, from the repository's root. */
  async function backtest(how: string): Promise<{ code: number | null; err: string; runId: string }> {
    const config = join(dir, `${how}.json`);
    writeFileSync(config, JSON.stringify({ how }));
    const result = await hoga(
      [
        'backtest',
        FIXTURE,
        '--symbols',
        '005930',
        '--interval',
        '1d',
        '--from',
        '2025-01-06',
        '--to',
        '2025-03-31',
        '--config',
        config,
        ...simFlags(sim.url),
        '--db',
        db,
      ],
      { cwd: REPO_ROOT, killAfterMs: 120_000 },
    );
    return {
      code: result.code,
      err: result.err,
      runId: /stored as ([0-9a-f-]{36})/.exec(result.err)?.[1] ?? '',
    };
  }

  it('an unhandled promise rejection: names the strategy and where, exit 1, the run stored failed with its trade, equity and statistics', async () => {
    const { code, err, runId } = await backtest('rejection');
    expect(err).not.toMatch(NODE_CRASH);
    expect(code, err).toBe(1);
    expect(err).toContain(
      `hoga: unhandled promise rejection in strategy FailsOutsideHooks: cannot check 005930 ${AT_CHECK}; the run stopped after 3 bars`,
    );
    readStore(db, (database) => {
      const runs = new RunRepository(database.connection);
      const run = runs.get(runId);
      expect(run).toMatchObject({ status: 'failed', strategyName: 'FailsOutsideHooks' });
      expect(run?.endedAt).not.toBeNull();
      // Node reports the rejection at the next turn of its event loop: the loop takes one before
      // the next day's bar, so the run ends with the day it was left on
      expect(run?.stats).toMatchObject({
        bars: 3,
        trades: 1,
        failure: expect.stringContaining('unhandled promise rejection in strategy FailsOutsideHooks'),
      });
      // the buy of the first bar, filled at the second's open
      expect(runs.trades(runId).map((t) => [t.side, t.quantity.toFixed()])).toEqual([['BUY', '3']]);
      // the start, and the close of each of its 3 days
      expect(runs.equity(runId)).toHaveLength(4);
    });
  }, 120_000);

  it('a rejection with no stack to trace: says it is traced to no strategy, and stores the run failed', async () => {
    const { code, err, runId } = await backtest('non-error');
    expect(err).not.toMatch(NODE_CRASH);
    expect(code, err).toBe(1);
    expect(err).toContain(
      "hoga: unhandled promise rejection not traced to a strategy (no frame of its stack is in a strategy's file): no error object for 005930;",
    );
    const run = readStore(db, (database) => new RunRepository(database.connection).get(runId));
    expect(run).toMatchObject({ status: 'failed' });
  }, 120_000);
});

describe('hoga run --mode paper with a strategy that fails outside its hooks', () => {
  afterEach(closeSims);

  /** Runs the fixture failing `how` in paper until it exits (killed after 60 s); its output and exit code. */
  async function paper(how: string): Promise<{ code: number | string | null; out: string; db: string }> {
    const { sim, db } = await setup();
    const config = join(dirname(db), 'fails.json');
    writeFileSync(config, JSON.stringify({ how }));
    const r = start(['run', FIXTURE, '--mode', 'paper', '--config', config, ...REST_ARGS], env(sim, db));
    const code = await Promise.race([
      r.exited,
      new Promise<string>((done) => setTimeout(() => done('still running after 60 s'), 60_000)),
    ]);
    if (code === 'still running after 60 s') r.child.kill('SIGTERM');
    return { code, out: r.out.join(''), db };
  }

  /** The paper run's stored sessions (strategy, status) and the trades of each. */
  function stored(db: string): { runs: [string, string][]; trades: [string, string][][] } {
    return readStore(db, (d) => {
      const runs = new RunRepository(d.connection);
      const sessions = runs.list({ kind: 'paper' });
      return {
        runs: sessions.map((r) => [r.strategyName, r.status]),
        trades: sessions.map((r) => runs.trades(r.runId).map((t) => [t.side, t.quantity.toFixed()])),
      };
    });
  }

  it.each([
    [
      'rejection',
      `unhandled promise rejection in strategy FailsOutsideHooks: cannot check 005930 ${AT_CHECK}`,
    ],
    [
      // an exception thrown in a setTimeout callback the strategy set
      'timer',
      `uncaught exception in strategy FailsOutsideHooks: timer of 005930 went off ${AT_TIMER}`,
    ],
  ])(
    '%s: stops the run as a failed hook does: said, exit 1, its fill and the failed session stored',
    async (how, message) => {
      const { code, out, db } = await paper(how);
      expect(out).not.toMatch(NODE_CRASH);
      expect(code, out).toBe(1);
      expect(out).toContain(`hoga run: ${message}; stopping the run`);
      expect(out).toMatch(/stopping…\n[\s\S]*stopped: strategies stopped, store flushed/);
      expect(stored(db)).toEqual({ runs: [['FailsOutsideHooks', 'failed']], trades: [[['BUY', '3']]] });
    },
    90_000,
  );
});
