/**
 * Values found by the generated-input test of the context (`ctx-fuzz.test.ts`), each fixed: a
 * BigInt or a cyclic object where an interval or a symbol goes throws the engine's typed
 * `invalid-request` naming the call and the value (before, a bare `TypeError` from `JSON.stringify`:
 * `Do not know how to serialize a BigInt`, `Converting circular structure to JSON`), and a Decimal
 * where a symbol or a currency goes is named by its value (before, `found an object`). A timer with
 * no name or a spec that is no object, and a value with no prototype where a number goes, throw it
 * too (before: a timer named `undefined` was set; `TypeError`s `Cannot read properties of null` and
 * `Cannot convert object to primitive value`). A side outside BUY and SELL names the order and the
 * field (before: core's `order intent: expected BUY or SELL, found HOLD`, or a `TypeError`); a
 * Decimal given to `modify` for its change is named (before, its inner fields were listed); a bad
 * interval of `unsubscribeBars` names that call (before, `subscribeBars`); a quantity or price in
 * another base than ten (`'0x10'`, which decimal.js reads) is refused (before, a buy of 16 shares).
 */

import { Decimal } from '@hoga/core';
import { describe, expect, it } from 'vitest';
import { backtestBars, minuteBars } from '../backtest/backtest-fixture.test-helper.js';
import { EngineError } from '../engine-error.js';
import { Strategy } from '../strategy/strategy.js';

const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;

/** What `call` threw on the first bar of a minute backtest (the strategy catches it: the run goes on). */
async function thrownBy(
  call: (ctx: Record<string, (...a: unknown[]) => unknown>) => unknown,
): Promise<unknown> {
  let thrown: unknown;
  class Calls extends Strategy {
    override onBar(): void {
      if (thrown !== undefined) return;
      try {
        call(this.ctx as unknown as Record<string, (...a: unknown[]) => unknown>);
        thrown = null;
      } catch (e) {
        thrown = e;
      }
    }
  }
  const { outcome, db } = await backtestBars(
    [{ strategyClass: Calls }],
    minuteBars('005930', [70_000, 70_100]),
  );
  db.close();
  expect(outcome.status).toBe('completed');
  return thrown;
}

describe('a context call with a value JSON cannot show, or a Decimal where a string goes', () => {
  it.each([
    [
      'subscribeBars with a BigInt interval',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.subscribeBars?.('AAPL', 10n),
      'subscribeBars AAPL: expected an interval of 1m or 1d, found 10n',
    ],
    [
      'unsubscribeBars with a cyclic interval',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.unsubscribeBars?.('005930', cyclic),
      'expected an interval of 1m or 1d, found an object',
    ],
    [
      'marketOrderAllowed of a cyclic object',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.marketOrderAllowed?.(cyclic),
      'marketOrderAllowed: expected a symbol (a non-empty string), found an object',
    ],
    [
      'marketOrderAllowed of a BigInt',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.marketOrderAllowed?.(5n),
      'marketOrderAllowed: expected a symbol (a non-empty string), found 5n',
    ],
    [
      'cash of a Decimal',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.cash?.(new Decimal('2.5')),
      'cash: expected a currency, KRW or USD, found Decimal 2.5',
    ],
    [
      'a buy of a Decimal symbol',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.buy?.(new Decimal(7), 1),
      'order: symbol: expected a symbol (a non-empty string), found Decimal 7',
    ],
    [
      'setTimer with a null spec',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.setTimer?.('t', null),
      'timer t: expected a spec ({at?, every?}), found null',
    ],
    [
      'setTimer with no name',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.setTimer?.(undefined, { every: 1000 }),
      'setTimer: expected a timer name (a non-empty string), found undefined',
    ],
    [
      'setTimer with an every of no prototype',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.setTimer?.('t', { every: Object.create(null) }),
      'timer t: expected every in whole milliseconds from 1, found an object',
    ],
    [
      'a buy of a quantity of no prototype',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.buy?.('005930', Object.create(null)),
      'order of 005930: quantity: expected a number, found an object',
    ],
    [
      'a submit of side HOLD',
      (c: Record<string, (...a: unknown[]) => unknown>) =>
        c.submit?.({ symbol: '005930', side: 'HOLD', quantity: 1 }),
      'order of 005930: side: expected BUY or SELL, found "HOLD"',
    ],
    [
      'a submit of a side of no prototype',
      (c: Record<string, (...a: unknown[]) => unknown>) =>
        c.submit?.({ symbol: '005930', side: Object.create(null), quantity: 1 }),
      'order of 005930: side: expected BUY or SELL, found an object',
    ],
    [
      'a submit of a timeInForce of no prototype',
      (c: Record<string, (...a: unknown[]) => unknown>) =>
        c.submit?.({
          symbol: '005930',
          side: 'BUY',
          quantity: 1,
          price: 70_000,
          timeInForce: Object.create(null),
        }),
      'order of 005930: timeInForce: expected DAY or CLS, found an object',
    ],
    [
      'a modify to a Decimal (not a change)',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.modify?.('an-id', new Decimal(70_000)),
      'modify of order an-id: expected a change ({price?, quantity?}), found Decimal 70000',
    ],
    [
      'unsubscribeBars with a 5m interval',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.unsubscribeBars?.('005930', '5m'),
      'unsubscribeBars 005930: expected an interval of 1m or 1d, found "5m"',
    ],
    [
      'a buy of a hexadecimal quantity',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.buy?.('005930', '0x10'),
      'order of 005930: quantity: expected a number, found "0x10"',
    ],
    [
      'a buy at a binary price',
      (c: Record<string, (...a: unknown[]) => unknown>) => c.buy?.('005930', 1, '0b1'),
      'order of 005930: price: expected a number, found "0b1"',
    ],
  ] as const)('%s throws invalid-request naming the call and the value', async (_name, call, message) => {
    const thrown = await thrownBy(call);
    expect(thrown).toBeInstanceOf(EngineError);
    expect((thrown as EngineError).code).toBe('invalid-request');
    expect((thrown as Error).message).toContain(message);
  });
});

describe('ctx.marketOrderAllowed of a lower-case KR code', () => {
  it('answers for the KR market, as the other calls upper-case it (before, taken for a US symbol)', async () => {
    const answers: boolean[] = [];
    class Asks extends Strategy {
      override onBar(): void {
        if (answers.length === 0)
          answers.push(this.ctx.marketOrderAllowed('0088m0'), this.ctx.marketOrderAllowed('0088M0'));
      }
    }
    // T0 is 09:01 KST on a Monday: the KR regular session, New York closed
    const { db } = await backtestBars([{ strategyClass: Asks }], minuteBars('005930', [70_000, 70_100]));
    db.close();
    expect(answers).toEqual([true, true]);
  });
});
