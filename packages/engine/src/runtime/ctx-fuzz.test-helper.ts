/**
 * Test helper of the generated-input tests of the strategy context: arbitrary calls of `ctx`
 * (orders, changes, cancels, subscriptions, timers, state, log, reads) with bad values for each
 * argument, and a strategy that makes them and records what each did (checked by
 * `ctx-fuzz-checks.test-helper.ts`). Test code only.
 */
import { type Bar, Decimal, type OrderEvent } from '@hoga/core';
import fc from 'fast-check';
import type { TimerFired } from '../strategy/market-events.js';
import { Strategy } from '../strategy/strategy.js';
import type { StrategyContext } from '../strategy/strategy-context.js';

/** A value no field of the context takes (or some do, as documented). */
function badValue(): fc.Arbitrary<unknown> {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  return fc.oneof(
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -0,
      0,
      -1,
      1.5,
      0.000_000_1,
      1e300,
      2 ** 53 + 2,
      '1',
      ' 2 ',
      '1e3',
      '0x10',
      'abc',
      '',
      '-5',
      'NaN',
      'Infinity',
      undefined,
      null,
      true,
      10n,
      {},
      [],
      [1],
      { value: 1 },
      cyclic,
      () => 1,
      new Date(0),
      Object.create(null),
      Symbol('s'),
      'x %s %d %j %o',
    ),
    fc.constantFrom('1', '2.5', '-3', 'NaN').map((s) => new Decimal(s)),
    fc.double(),
    fc.integer({ min: -1_000_000, max: 100_000_000 }),
  );
}

/** A symbol: the run's, another market's, unknown, lower-case, or no symbol at all. */
function symbolArb(own: string): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(own, own.toLowerCase(), 'AAPL', 'ZZZZZZ', '999999', 'aapl') },
    { weight: 1, arbitrary: badValue() },
  );
}

/** A quantity or price: a good one or a bad one. */
function amountArb(good: readonly number[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...good) }, { weight: 2, arbitrary: badValue() });
}

/** Which order id a call names: an open one, an ended one, an unknown one, or no id. */
export type IdPick = 'open' | 'ended' | 'unknown' | { readonly bad: unknown };

/** One call of the context, as generated. */
export type CtxCall =
  | {
      readonly kind: 'buy' | 'sell';
      readonly symbol: unknown;
      readonly quantity: unknown;
      readonly price?: unknown;
    }
  | { readonly kind: 'buyAmount'; readonly symbol: unknown; readonly amount: unknown }
  | { readonly kind: 'submit'; readonly request: unknown }
  | { readonly kind: 'modify'; readonly id: IdPick; readonly change: unknown }
  | { readonly kind: 'cancel'; readonly id: IdPick }
  | { readonly kind: 'order'; readonly id: IdPick }
  | {
      readonly kind: 'subscribe';
      readonly what: 'Bars' | 'Prices' | 'Orderbook' | 'Trades';
      readonly off: boolean;
      readonly symbol: unknown;
      readonly interval: unknown;
    }
  | { readonly kind: 'setTimer'; readonly name: unknown; readonly spec: unknown }
  | { readonly kind: 'cancelTimer'; readonly name: unknown }
  | { readonly kind: 'state'; readonly key: string; readonly value: unknown }
  | { readonly kind: 'log'; readonly args: readonly unknown[] }
  | {
      readonly kind: 'read';
      readonly what: 'cash' | 'position' | 'openOrders' | 'marketOrderAllowed' | 'regularSession';
      readonly arg: unknown;
    };

