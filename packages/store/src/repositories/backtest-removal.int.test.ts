import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { Decimal } from '@hoga/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTemp, sampleFill, sampleOrder, T0 } from '../../test/support.js';
import type { HogaDatabase } from '../hoga-database.js';
import {
  backtestRunsStartedBefore,
  liveBacktestProcess,
  removeBacktestRun,
  removeBacktestRuns,
} from './backtest-removal.js';
import { backtestOrderIdPrefix } from './journal-repository.js';
import { processStart } from './run-process.js';
import { type NewRun, RunRepository } from './run-repository.js';

let db: HogaDatabase;
let cleanup: () => void;
beforeEach(() => {
  ({ db, cleanup } = openTemp());
});
afterEach(() => cleanup());

const DAY = 86_400_000;
// A and C share their first 12 hex digits (the journal's order-id head); B does not
const A = 'aaaaaaaa-aaaa-4aaa-8aaa-000000000001';
const B = 'bbbbbbbb-bbbb-4bbb-8bbb-000000000002';
const C = 'aaaaaaaa-aaaa-4ccc-8ccc-000000000003';
const PAPER = 'cccccccc-cccc-4ccc-8ccc-000000000004';

function run(runId: string, kind: NewRun['kind'], startedAt: number): NewRun {
  return { runId, kind, strategyPath: null, strategyName: 'sma', params: {}, startedAt };
}

/** A run with two trades, three equity points, two order summaries and one strategy state key. */
function seedRun(runId: string, kind: NewRun['kind'], startedAt: number): void {
  const runs = new RunRepository(db.connection);
  const trade = {
    time: startedAt,
    strategyId: 'sma',
    symbol: '005930',
    side: 'BUY' as const,
    quantity: new Decimal(1),
    price: new Decimal(72100),
    currency: 'KRW',
    commission: new Decimal(0),
    tax: new Decimal(0),
  };
  runs.record(
    run(runId, kind, startedAt),
    { status: 'completed', endedAt: startedAt + 1, stats: {} },
    [trade, trade],
    [0, 1, 2].map((i) => ({ time: startedAt + i, equity: 1e8 })),
  );
  const head = kind === 'backtest' ? backtestOrderIdPrefix(runId) : `${kind}${runId.slice(0, 4)}`;
  for (const n of [1, 2]) {
    db.journal.append({
      type: 'OrderSummary',
      tsEvent: startedAt,
      tsInit: startedAt,
      mode: kind,
      strategyId: 'sma',
      clientOrderId: `${head}-${n}`,
      payload: { clientOrderId: `${head}-${n}` },
    });
  }
  const owner = kind === 'backtest' ? `backtest/${runId}/sma` : `${kind}/sma`;
  db.strategyState.set(owner, 'position', { n: 1 });
}

/** Every row of every table, as text, by table. */
function dump(): Map<string, string[]> {
  const tables = db.connection
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  return new Map(
    tables.map((t) => [
      t,
      (db.connection.prepare(`SELECT * FROM "${t}"`).all() as object[]).map((r) => JSON.stringify(r)),
    ]),
  );
}

beforeEach(() => {
  seedRun(A, 'backtest', T0 - 10 * DAY);
  seedRun(B, 'backtest', T0 - 5 * DAY);
  seedRun(PAPER, 'paper', T0 - 20 * DAY);
  // the paper account's record: an order with its broker id and fill, and a live order
  const paper = db.orders.recordIntent(sampleOrder('paper-1'));
  db.orders.linkBrokerOrderId('paper-1', 'B-1', 'create', T0);
  db.fills.record(sampleFill(paper.id, '10', '10'));
  db.orders.recordIntent(sampleOrder('live-1', { mode: 'live' }));
  db.strategyState.set('sma', 'position', { live: true });
});

