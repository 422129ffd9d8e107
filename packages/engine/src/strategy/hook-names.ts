/**
 * The methods of a strategy named like a hook but not one (`onBars`, `on_fill`,
 * `onOrderBook`): hoga runs a `.ts` file without checking its types, so `override` does not catch
 * such a name, and the method is never called.
 *
 * @module
 */
import type { Logger } from '@hoga/core';
import { STRATEGY_HOOKS, Strategy, type StrategyHook } from './strategy.js';

/** A method named like a hook, and the hook. */
export interface MisnamedHook {
  readonly name: string;
  readonly hook: StrategyHook;
}

/**
 * The methods of `strategy` (its own properties and its classes' below {@link Strategy}) whose name,
 * without underscores and in lower case, is a hook's or one edit from it (`onBars`, `on_fill`,
 * `onOrderBook`, `ontimer`), with the hook each resembles. A name two edits away or more
 * (`onBuy`, `onSignal`) is a method of the strategy's own.
 *
 * @param strategy - a constructed strategy
 */
export function misnamedHooks(strategy: object): MisnamedHook[] {
  const names = new Set<string>(Object.keys(strategy));
  for (let p: object | null = Object.getPrototypeOf(strategy); p !== null && p !== Strategy.prototype; ) {
    for (const name of Object.getOwnPropertyNames(p)) names.add(name);
    p = Object.getPrototypeOf(p) as object | null;
  }
  const found: MisnamedHook[] = [];
  for (const name of names) {
    if ((STRATEGY_HOOKS as readonly string[]).includes(name) || !/^on/i.test(name)) continue;
    if (typeof (strategy as Record<string, unknown>)[name] !== 'function') continue;
    const plain = name.replaceAll('_', '').toLowerCase();
    const hook = STRATEGY_HOOKS.find((h) => withinOneEdit(plain, h.toLowerCase()));
    if (hook !== undefined) found.push({ name, hook });
  }
  return found;
}

/** Whether `a` is `b` or one insertion, deletion or substitution from it. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  // the rest after one substitution (same lengths) or one insertion into the shorter
  return short.length === long.length
    ? short.slice(i + 1) === long.slice(i + 1)
    : short.slice(i) === long.slice(i + 1);
}

/**
 * Warns on `log` of each method of `strategy` named like a hook but not one (see
 * {@link misnamedHooks}), naming the hook it resembles.
 *
 * @param strategy - a constructed strategy
 * @param strategyId - its id, in the message
 * @param log - the strategy's logger
 */
export function sayMisnamedHooks(strategy: object, strategyId: string, log: Logger): void {
  for (const m of misnamedHooks(strategy))
    log.warn(
      { method: m.name, hook: m.hook },
      `strategy ${strategyId} defines ${m.name}, which is not a hook and is never called: did you mean ${m.hook}?`,
    );
}