/** Generated calls of the context on `own` (a symbol of the run, priced about `price`). */
export function ctxCallArb(own: string, price: number): fc.Arbitrary<CtxCall> {
  const qty = amountArb([1, 2, 10]);
  const px = amountArb([price, price - 100 * Math.ceil(price / 10_000), 250.5]);
  const id: fc.Arbitrary<IdPick> = fc.oneof(
    fc.constantFrom<IdPick>('open', 'ended', 'unknown'),
    badValue().map((bad) => ({ bad })),
  );
  const change = fc.oneof(
    fc.record({ price: px }, { requiredKeys: [] }),
    fc.record({ quantity: qty, price: px, confirmHighValue: badValue() }, { requiredKeys: [] }),
    badValue(),
  );
  const request = fc.oneof(
    fc.record(
      {
        symbol: symbolArb(own),
        side: fc.oneof(fc.constantFrom<unknown>('BUY', 'SELL', 'buy', 'HOLD', undefined, 1), badValue()),
        quantity: qty,
        price: px,
        timeInForce: fc.oneof(fc.constantFrom<unknown>('DAY', 'CLS', 'GTC', 'day', 5), badValue()),
        confirmHighValue: badValue(),
        fromAccount: badValue(),
      },
      { requiredKeys: ['symbol', 'side'] },
    ),
    fc.record({ symbol: symbolArb(own), side: fc.constantFrom<unknown>('BUY', 'SELL'), amount: qty }),
    badValue(),
  );
  return fc.oneof(
    fc.record(
      {
        kind: fc.constantFrom('buy' as const, 'sell' as const),
        symbol: symbolArb(own),
        quantity: qty,
        price: px,
      },
      { requiredKeys: ['kind', 'symbol', 'quantity'] },
    ),
    fc.record({ kind: fc.constant('buyAmount' as const), symbol: symbolArb(own), amount: qty }),
    fc.record({ kind: fc.constant('submit' as const), request }),
    fc.record({ kind: fc.constant('modify' as const), id, change }),
    fc.record({ kind: fc.constant('cancel' as const), id }),
    fc.record({ kind: fc.constant('order' as const), id }),
    fc.record({
      kind: fc.constant('subscribe' as const),
      what: fc.constantFrom('Bars' as const, 'Prices' as const, 'Orderbook' as const, 'Trades' as const),
      off: fc.boolean(),
      symbol: symbolArb(own),
      interval: fc.oneof(fc.constantFrom<unknown>(undefined, '1m', '1d', '5m'), badValue()),
    }),
    fc.record({
      kind: fc.constant('setTimer' as const),
      name: fc.oneof(fc.constantFrom<unknown>('t', 'u'), badValue()),
      spec: fc.oneof(fc.record({ at: badValue(), every: badValue() }, { requiredKeys: [] }), badValue()),
    }),
    fc.record({
      kind: fc.constant('cancelTimer' as const),
      name: fc.oneof(fc.constant<unknown>('t'), badValue()),
    }),
    fc.record({ kind: fc.constant('state' as const), key: fc.constantFrom('k', 'j'), value: badValue() }),
    fc.record({
      kind: fc.constant('log' as const),
      args: fc.array(badValue(), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant('read' as const),
      what: fc.constantFrom(
        'cash' as const,
        'position' as const,
        'openOrders' as const,
        'marketOrderAllowed' as const,
        'regularSession' as const,
      ),
      arg: fc.oneof(fc.constantFrom<unknown>('KRW', 'usd', 'EUR', own), badValue()),
    }),
  );
}

/** What one call did: returned (with what) or threw (what). */
export interface CallOutcome {
  readonly call: CtxCall;
  readonly returned?: unknown;
  readonly threw?: unknown;
}

/** Where a plan's calls are made: `onStart`, `onBar` (the main plan), `onTimer` or `onStop`. */
export interface FuzzPlan {
  readonly onStart: readonly CtxCall[];
  readonly onBar: readonly CtxCall[];
  readonly onTimer: readonly CtxCall[];
  readonly onStop: readonly CtxCall[];
}

/** A plan: many calls on a bar, a few in the other hooks. */
export function fuzzPlanArb(own: string, price: number, onBar: number): fc.Arbitrary<FuzzPlan> {
  const call = ctxCallArb(own, price);
  return fc.record({
    onStart: fc.array(call, { maxLength: 3 }),
    onBar: fc.array(call, { minLength: 1, maxLength: onBar }),
    onTimer: fc.array(call, { maxLength: 3 }),
    onStop: fc.array(call, { maxLength: 3 }),
  });
}

/**
 * Makes the calls of {@link FuzzCalls.plan}: its `onStart` calls; on the first bar a resting limit
 * buy 10 % under the close and a market buy of 1 (the open and the ended order); once that one has
 * filled, its `onBar` calls and a timer `fuzz` due at once, whose firing makes its `onTimer` calls;
 * its `onStop` calls. Each call in its own try unless {@link FuzzCalls.uncaught} (the first that
 * throws then stops the run); records each outcome, its order events and the orders placed.
 */
export class FuzzCalls extends Strategy {
  static plan: FuzzPlan = { onStart: [], onBar: [], onTimer: [], onStop: [] };
  static uncaught = false;
  static outcomes: CallOutcome[] = [];
  static events: OrderEvent[] = [];
  static placed: string[] = [];
  static done = false;
  /** Whether the timer `fuzz` fired (its calls made). */
  static timed = false;
  static symbol = '005930';
  private bars = 0;
  private open = 'none-yet';
  private ended = 'none-yet';

  override onStart(): void {
    this.calls(FuzzCalls.plan.onStart);
  }

  override onBar(bar: Bar): void {
    if (bar.symbol !== FuzzCalls.symbol) return;
    this.bars += 1;
    if (this.bars === 1) {
      this.open = this.ctx.buy(bar.symbol, 1, Math.floor((bar.close * 0.9) / 100) * 100);
      this.ended = this.ctx.buy(bar.symbol, 1);
      FuzzCalls.placed.push(this.open, this.ended);
      return;
    }
    // the market buy has ended (filled) by the second bar in a backtest; paper waits for it
    if (FuzzCalls.done || this.ctx.order(this.ended as never)?.state !== 'FILLED') return;
    FuzzCalls.done = true;
    this.ctx.setTimer('fuzz', { at: this.ctx.now() });
    this.calls(FuzzCalls.plan.onBar);
  }

  override onTimer(timer: TimerFired): void {
    if (timer.name !== 'fuzz') return;
    FuzzCalls.timed = true;
    this.calls(FuzzCalls.plan.onTimer);
  }

  override onOrderEvent(event: OrderEvent): void {
    FuzzCalls.events.push(event);
  }

  override onStop(): void {
    this.calls(FuzzCalls.plan.onStop);
  }

  private calls(calls: readonly CtxCall[]): void {
    for (const call of calls) {
      try {
        const returned = makeCall(this.ctx, call, this.open, this.ended);
        if (typeof returned === 'string' && PLACING.has(call.kind)) FuzzCalls.placed.push(returned);
        FuzzCalls.outcomes.push({ call, returned });
      } catch (threw) {
        FuzzCalls.outcomes.push({ call, threw });
        if (FuzzCalls.uncaught) throw threw;
      }
    }
  }

  static reset(plan: FuzzPlan, symbol: string, uncaught = false): void {
    FuzzCalls.plan = plan;
    FuzzCalls.uncaught = uncaught;
    FuzzCalls.outcomes = [];
    FuzzCalls.events = [];
    FuzzCalls.placed = [];
    FuzzCalls.done = false;
    FuzzCalls.timed = false;
    FuzzCalls.symbol = symbol;
  }
}

const PLACING: ReadonlySet<string> = new Set(['buy', 'sell', 'buyAmount', 'submit']);

function idOf(pick: IdPick, open: string, ended: string): never {
  if (pick === 'open') return open as never;
  if (pick === 'ended') return ended as never;
  if (pick === 'unknown') return 'no-such-order' as never;
  return pick.bad as never;
}

/** Makes `call` on `ctx` (untyped: a JavaScript strategy passes whatever it has). */
export function makeCall(ctx: StrategyContext, call: CtxCall, open: string, ended: string): unknown {
  const c = ctx as unknown as Record<string, (...args: unknown[]) => unknown>;
  switch (call.kind) {
    case 'buy':
    case 'sell':
      return 'price' in call
        ? c[call.kind]?.(call.symbol, call.quantity, call.price)
        : c[call.kind]?.(call.symbol, call.quantity);
    case 'buyAmount':
      return c.buyAmount?.(call.symbol, call.amount);
    case 'submit':
      return c.submit?.(call.request);
    case 'modify':
      return c.modify?.(idOf(call.id, open, ended), call.change);
    case 'cancel':
      return c.cancel?.(idOf(call.id, open, ended));
    case 'order':
      return c.order?.(idOf(call.id, open, ended));
    case 'subscribe':
      return c[`${call.off ? 'unsubscribe' : 'subscribe'}${call.what}`]?.(call.symbol, call.interval);
    case 'setTimer':
      return c.setTimer?.(call.name, call.spec);
    case 'cancelTimer':
      return c.cancelTimer?.(call.name);
    case 'state': {
      const before = ctx.state.get(call.key);
      try {
        ctx.state.set(call.key, call.value);
      } catch (e) {
        // what was stored stays (docs: `StrategyState.set`)
        if (JSON.stringify(ctx.state.get(call.key)) !== JSON.stringify(before))
          throw new Error(`state ${call.key}: a refused set changed what was stored`);
        throw e;
      }
      return ctx.state.get(call.key);
    }
    case 'log':
      return ctx.log.info(...(call.args as [unknown]));
    case 'read':
      return c[call.what]?.(call.arg);
  }
}
