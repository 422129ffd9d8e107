/**
 * Generated backtests stored in a SQLite file (the journal written by its worker thread): after
 * the run, the file opened again holds the run completed, its trades row for row as the run
 * reported them, its equity curve, and one order summary per order the strategies placed, with
 * that order's fills (as the trades say them), its strategy and its last event (as the strategy was
 * told it). Scenarios as in `backtest-generated.test.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDecimal } from '@hoga/core';
import { backtestOrderIdPrefix, HogaDatabase, type OrderSummary, RunRepository } from '@hoga/store';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tradeRow } from './backtest-fixture.test-helper.js';
import { scenarioArb } from './backtest-generated.test-helper.js';
import { runScenario } from './backtest-generated-run.test-helper.js';
import type { BacktestTrade } from './run-backtest.js';

const dir = mkdtempSync(join(tmpdir(), 'hoga-bt-generated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = formatDecimal;
/** A fill as an order summary keeps it: `[tsEvent, quantity, price, commission, tax]`. */
const fillOf = (t: BacktestTrade) => [
  t.time,
  text(t.quantity),
  text(t.price),
  text(t.commission),
  text(t.tax),
];
describe('generated backtests stored in a SQLite file', () => {
  it(
    'store the run, its trades and equity curve, and a summary per order with its fills and end',
    async () => {
      let n = 0;
      let summaries = 0;
      await fc.assert(
        fc.asyncProperty(scenarioArb('1d', 30), async (s) => {
          const runId = `gen-${++n}`;
          const file = join(dir, `${runId}.sqlite`);
          const db = HogaDatabase.open(file);
          let run: Awaited<ReturnType<typeof runScenario>>;
          try {
            run = await runScenario(s, {
              db,
              runId,
              record: {
                strategyPath: 'generated.ts',
                strategyName: 'Scheduled',
                params: {},
                startedAt: 0,
                endedAt: () => 0,
              },
            });
          } finally {
            db.close();
          }
          const { outcome, strategies } = run;
          expect(outcome.failure).toBeNull();
          const again = HogaDatabase.open(file);
          try {
            const runs = new RunRepository(again.connection);
            expect(runs.get(runId)?.status).toBe('completed');
            expect(runs.trades(runId).map(tradeRow)).toEqual(outcome.trades.map(tradeRow));
            expect(runs.equity(runId)).toEqual(
              outcome.equity.map((p) => ({ time: p.time, equity: p.equity })),
            );
            const stored = new Map<string, OrderSummary>();
            for (const e of again.journal.orderSummaries('backtest', backtestOrderIdPrefix(runId))) {
              expect(stored.has(e.clientOrderId as string), `one summary of ${e.clientOrderId}`).toBe(false);
              stored.set(e.clientOrderId as string, e.payload as OrderSummary);
            }
            summaries += stored.size;
            const placed = strategies.flatMap((st) =>
              [...st.orders].map(([id, o]) => ({ id, o, strategyId: st.id })),
            );
            expect([...stored.keys()].sort()).toEqual(placed.map((p) => p.id).sort());
            for (const { id, o, strategyId } of placed) {
              const summary = stored.get(id) as OrderSummary;
              expect(summary.strategyId, id).toBe(strategyId);
              expect(summary.last, id).toBe(o.last);
              expect(summary.fills, id).toEqual(
                outcome.trades.filter((t) => t.clientOrderId === id).map(fillOf),
              );
            }
          } finally {
            again.close();
          }
        }),
        { numRuns: Number(process.env.HOGA_GENERATED_RUNS ?? 12) },
      );
      expect(summaries).toBeGreaterThan(100);
    },
    Number(process.env.HOGA_GENERATED_TIMEOUT_MS ?? 120_000),
  );
});
