/**
 * What a strategy asks of its context, checked: an order request as core's order intent input
 * (validated by `createOrderIntent`), an order id, a change, a timer, a bar interval. A bad value
 * throws an {@link EngineError} `invalid-request` naming the call and the value.
 *
 * @module
 */
import {
  type BarInterval,
  type ClientOrderId,
  Decimal,
  decimalOfNumber,
  type Instrument,
  instrumentOf,
  type OrderIntentInput,
  type StrategyId,
} from '@hoga/core';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import type { OrderRequest, TimerSpec } from '../strategy/strategy-context.js';

const stocks = new Map<string, Instrument>();

/** A symbol taken for a stock (built once per symbol). */
function stockOf(symbol: string): Instrument {
  let instrument = stocks.get(symbol);
  if (instrument === undefined) {
    instrument = instrumentOf(symbol);
    stocks.set(symbol, instrument);
  }
  return instrument;
}

/**
 * `id` as an order id: what `ctx.buy` and the others returned (a non-empty string).
 *
 * @param verb - `modify` or `cancel`, named in the error
 * @throws {@link EngineError} `invalid-request` naming the call and the value when it is not one (a
 *   programmer error, `order.id` of an order view whose field is `clientOrderId`: the run stops, as
 *   the hook threw; before, the denial went out with no order id and the run's printer threw on it)
 */
export function orderIdOf(id: unknown, verb: 'modify' | 'cancel'): ClientOrderId {
  if (typeof id === 'string' && id !== '') return id as ClientOrderId;
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `${verb}: expected an order id (a string), found ${found(id)}`,
  );
}

/**
 * Checks a modify's change: an object with a new price or a new quantity (or both).
 *
 * @param id - the order's id, named in the error
 * @throws {@link EngineError} `invalid-request` naming the call (`modify of order ID`) and what was
 *   given when it is not an object, or has neither a price nor a quantity (`{}`, `{price:
 *   undefined}`, `{confirmHighValue: true}`): a programmer error, the run stops as the hook threw.
 *   Before, such a modify went to the venue as one at the order's own price and quantity, and the
 *   broker replaced the order by a new one, losing its place in the queue; `ctx.modify(id)` threw a
 *   `TypeError` (`Cannot read properties of undefined (reading 'quantity')`)
 */
export function checkOrderChange(change: unknown, id: ClientOrderId): void {
  // a Decimal is an object too: before, its fields were listed (`found {constructor: a function, s: 1,
  // e: 4, d: an array}`) for `ctx.modify(id, price)`
  if (typeof change !== 'object' || change === null || Array.isArray(change) || change instanceof Decimal) {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `modify of order ${id}: expected a change ({price?, quantity?}), found ${found(change)}`,
    );
  }
  const { price, quantity } = change as { readonly price?: unknown; readonly quantity?: unknown };
  if (price !== undefined || quantity !== undefined) return;
  const given = Object.entries(change)
    .map(([key, value]) => `${key}: ${found(value)}`)
    .join(', ');
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `modify of order ${id}: expected a new price or quantity, found {${given}}`,
  );
}

/**
 * How a value a strategy passed is named in an error: `undefined`, `""`, `an object`, `42`, `10n`,
 * `Decimal 2.5` (before, a Decimal was `an object`). Never throws: a cycle or a BigInt is no JSON
 * (before, a BigInt or cyclic interval of `subscribeBars` threw a bare `TypeError`).
 */
function found(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Decimal) return `Decimal ${value.toString()}`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}

/**
 * What a backtest says of a `ctx.subscribeBars` after `onStart` of a symbol whose bars it did not
 * load (paper and live take it).
 */
export function lateBarsMessage(strategyId: string, symbol: string): string {
  return (
    `strategy ${strategyId} subscribed to the bars of ${symbol} (ctx.subscribeBars) after onStart: a backtest ` +
    'loads the bars subscribed to in onStart only, so none of these come (subscribe in onStart; paper and live take either)'
  );
}

/** The context's method of each kind of data subscription, for the messages. */
export const SUBSCRIBE_CALLS: Readonly<Record<'bars' | 'prices' | 'orderbook' | 'trades', string>> = {
  bars: 'subscribeBars',
  prices: 'subscribePrices',
  orderbook: 'subscribeOrderbook',
  trades: 'subscribeTrades',
};

/** The context's method that ends each kind of data subscription, for the messages. */
export const UNSUBSCRIBE_CALLS: Readonly<Record<'bars' | 'prices' | 'orderbook' | 'trades', string>> = {
  bars: 'unsubscribeBars',
  prices: 'unsubscribePrices',
  orderbook: 'unsubscribeOrderbook',
  trades: 'unsubscribeTrades',
};

