/**
 * Generated bad input from a strategy, in a backtest: every call of the context (in `onStart`,
 * `onBar`, `onTimer` and `onStop`) with arbitrary values (NaN, Infinity, -0, fractions, strings,
 * Decimals, BigInts, undefined, null, wrong shapes, cycles, unknown symbols, unknown and ended order
 * ids, bad timers, non-JSON state, cyclic log arguments) either works as documented or throws a
 * typed error naming the value. Caught, the run goes on to its end; left to stop the hook, the run
 * fails with `strategy <id> threw in <hook>: <that message>`. Either way no order goes out with a
 * quantity or price that is not a positive finite number, and the trades are the fills told.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars, recordingLogger } from '../backtest/backtest-fixture.test-helper.js';
import { StrategyHookError } from '../engine-error.js';
import { type CallOutcome, FuzzCalls, fuzzPlanArb } from './ctx-fuzz.test-helper.js';
import { misreturned, misthrown } from './ctx-fuzz-checks.test-helper.js';

const BARS = minuteBars('005930', [70_000, 70_100, 70_200, 70_000, 69_900]);

/** The outcomes that break the rule, shown. */
function misthrownOf(outcomes: readonly CallOutcome[]): (readonly [string, string])[] {
  return outcomes.flatMap((o) => {
    const why = misthrown(o) ?? misreturned(o);
    return why === null ? [] : [[fc.stringify(o.call), why] as const];
  });
}

/** The rule's checks that hold however the run ended: orders sent whole, trades = fills told. */
function checkOrdersAndTrades(trades: number): void {
  for (const e of FuzzCalls.events) {
    if (e.type !== 'OrderSubmitted') continue;
    const intent = e.intent as {
      readonly quantity?: { isFinite(): boolean; isPositive(): boolean };
      readonly price?: { isFinite(): boolean; isPositive(): boolean };
    };
    for (const figure of [intent.quantity, intent.price]) {
      if (figure !== undefined)
        expect(figure.isFinite() && figure.isPositive(), `order ${e.clientOrderId}`).toBe(true);
    }
  }
  const fills = FuzzCalls.events.filter((e) => e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled');
  expect(trades).toBe(fills.length);
}

describe('a strategy feeding its context generated bad values (backtest)', () => {
  it('caught: a typed error naming the value or a documented answer; the run completes', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzPlanArb('005930', 70_000, 12), async (plan) => {
        FuzzCalls.reset(plan, '005930');
        // a logger that writes (a silent one would not serialise what ctx.log is given)
        const { logger } = recordingLogger('info');
        const { outcome, db } = await backtestBars([{ strategyClass: FuzzCalls, id: 'Fuzz' }], BARS, {
          logger,
        });
        db.close();
        expect(outcome.failure?.message ?? null).toBeNull();
        expect(outcome.status).toBe('completed');
        const calls = plan.onStart.length + plan.onBar.length + plan.onTimer.length + plan.onStop.length;
        expect(FuzzCalls.outcomes).toHaveLength(calls);
        expect(misthrownOf(FuzzCalls.outcomes)).toEqual([]);
        checkOrdersAndTrades(outcome.trades.length);
      }),
      { seed: 20261130, numRuns: 150, endOnFailure: true },
    );
  }, 60_000);

  it('uncaught: the first call that throws stops the run with the documented message', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzPlanArb('005930', 70_000, 6), async (plan) => {
        FuzzCalls.reset(plan, '005930', true);
        const { outcome, db } = await backtestBars([{ strategyClass: FuzzCalls, id: 'Fuzz' }], BARS);
        db.close();
        const first = FuzzCalls.outcomes.find((o) => 'threw' in o);
        expect(misthrownOf(FuzzCalls.outcomes)).toEqual([]);
        checkOrdersAndTrades(outcome.trades.length);
        if (first === undefined) {
          expect(outcome.status).toBe('completed');
          return;
        }
        expect(outcome.status).toBe('failed');
        expect(outcome.failure).toBeInstanceOf(StrategyHookError);
        expect(outcome.failure?.message).toMatch(/^strategy Fuzz threw in on(Start|Bar|Timer|Stop): /);
        expect(outcome.failure?.message).toContain((first.threw as Error).message);
      }),
      { seed: 20261130, numRuns: 100, endOnFailure: true },
    );
  }, 60_000);
});
