/**
 * `hoga db runs --delete` and `--delete-backtests --before`: real `hoga backtest` runs against the
 * embedded simulator in one SQLite file, beside a paper run with its orders, fills and journal, a
 * live order, a cached token and a live strategy's state; every `hoga` a child process. A deletion
 * removes exactly the backtest's rows (every table compared before and after), refuses paper runs
 * and unknown ids without touching anything, and `--vacuum` gives the space back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal, formatKst } from '@hoga/core';
import { backtestOrderIdPrefix, HogaDatabase, RunRepository } from '@hoga/store';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, tempHome } from '../../hoga-process.test-helper.js';
import { SMA } from '../backtest-runs.test-helper.js';

let cwd: string;
let home: string;
let file: string;
const backtests: string[] = [];
const PAPER = 'paper-run-0001';

/** `hoga <args>` in the test's directory. */
const run = (args: string[]) => hoga(args, { cwd, env: { HOME: home } });

/** Every row of every table, as text, by table. */
function dump(): Map<string, string[]> {
  const db = HogaDatabase.open(file, { migrate: false, readonly: true });
  try {
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
  } finally {
    db.close();
  }
}

/** The rows of `before` that `after` lacks, by table (tables with none left out). */
function removed(before: Map<string, string[]>, after: Map<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [table, rows] of before) {
    const left = new Set(after.get(table));
    const gone = rows.filter((r) => !left.has(r));
    expect(after.get(table)?.length, table).toBe(rows.length - gone.length);
    if (gone.length > 0) out.set(table, gone);
  }
  return out;
}

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'hoga-db-runs-delete-'));
  home = tempHome();
  file = join(cwd, 'data', 'hoga-sim.sqlite');
  for (const to of ['2025-03-31', '2025-06-30']) {
    const bt = await run([
      'backtest',
      SMA,
      ...`--symbols 005930 --interval 1d --from 2025-01-01 --to ${to} --json`.split(' '),
    ]);
    expect(bt.code, bt.err).toBe(0);
    backtests.push((JSON.parse(bt.out) as { runId: string }).runId);
  }
  // what a paper session, a live order and the broker token leave in the same file
  const db = HogaDatabase.open(file);
  const t = Date.parse('2026-11-23T09:00:00+09:00');
  const runs = new RunRepository(db.connection);
  runs.start({
    runId: PAPER,
    kind: 'paper',
    strategyPath: null,
    strategyName: 'SmaCrossover',
    params: {},
    startedAt: t,
  });
  // a session stopped (one still running on the file refuses --vacuum: db-runs-vacuum-live)
  runs.finish(PAPER, { status: 'stopped', endedAt: t + 60_000, stats: null });
  const order = (id: string, mode: 'paper' | 'live') =>
    db.orders.recordIntent({
      clientOrderId: id,
      strategyId: 'SmaCrossover',
      mode,
      symbol: '005930',
      market: 'KR',
      currency: 'KRW',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'DAY',
      price: new Decimal('72100'),
      quantity: new Decimal('1'),
      amount: null,
      createdAt: t,
    });
  const paper = order('pp-1', 'paper');
  order('lv-1', 'live');
  db.fills.record({
    orderId: paper.id,
    brokerOrderId: 'P-1',
    symbol: '005930',
    side: 'BUY',
    quantity: new Decimal('1'),
    price: new Decimal('72100'),
    commission: new Decimal('10'),
    commissionCurrency: 'KRW',
    filledAt: t + 1,
    cumulativeQuantity: new Decimal('1'),
  });
  db.connection
    .prepare(
      "INSERT INTO token_cache (key, access_token, token_type, expires_at, issued_at) VALUES ('k', 'tok', 'Bearer', ?, ?)",
    )
    .run(t + 86_400_000, t);
  db.strategyState.set('paper/SmaCrossover', 'n', 1);
  db.strategyState.set('SmaCrossover', 'n', 2);
  // a strategy's persistent state in each backtest (the reference strategy keeps none)
  for (const id of backtests) db.strategyState.set(`backtest/${id}/SmaCrossover`, 'n', 3);
  db.close();
}, 180_000);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('hoga db runs --delete', () => {
  it('refuses a paper run and an unknown id with exit 2 and 1, deleting nothing', async () => {
    const before = dump();
    const paper = await run(['db', 'runs', '--db', file, '--delete', `${backtests[0]},${PAPER}`]);
    expect(paper.code).toBe(2);
    expect(paper.err).toContain(`run ${PAPER} is a paper run: its orders and fills are the account's record`);
    expect(paper.err).toContain('nothing was deleted');
    const unknown = await run(['db', 'runs', '--db', file, '--delete', `${backtests[0]},no-such-run`]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(`no run no-such-run in ${file}`);
    expect(dump()).toEqual(before);
  });

  it("removes one backtest's run, trades, equity, journal entries and strategy state, and nothing else", async () => {
    const [first, second] = backtests as [string, string];
    const before = dump();
    const del = await run(['db', 'runs', '--db', file, '--delete', first, '--json']);
    expect(del.code, del.err).toBe(0);
    const gone = removed(before, dump());
    // every row gone is the run's: its id, its orders' ids or its state's owner
    const head = `${backtestOrderIdPrefix(first)}-`;
    for (const [table, rows] of gone) {
      for (const r of rows) expect(r.includes(first) || r.includes(head), `${table}: ${r}`).toBe(true);
    }
    expect([...gone.keys()].sort()).toEqual([
      'journal',
      'run_equity',
      'run_trades',
      'runs',
      'strategy_state',
    ]);
    // and every row of the run is gone
    for (const [table, rows] of before) {
      for (const r of rows)
        if (r.includes(first) || r.includes(head)) expect(gone.get(table), table).toContain(r);
    }
    const report = JSON.parse(del.out) as { deleted: Record<string, unknown>[] };
    expect(report.deleted).toEqual([
      {
        runId: first,
        runs: 1,
        runTrades: gone.get('run_trades')?.length,
        runEquity: gone.get('run_equity')?.length,
        journal: gone.get('journal')?.length,
        strategyState: 1,
        journalSharedWith: [],
      },
    ]);
    expect(report.deleted[0]?.runTrades).toBeGreaterThan(0);
    // the other backtest is whole: listed, with its orders
    const orders = await run(['db', 'orders', '--db', file, '--mode', 'backtest', '--run', second, '--json']);
    expect(JSON.parse(orders.out)).not.toEqual([]);
    const gone1 = await run(['db', 'runs', '--db', file, '--id', first]);
    expect(gone1.code).toBe(1);
  });

  it('prunes the backtests started before a date, never the paper run, and --vacuum shrinks the file', async () => {
    const tomorrow = formatKst(DateTime.now().plus({ days: 1 })).slice(0, 10);
    const before = dump();
    const none = await run(['db', 'runs', '--db', file, '--delete-backtests', '--before', '2000-01-01']);
    expect([none.code, none.out]).toEqual([
      0,
      `no backtest in ${file} started before 2000-01-01 (KST); nothing deleted\n`,
    ]);
    const prune = await run([
      'db',
      'runs',
      '--db',
      file,
      '--delete-backtests',
      '--before',
      tomorrow,
      '--vacuum',
    ]);
    expect(prune.code, prune.err).toBe(0);
    expect(prune.out).toMatch(new RegExp(`^deleted backtest ${backtests[1]}: 1 run, \\d+ trades, `, 'm'));
    expect(prune.out).toMatch(/^vacuumed .*: \d+ KB → \d+ KB$/m);
    const [, from, to] = /: (\d+) KB → (\d+) KB/.exec(prune.out) ?? [];
    expect(Number(to)).toBeLessThan(Number(from));
    const gone = removed(before, dump());
    expect(gone.get('runs')).toEqual([expect.stringContaining(backtests[1] as string)]);
    const list = await run(['db', 'runs', '--db', file, '--json']);
    expect((JSON.parse(list.out) as { runId: string }[]).map((r) => r.runId)).toEqual([PAPER]);
  });

  it('says what is wrong with the flags, exit 2', async () => {
    const cases: [string[], string][] = [
      [['--delete-backtests'], '--delete-backtests needs --before <yyyy-mm-dd>'],
      [['--before', '2026-11-01'], '--before goes with --delete-backtests'],
      [['--delete', 'x', '--delete-backtests', '--before', '2026-11-01'], 'give one of them'],
      [['--delete', 'x', '--kind', 'backtest'], 'take no --id, --kind or --csv'],
      [['--delete-backtests', '--before', '2026-13-01'], '--before: expected a date like 2026-11-01'],
    ];
    for (const [args, message] of cases) {
      const r = await run(['db', 'runs', '--db', file, ...args]);
      expect([r.code, r.err], args.join(' ')).toEqual([2, expect.stringContaining(message)]);
    }
  });
});
