/**
 * In a backtest of two strategies, the KR opposite-side rule is the account's, as the broker's is:
 * one strategy's buy of 005930 is denied `opposite-pending-order-exists` while the other's sell of
 * it works, and the denial names whose order it is, as paper and live name it (the refused
 * strategy sees only its own orders). Before, `An open SELL order on 005930 exists: bt-2` alone.
 * The real `hoga backtest` as a child process over the simulator's daily candles, its stored
 * orders read with `hoga db orders`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SimulatorHandle, startSimulator } from '@hoga/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hoga, simFlags } from '../hoga-process.test-helper.js';
import type { BacktestJson } from './backtest-report.js';
import { hogaBacktest } from './backtest-runs.test-helper.js';

/** Places its config's orders on its n-th bar of 005930. */
const STRATEGY = `import type { Bar } from '@hoga/core';
import { Strategy } from '@hoga/engine';

export default class Plan extends Strategy<{ orders: { bar: number; side: 'BUY' | 'SELL'; quantity: number; price?: number }[] }> {
  private n = 0;
  override onBar(bar: Bar): void {
    this.n += 1;
    for (const o of this.config.orders) {
      if (o.bar === this.n) this.ctx.submit({ symbol: bar.symbol, side: o.side, quantity: o.quantity, price: o.price });
    }
  }
}
`;

let sim: SimulatorHandle;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'hoga-backtest-opposite-'));
  writeFileSync(join(dir, 'plan.ts'), STRATEGY);
  // a: buys 10, then rests a sell of them well above the market; b: a limit buy below it meanwhile
  writeFileSync(
    join(dir, 'a.json'),
    JSON.stringify({
      orders: [
        { bar: 1, side: 'BUY', quantity: 10 },
        { bar: 3, side: 'SELL', quantity: 10, price: 60_000 },
      ],
    }),
  );
  writeFileSync(
    join(dir, 'b.json'),
    JSON.stringify({ orders: [{ bar: 3, side: 'BUY', quantity: 1, price: 50_000 }] }),
  );
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hoga backtest of two strategies on one KR stock', () => {
  it("names the other strategy's open order in the opposite-side denial", async () => {
    const db = join(dir, 'hoga.sqlite');
    const plan = join(dir, 'plan.ts');
    const run = await hogaBacktest([
      `${plan}:a`,
      `${plan}:b`,
      ...['--config', join(dir, 'a.json'), '--config', join(dir, 'b.json')],
      ...['--symbols', '005930', '--interval', '1d', '--from', '2025-01-02', '--to', '2025-01-10', '--json'],
      ...simFlags(sim.url),
      ...['--db', db],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { runId } = JSON.parse(run.stdout) as BacktestJson;
    const orders = await hoga(['db', 'orders', '--db', db, '--mode', 'backtest', '--run', runId, '--json']);
    expect(orders.code, orders.err).toBe(0);
    const listed = JSON.parse(orders.out) as { strategyId: string; state: string; reason: string | null }[];
    const denied = listed.filter((o) => o.state === 'DENIED');
    expect(denied.map((o) => o.strategyId)).toEqual(['b']);
    expect(denied[0]?.reason).toMatch(
      /^opposite-pending-order-exists: An open SELL order on 005930 exists: \S+, strategy a's \(the broker takes one side at a time on a KR stock, for the whole account\)$/,
    );
  }, 120_000);
});
