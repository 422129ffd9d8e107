/**
 * `hoga risk` beside a running paper engine, as an operator uses it: the real `hoga run --mode paper`
 * against the simulator over HTTP, and `hoga risk` as other processes on the same SQLite file. A kill
 * switch a stopped run left past its end is reported as lapsed by `status` (which writes nothing),
 * and cleared by the engine itself on its first order; a halt set by hand denies the engine's next
 * order with the operator's reason, and a reset lets it trade again.
 */
import { join } from 'node:path';
import { VirtualClock } from '@hoga/core';
import { StoreTradingStatePersistence, TradingStateGateway } from '@hoga/engine';
import { HogaDatabase } from '@hoga/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSims,
  env,
  FAST,
  hogaToEnd as hoga,
  type Running,
  setup,
  start,
  until,
} from './run-process.test-helper.js';

afterEach(closeSims);

const buysEveryBar = join(import.meta.dirname, '../../test/fixtures/buys-every-bar.ts');
const RUN = [
  '--mode',
  'paper',
  '--symbols',
  '005930',
  '--interval',
  '1m',
  '--status-every',
  '2',
  '--candle-poll-ms',
  '250',
];

/** The store's `TradingStateChanged` events of a scope, oldest first (read while the engine runs). */
function changes(file: string, scope: string): { from: string; to: string; source: string }[] {
  const db = HogaDatabase.open(file, { readonly: true, migrate: false });
  try {
    return db.journal
      .readFrom(1)
      .filter((e) => e.type === 'TradingStateChanged' && (e.payload as { scope: string }).scope === scope)
      .map((e) => e.payload as { from: string; to: string; source: string });
  } finally {
    db.close();
  }
}

/** Whether the run's output shows `pattern` more than `times` times within `timeoutMs`. */
async function shownMoreThan(
  r: Running,
  pattern: RegExp,
  times: number,
  timeoutMs: number,
): Promise<boolean> {
  const count = () => r.out.join('').match(new RegExp(pattern, 'g'))?.length ?? 0;
  const end = performance.now() + timeoutMs;
  while (count() <= times && performance.now() < end) await new Promise((x) => setTimeout(x, 200));
  return count() > times;
}

describe('hoga risk beside a running paper engine', () => {
  it('status leaves a lapsed kill switch to the engine; a halt by hand denies its next order, a reset frees it', async () => {
    const { sim, db } = await setup(true, FAST);
    const environment = env(sim, db);
    // a paper kill switch of b1 a run stopped on 2020-01-01 left, its end long past
    const store = HogaDatabase.open(db);
    new TradingStateGateway(
      new VirtualClock(Date.parse('2020-01-01T13:00:00+09:00')),
      new StoreTradingStatePersistence(store, 'paper'),
    ).set(
      { kind: 'strategy', strategyId: 'b1' },
      'HALTED',
      'daily-loss',
      'daily loss 1,200,000 KRW reached the limit of 1,000,000 KRW',
      Date.parse('2020-01-02T08:00:00+09:00'),
    );
    store.close();

    const status = await hoga(['risk', 'status', '--mode', 'paper'], environment);
    expect(status.stdout).toMatch(
      /^risk: all ACTIVE\nlapsed \(no longer in force\): strategy:b1 HALTED \(daily-loss: /,
    );
    expect(changes(db, 'strategy:b1').map((c) => c.source)).toEqual(['daily-loss']);

    const r = start(['run', `${buysEveryBar}:b1`, ...RUN], environment);
    try {
      // the engine lapses the kill switch itself, journalled as the next trading day's, and trades
      expect(await until(r, / accepted /, 90_000)).toBe(true);
      expect(changes(db, 'strategy:b1').at(-1)).toMatchObject({
        from: 'HALTED',
        to: 'ACTIVE',
        source: 'new-trading-day',
      });

      const set = await hoga(
        ['risk', 'set', 'HALTED', '--strategy', 'b1', '--mode', 'paper', '--reason', 'operator: runaway'],
        environment,
      );
      expect(set.code).toBe(0);
      expect(
        await until(
          r,
          /denied [^\n]*risk-halted [^\n]*\(operator: runaway\)[^\n]*hoga risk reset --strategy b1 --mode paper/,
          90_000,
        ),
      ).toBe(true);
      // the run's status line names the halt and its reason too
      expect(
        await until(r, /status [^\n]*risk: strategy:b1 HALTED \(manual: operator: runaway\)/, 90_000),
      ).toBe(true);

      const accepted = r.out.join('').match(/ accepted /g)?.length ?? 0;
      const reset = await hoga(
        ['risk', 'reset', '--strategy', 'b1', '--mode', 'paper', '--json'],
        environment,
      );
      expect(reset.code).toBe(0);
      expect(JSON.parse(reset.stdout)).toMatchObject({
        reset: [{ kind: 'strategy', strategyId: 'b1' }],
        states: {},
      });
      // the engine reads the states again before its next order: b1 trades again
      expect(await shownMoreThan(r, / accepted /, accepted, 90_000)).toBe(true);
    } finally {
      r.child.kill('SIGINT');
      await r.exited;
    }
    expect(sim.counters().ordersCreated).toBe(0);
  }, 240_000);
});
