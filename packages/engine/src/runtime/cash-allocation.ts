/**
 * How a run's starting cash is shared by its strategies. Each strategy keeps its own books (its
 * positions from its own fills, its own cash), all on one account: a strategy given its own cash
 * keeps it, and the others share what is left of the run's cash equally, rounded down to the
 * currency (a won or a cent left over stays the account's). One strategy without its own cash gets
 * the run's cash, as before; two no longer each get all of it, which counted the account's cash
 * twice in the equity curve.
 *
 * @module
 */
import { floorCash } from '@hoga/broker-model';
import { type Currency, Decimal } from '@hoga/core';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import type { StrategySpec } from './engine-runtime.js';
import type { RunSettings } from './tokens.js';

type Cash = RunSettings['cash'];

/**
 * The strategies with their starting cash filled in.
 *
 * @param runCash - the account's starting cash per currency
 * @param specs - the strategies, in the order they are added
 * @throws {@link EngineError} `invalid-run-options` when the strategies' own cash in a currency
 *   exceeds the run's
 */
export function allocateCash(runCash: Cash, specs: readonly StrategySpec[]): StrategySpec[] {
  const sharing = specs.filter((s) => s.cash === undefined).length;
  if (sharing === 0 || (sharing === 1 && specs.length === 1)) return [...specs];
  const currencies = new Set<Currency>(Object.keys(runCash) as Currency[]);
  for (const spec of specs) for (const c of Object.keys(spec.cash ?? {}) as Currency[]) currencies.add(c);
  const share: Partial<Record<Currency, Decimal>> = {};
  for (const currency of currencies) {
    const total = runCash[currency] ?? new Decimal(0);
    let own = new Decimal(0);
    for (const spec of specs) own = own.plus(spec.cash?.[currency] ?? 0);
    const left = total.minus(own);
    if (left.isNegative()) {
      throw new EngineError(
        EngineErrorCode.INVALID_RUN_OPTIONS,
        `the strategies' own cash, ${own.toFixed()} ${currency}, exceeds the run's ${total.toFixed()} ${currency}`,
      );
    }
    share[currency] = floorCash(currency, left.dividedBy(sharing));
  }
  return specs.map((spec) => (spec.cash === undefined ? { ...spec, cash: share } : spec));
}

/**
 * The run's cash that no strategy was given, per currency (what {@link allocateCash}'s equal shares
 * leave over, rounded down as they are, or what strategies given their own cash leave): the
 * account's, counted in its total equity.
 *
 * @param runCash - the account's starting cash per currency
 * @param allocated - the strategies as {@link allocateCash} returned them (a strategy without its
 *   own cash gets the run's)
 */
export function unallocatedCash(
  runCash: Cash,
  allocated: readonly StrategySpec[],
): Partial<Record<Currency, Decimal>> {
  const left: Partial<Record<Currency, Decimal>> = {};
  for (const [currency, total] of Object.entries(runCash) as [Currency, Decimal][]) {
    let given = new Decimal(0);
    for (const spec of allocated) given = given.plus((spec.cash ?? runCash)[currency] ?? 0);
    if (given.lt(total)) left[currency] = total.minus(given);
  }
  return left;
}