describe('removeBacktestRun', () => {
  it("removes the run's row, trades, equity, journal entries and strategy state, and no other row", () => {
    const before = dump();
    const result = removeBacktestRun(db.connection, A);
    expect(result).toEqual({
      outcome: 'removed',
      runId: A,
      removed: { runs: 1, runTrades: 2, runEquity: 3, journal: 2, strategyState: 1 },
      journalSharedWith: [],
    });
    const after = dump();
    for (const [table, rows] of before) {
      const gone = rows.filter((r) => !(after.get(table) ?? []).includes(r));
      expect(after.get(table)?.length, table).toBe(rows.length - gone.length);
      // every row gone names the run (its id, its order ids or its state's owner)
      for (const r of gone) expect(r, table).toMatch(new RegExp(`${A}|${backtestOrderIdPrefix(A)}-`));
    }
    expect(new RunRepository(db.connection).get(B)).toBeDefined();
    expect(db.journal.forOrder(`${backtestOrderIdPrefix(B)}-1`)).toHaveLength(1);
    expect(db.strategyState.get(`backtest/${B}/sma`, 'position')).toEqual({ n: 1 });
    expect(db.orders.get('paper-1')?.mode).toBe('paper');
    expect(after.get('fills')).toHaveLength(1);
    expect(after.get('order_broker_ids')).toHaveLength(1);
  });

  it('refuses a paper run untouched, and says when a run is missing', () => {
    const before = dump();
    expect(removeBacktestRun(db.connection, PAPER)).toEqual({
      outcome: 'not-backtest',
      runId: PAPER,
      kind: 'paper',
    });
    expect(removeBacktestRun(db.connection, 'nope')).toEqual({ outcome: 'missing', runId: 'nope' });
    expect(dump()).toEqual(before);
  });

  it("keeps the journal entries while another stored backtest's order ids begin the same", () => {
    seedRun(C, 'backtest', T0 - 3 * DAY);
    expect(backtestOrderIdPrefix(C)).toBe(backtestOrderIdPrefix(A));
    const first = removeBacktestRun(db.connection, A);
    expect(first).toMatchObject({ removed: { runs: 1, journal: 0 }, journalSharedWith: [C] });
    // C's summaries were written under the same ids: all four stay until the last of the two goes
    expect(db.journal.forOrder(`${backtestOrderIdPrefix(C)}-1`)).toHaveLength(2);
    expect(removeBacktestRun(db.connection, C)).toMatchObject({
      removed: { runs: 1, journal: 4 },
      journalSharedWith: [],
    });
  });
});