/**
 * `value` as a symbol, upper-cased as the command line takes it (`aapl` is AAPL).
 *
 * @param what - names the call in the error (`order: symbol`, `subscribePrices`)
 * @throws {@link EngineError} `invalid-request` naming the call and the value when it is not a
 *   non-empty string (a programmer error: the run stops, as the hook threw; before, a `TypeError`
 *   `Cannot read properties of undefined (reading 'toUpperCase')` said nothing of the call)
 */
export function symbolOf(value: unknown, what: string): string {
  if (typeof value === 'string' && value !== '') return value.toUpperCase();
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `${what}: expected a symbol (a non-empty string), found ${found(value)}`,
  );
}

/**
 * `value` as a currency, upper-cased (`krw` is KRW, as a symbol's case is taken).
 *
 * @param what - names the call in the error (`cash`, `unrealizedPnl`)
 * @throws {@link EngineError} `invalid-request` naming the call and the value when it is not KRW or
 *   USD (before, `ctx.cash('krw')` or `ctx.cash('EUR')` answered 0, and a strategy sized by it
 *   bought nothing, unsaid: hoga runs a `.ts` file without checking its types)
 */
export function currencyOf(value: unknown, what: string): 'KRW' | 'USD' {
  if (value === 'KRW' || value === 'USD') return value;
  const upper = typeof value === 'string' ? value.toUpperCase() : undefined;
  if (upper === 'KRW' || upper === 'USD') return upper;
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `${what}: expected a currency, KRW or USD, found ${found(value)}`,
  );
}

/**
 * `request` as an order request: an object (its fields are judged on their own).
 *
 * @throws {@link EngineError} `invalid-request` when it is not one (`ctx.submit()` with nothing)
 */
export function orderRequestOf(request: unknown): OrderRequest {
  if (typeof request === 'object' && request !== null && !Array.isArray(request))
    return request as OrderRequest;
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `submit: expected an order request ({symbol, side, quantity, price?} or {symbol, side, amount}), found ${found(request)}`,
  );
}

/** A hexadecimal, binary or octal prefix, which decimal.js would read. */
const RADIX_PREFIX = /^\s*[+-]?0[xbo]/i;

/**
 * `value` as a Decimal.
 *
 * @param what - names the request and the field in the error (`order of 005930: price`)
 * @throws {@link EngineError} `invalid-request` naming `what` and the value when it is not a finite
 *   number, or a string in another base than ten (`0x10`) (a programmer error: the run stops, as the
 *   hook threw)
 */
export function decimalOf(value: Decimal.Value, what: string): Decimal {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return decimalOfNumber(value);
  let parsed: Decimal | undefined;
  try {
    // decimal.js reads `0x10` as 16 (and `0b`, `0o`): no decimal string (before, `ctx.buy(s, '0x10')`
    // bought 16 shares)
    parsed =
      value instanceof Decimal
        ? value
        : typeof value === 'string' && RADIX_PREFIX.test(value)
          ? undefined
          : new Decimal(value);
  } catch {
    parsed = undefined;
  }
  // NaN and Infinity are numbers to decimal.js, but no order can be sized or priced by them
  if (parsed?.isFinite() === true) return parsed;
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `${what}: expected a ${parsed === undefined ? '' : 'finite '}number, found ${found(value)}`,
  );
}

/** The `timeInForce` an amount request carries (its type has none; a JavaScript strategy may give one). */
function timeInForceOf(request: OrderRequest): unknown {
  return (request as { readonly timeInForce?: unknown }).timeInForce;
}

/**
 * Checks a quantity request's `side`, and its `timeInForce` when it is no string (a string outside
 * DAY and CLS is core's to refuse, `order intent: expected DAY or CLS, found GTC`).
 *
 * @throws {@link EngineError} `invalid-request` naming the order, the field and the value. Before, a
 *   side of `HOLD` threw core's `order intent: expected BUY or SELL, found HOLD` naming neither the
 *   order nor the field, and a side or time in force with no prototype a bare `TypeError` (`Cannot
 *   convert object to primitive value`)
 */
function checkSideAndTimeInForce(request: {
  readonly symbol: string;
  readonly side?: unknown;
  readonly timeInForce?: unknown;
}): void {
  const side: unknown = request.side;
  if (side !== 'BUY' && side !== 'SELL') {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `order of ${request.symbol}: side: expected BUY or SELL, found ${found(side)}`,
    );
  }
  const timeInForce: unknown = request.timeInForce;
  if (timeInForce !== undefined && typeof timeInForce !== 'string') {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `order of ${request.symbol}: timeInForce: expected DAY or CLS, found ${found(timeInForce)}`,
    );
  }
}

/**
 * The intent input of `request` (market without a price, limit with one, amount for US buys).
 *
 * @param known - the run's instrument of a symbol (its real security type), undefined when unknown:
 *   the symbol is then taken for a stock
 */
