/**
 * The checks of the generated-input tests of the strategy context: a call that threw threw a typed
 * error naming a value given ({@link misthrown}); a call that placed or changed an order took
 * numbers only ({@link misreturned}). Test code only.
 */
import { Decimal, HogaError } from '@hoga/core';
import fc from 'fast-check';
import type { CallOutcome, CtxCall } from './ctx-fuzz.test-helper.js';

/** How a value may be shown in a message naming it. */
function shownAs(value: unknown): string[] {
  if (typeof value === 'string') return [value, JSON.stringify(value)];
  if (typeof value === 'number') return Object.is(value, -0) ? ['0', '-0'] : [String(value)];
  if (typeof value === 'bigint') return [String(value)];
  if (value instanceof Decimal) return [value.toString()];
  if (value === undefined || value === null || typeof value === 'boolean') return [String(value)];
  return []; // objects, arrays, functions: named by kind, not checked here
}

/**
 * Why an outcome breaks the rule (a typed error naming the argument and the value), or null: a
 * call that threw threw a `HogaError` (EngineError, StoreError) whose message names one of the
 * values given (when it can be shown).
 */
export function misthrown(outcome: CallOutcome): string | null {
  if (!('threw' in outcome)) return null;
  const e = outcome.threw;
  const call = outcome.call;
  if (!(e instanceof HogaError))
    return `untyped ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
  const values = valuesOf(call);
  const shown = values.flatMap(shownAs);
  if (values.length === 0) return null;
  if (values.some((v) => shownAs(v).length === 0)) return null; // an object or array given: named by kind
  if (!shown.some((s) => e.message.includes(s))) return `message names none of the values: ${e.message}`;
  return null;
}

/** A decimal string as a strategy may give one (`12`, `-1.5`, `1e3`). */
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Whether `value` is a number as the context takes one: a finite number, a decimal string, a finite
 * Decimal (or a BigInt).
 */
function isNumberInput(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'bigint') return true; // decimal.js reads it exactly (10n is 10)
  if (typeof value === 'string') return DECIMAL_TEXT.test(value);
  return value instanceof Decimal && value.isFinite();
}

/**
 * Why a call that places or changes an order and returned should have thrown, or null: one of its
 * numbers (quantity, price, amount) is no number (a hex string, NaN, an object).
 */
export function misreturned(outcome: CallOutcome): string | null {
  if (!('returned' in outcome)) return null;
  const call = outcome.call;
  let figures: unknown[];
  if (call.kind === 'buy' || call.kind === 'sell')
    figures = [call.quantity, ...('price' in call && call.price !== undefined ? [call.price] : [])];
  else if (call.kind === 'buyAmount') figures = [call.amount];
  else if (call.kind === 'submit' && typeof call.request === 'object' && call.request !== null) {
    const r = call.request as Record<string, unknown>;
    figures = [
      'amount' in r ? r.amount : r.quantity,
      ...('amount' in r || r.price === undefined ? [] : [r.price]),
    ];
  } else if (call.kind === 'modify' && typeof call.change === 'object' && call.change !== null) {
    const c = call.change as Record<string, unknown>;
    figures = [c.price, c.quantity].filter((f) => f !== undefined);
  } else return null;
  const bad = figures.filter((f) => !isNumberInput(f));
  return bad.length === 0 ? null : `took ${bad.map((b) => fc.stringify(b)).join(', ')} for a number`;
}

function valuesOf(call: CtxCall): unknown[] {
  switch (call.kind) {
    case 'buy':
    case 'sell':
      return [call.symbol, call.quantity, ...('price' in call ? [call.price] : [])];
    case 'buyAmount':
      return [call.symbol, call.amount];
    case 'submit':
      return typeof call.request === 'object' && call.request !== null && !Array.isArray(call.request)
        ? [...Object.values(call.request), undefined] // a field left out is named `undefined`
        : [call.request];
    case 'modify':
      return [
        typeof call.id === 'object' ? call.id.bad : 'x',
        ...(typeof call.change === 'object' && call.change !== null
          ? Object.values(call.change)
          : [call.change]),
      ];
    case 'cancel':
    case 'order':
      return typeof call.id === 'object' ? [call.id.bad] : ['x'];
    case 'subscribe':
      return [call.symbol, call.interval];
    case 'setTimer':
      return typeof call.spec === 'object' && call.spec !== null
        ? [call.name, ...Object.values(call.spec)]
        : [call.name, call.spec];
    case 'cancelTimer':
      return [call.name];
    case 'state':
      return [call.key];
    case 'log':
      return [{}];
    case 'read':
      return [call.arg];
  }
}