describe('removeBacktestRun of a backtest still running', () => {
  /** A backtest stored as started (status `running`) by the given process, with a trade. */
  function started(runId: string, process?: NewRun['process']): void {
    const runs = new RunRepository(db.connection);
    runs.start({ ...run(runId, 'backtest', T0), ...(process === undefined ? {} : { process }) });
    runs.appendTrades(runId, [
      {
        time: T0,
        symbol: '005930',
        side: 'BUY',
        quantity: new Decimal(1),
        price: new Decimal(72100),
        currency: 'KRW',
        commission: new Decimal(0),
        tax: new Decimal(0),
      },
    ]);
  }
  /** A pid no process has any more: a child's, once it exited. */
  const gonePid = (): number => spawnSync(process.execPath, ['-e', '']).pid as number;

  it('keeps one whose process lives on this machine, untouched', () => {
    // this process, and another that lives (the test runner's parent): with its start, and without
    // (a run stored before schema 12, or where there is no /proc: its pid alone is checked)
    const parent = { pid: process.ppid, host: hostname(), start: processStart(process.ppid) };
    started('run-here');
    started('run-parent', parent);
    started('run-parent-old', { pid: process.ppid, host: hostname() });
    const before = dump();
    expect(removeBacktestRuns(db.connection, ['run-here', 'run-parent', 'run-parent-old'])).toEqual([
      {
        outcome: 'running',
        runId: 'run-here',
        process: { pid: process.pid, host: hostname(), start: processStart(process.pid) },
      },
      { outcome: 'running', runId: 'run-parent', process: parent },
      { outcome: 'running', runId: 'run-parent-old', process: { ...parent, start: null } },
    ]);
    expect(liveBacktestProcess(db.connection, 'run-parent')).toEqual(parent);
    expect(dump()).toEqual(before);
  });

  it.runIf(existsSync('/proc/self/stat'))(
    'removes one whose pid another process holds now, started at another time (the pid given again)',
    () => {
      // the parent's pid, with this process's start: not the process that holds the pid
      started('run-reused', { pid: process.ppid, host: hostname(), start: processStart(process.pid) });
      // the parent's start under another boot: the machine restarted since
      const [, ticks] = (processStart(process.ppid) as string).split(':');
      started('run-rebooted', { pid: process.ppid, host: hostname(), start: `another-boot:${ticks}` });
      for (const id of ['run-reused', 'run-rebooted'])
        expect(liveBacktestProcess(db.connection, id), id).toBeNull();
      expect(removeBacktestRuns(db.connection, ['run-reused', 'run-rebooted']).map((r) => r.outcome)).toEqual(
        ['removed', 'removed'],
      );
    },
  );

  it("removes one whose process is gone (interrupted), another machine's, or one with no process recorded", () => {
    started('run-crashed', { pid: gonePid(), host: hostname() });
    started('run-elsewhere', { pid: process.pid, host: `not-${hostname()}` });
    started('run-unknown', null);
    for (const id of ['run-crashed', 'run-elsewhere', 'run-unknown'])
      expect(liveBacktestProcess(db.connection, id), id).toBeNull();
    expect(
      removeBacktestRuns(db.connection, ['run-crashed', 'run-elsewhere', 'run-unknown']).map((r) => [
        r.outcome,
        r.outcome === 'removed' ? r.removed.runTrades : null,
      ]),
    ).toEqual([
      ['removed', 1],
      ['removed', 1],
      ['removed', 1],
    ]);
  });

  it('removes one of this process once it ended', () => {
    started('run-ended');
    new RunRepository(db.connection).finish('run-ended', { status: 'completed', endedAt: T0 + 1, stats: {} });
    expect(liveBacktestProcess(db.connection, 'run-ended')).toBeNull();
    expect(removeBacktestRun(db.connection, 'run-ended')).toMatchObject({ outcome: 'removed' });
  });
});

describe('removeBacktestRuns', () => {
  it('removes several in order, each alone; two sharing order ids take their journal entries with the last', () => {
    seedRun(C, 'backtest', T0 - 3 * DAY);
    const results = removeBacktestRuns(db.connection, [A, PAPER, C, B, A]);
    expect(results.map((r) => r.outcome)).toEqual([
      'removed',
      'not-backtest',
      'removed',
      'removed',
      'missing',
    ]);
    expect(results[0]).toMatchObject({ removed: { journal: 0 }, journalSharedWith: [C] });
    expect(results[2]).toMatchObject({ removed: { journal: 4 }, journalSharedWith: [] });
    expect(results[3]).toMatchObject({ removed: { runs: 1, runTrades: 2, runEquity: 3, journal: 2 } });
    const left = dump();
    expect(left.get('runs')).toEqual([expect.stringContaining(PAPER)]);
    expect(left.get('journal')).toHaveLength(2);
    expect(left.get('run_trades')).toHaveLength(2);
  });
});

describe('backtestRunsStartedBefore', () => {
  it('lists the backtests started before a time, oldest first, never a paper run', () => {
    expect(backtestRunsStartedBefore(db.connection, T0)).toEqual([A, B]);
    expect(backtestRunsStartedBefore(db.connection, T0 - 5 * DAY)).toEqual([A]);
    expect(backtestRunsStartedBefore(db.connection, T0 - 30 * DAY)).toEqual([]);
  });
});
