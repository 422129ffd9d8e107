/**
 * What the SIGKILL tests of `hoga run --mode paper` share: the run as a child process on a
 * session's simulator and store (`crash-plan.ts`, one strategy per plan), its kill, and what the
 * store and the strategies' logs hold afterwards.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from '@hoga/core';
import { expect } from 'vitest';
import { type Heard, type Plan, type Session, storeRows } from './run-killed.test-helper.js';
import { type Running, start } from './run-process.test-helper.js';

/** The runs started: each test ends them (`afterEach`). */
export const runs: Running[] = [];

/** `hoga run <crash-plan> --mode paper` on the session's simulator and store, one strategy per plan. */
export function paper(
  s: Session,
  n: number,
  plans: Record<string, Plan>,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Running {
  const args: string[] = [];
  for (const [id, plan] of Object.entries(plans)) {
    const config = join(s.dir, `paper-${n}-${id}.json`);
    writeFileSync(config, JSON.stringify({ log: logOf(s, id), ...plan }));
    args.push(id === 'CrashPlan' ? PLAN_FILE : `${PLAN_FILE}:${id}`, '--config', config);
  }
  const r = start(
    [
      'run',
      ...args,
      '--mode',
      'paper',
      '--symbols',
      'ZOM,AAPL',
      '--poll-ms',
      '200',
      '--status-every',
      '1',
      ...extra,
    ],
    { ...s.environment, ...env },
  );
  runs.push(r);
  return r;
}

export const PLAN_FILE = join(import.meta.dirname, '../../test/fixtures/crash-plan.ts');

export function logOf(s: Session, id: string): string {
  return id === 'CrashPlan' ? s.log : join(s.dir, `heard-${id}.jsonl`);
}

export async function kill(r: Running): Promise<void> {
  r.child.kill('SIGKILL');
  expect(await r.exited).toBeNull();
}

export interface FillRow {
  readonly client_order_id: string;
  readonly strategy_id: string;
  readonly quantity: string;
  readonly price: string;
  readonly commission: string;
}

export function paperFills(s: Session): FillRow[] {
  return storeRows<FillRow>(
    s,
    `SELECT o.client_order_id, o.strategy_id, f.quantity, f.price, f.commission
       FROM fills f JOIN orders o ON o.id = f.order_id WHERE o.mode = 'paper' ORDER BY f.id`,
  );
}

/** What the strategy `CrashPlan` keeps in `ctx.state` under `placed` (tag → order id). */
export function stateOf(s: Session): unknown[] {
  return storeRows<{ value: string }>(
    s,
    "SELECT value FROM strategy_state WHERE strategy_id = 'paper/CrashPlan' AND key = 'placed'",
  ).map((r) => JSON.parse(r.value));
}

/** The stored state of the order `id` (undefined: no row). */
export function stateOfOrder(s: Session, id: string): string | undefined {
  return storeRows<{ state: string }>(s, 'SELECT state FROM orders WHERE client_order_id = ?', id)[0]?.state;
}

/** The paper account's USD cash as the store holds it (its ledger, which holds no reservations). */
export function ledgerUsd(s: Session): string | undefined {
  const [row] = storeRows<{ value: string }>(
    s,
    "SELECT value FROM strategy_state WHERE strategy_id = 'paper/_account' AND key = 'ledger'",
  );
  return row === undefined ? undefined : (JSON.parse(row.value) as { cash: { USD: string } }).cash.USD;
}

/** The last `start` line the strategy wrote. */
export function lastStart(heard: Heard[]): Heard | undefined {
  return heard.filter((h) => h.hook === 'start').at(-1);
}

export function noOrderRequests(s: Session): void {
  const c = s.sim.counters();
  expect(c.requestsByGroup.ORDER ?? 0).toBe(0);
  expect(c.ordersCreated).toBe(0);
}

export function sum(values: readonly string[]): string {
  return values.reduce((t, v) => t.plus(v), new Decimal(0)).toFixed();
}