export function intentInput(
  strategyId: StrategyId,
  clientOrderId: ClientOrderId,
  request: OrderRequest,
  known?: Instrument | undefined,
): OrderIntentInput {
  const instrument = known ?? stockOf(request.symbol);
  if ('amount' in request) {
    // a JavaScript strategy may write a sell: it was sent as a buy of the amount
    if ((request as { readonly side?: unknown }).side !== 'BUY') {
      throw new EngineError(
        EngineErrorCode.INVALID_REQUEST,
        `order of ${request.symbol}: amount is only for US market buys, found side ${found(
          (request as { readonly side?: unknown }).side,
        )}: sell a quantity`,
      );
    }
    return {
      clientOrderId,
      strategyId,
      instrument,
      side: 'BUY',
      sizing: 'AMOUNT',
      orderType: 'MARKET',
      amount: decimalOf(request.amount, `order of ${request.symbol}: amount`),
      ...(timeInForceOf(request) === undefined ? {} : { timeInForce: timeInForceOf(request) as 'DAY' }),
      ...(request.confirmHighValue === true ? { confirmHighValue: true } : {}),
    };
  }
  checkSideAndTimeInForce(request);
  const quantity = decimalOf(request.quantity, `order of ${request.symbol}: quantity`);
  if (request.price === undefined) {
    return {
      clientOrderId,
      strategyId,
      instrument,
      side: request.side,
      sizing: 'QUANTITY',
      orderType: 'MARKET',
      quantity,
      // passed on as given, to be judged: a `CLS` market order is denied and a `GTC` throws (before,
      // both were dropped and the order went out as a DAY market order)
      ...(request.timeInForce === undefined ? {} : { timeInForce: request.timeInForce as 'DAY' }),
      ...(request.confirmHighValue === true ? { confirmHighValue: true } : {}),
    };
  }
  return {
    clientOrderId,
    strategyId,
    instrument,
    side: request.side,
    sizing: 'QUANTITY',
    orderType: 'LIMIT',
    quantity,
    price: decimalOf(request.price, `order of ${request.symbol}: price`),
    ...(request.timeInForce === undefined ? {} : { timeInForce: request.timeInForce }),
    ...(request.confirmHighValue === true ? { confirmHighValue: true } : {}),
  };
}

/**
 * When timer `name` is first due: `spec.at`, else `nowMs` plus `spec.every` (0 without it); a
 * repeating timer's past `at`, the latest `at + k × every` not after `nowMs` (it fires once for the
 * periods missed).
 *
 * @throws {@link EngineError} `invalid-request` when `name` is not a non-empty string, `spec` not
 *   an object, `every` not a positive finite number of ms, or `at` not a finite epoch-ms number (a
 *   NaN, a Date or a string would sit first in the queue and hold back every timer after it)
 */
export function timerDueOf(name: string, spec: TimerSpec, nowMs: number): number {
  // a name that is no string (a config field left out) was taken, and `onTimer` got `undefined`; a
  // spec that is no object threw a bare `TypeError` (`Cannot read properties of null`)
  if (typeof name !== 'string' || name === '') {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `setTimer: expected a timer name (a non-empty string), found ${found(name)}`,
    );
  }
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `timer ${name}: expected a spec ({at?, every?}), found ${found(spec)}`,
    );
  }
  const every = spec.every;
  // whole ms: the clocks count ms (before, every 0.5 fired twice a millisecond of a backtest)
  if (every !== undefined && !(Number.isSafeInteger(every) && every >= 1)) {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `timer ${name}: expected every in whole milliseconds from 1, found ${found(every)}`,
    );
  }
  if (spec.at !== undefined && !(typeof spec.at === 'number' && Number.isFinite(spec.at))) {
    throw new EngineError(
      EngineErrorCode.INVALID_REQUEST,
      `timer ${name}: expected at in epoch ms (a finite number), found ${found(spec.at)}`,
    );
  }
  // a repeating timer's past `at`: the latest of its firings missed (once), then on its grid; before,
  // each missed period fired at once (setTimer at 14:00 from the 09:00 open, every minute: 300 calls)
  if (spec.at !== undefined && every !== undefined && spec.at < nowMs)
    return spec.at + Math.floor((nowMs - spec.at) / every) * every;
  return spec.at ?? nowMs + (every ?? 0);
}

/**
 * `interval` as a bar interval a run can deliver (`1m` or `1d`).
 *
 * @param symbol - the symbol subscribed to, named in the error
 * @param call - the context's call, named in the error (before, an `unsubscribeBars` was named
 *   `subscribeBars`)
 * @throws {@link EngineError} `invalid-request` for any other (before, paper and live took a `5m`
 *   subscription and never delivered a bar of it, unsaid)
 */
export function barIntervalOf(
  interval: unknown,
  symbol: string,
  call: 'subscribeBars' | 'unsubscribeBars' = 'subscribeBars',
): BarInterval {
  if (interval === '1m' || interval === '1d') return interval;
  throw new EngineError(
    EngineErrorCode.INVALID_REQUEST,
    `${call} ${symbol}: expected an interval of 1m or 1d, found ${found(interval)}`,
  );
}
