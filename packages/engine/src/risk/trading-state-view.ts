/**
 * The kept trading states as they stand at an instant, read without changing them (`hoga risk
 * status`): each scope's state in force, and apart the sources' states past their end (a kill switch
 * at the next trading day) that no process has lapsed yet. The gateway lapses those on its first
 * read of the scope (journalled as the next trading day's); a view only says so.
 *
 * @module
 */
import { describeLayer, entryOfLayers, lapsed, layersOf } from './trading-state-layers.js';
import type { TradingStateEntry, TradingStatePersistence } from './trading-state-persistence.js';
import { describeKst } from './valuation.js';

/** One source's state of a scope past its end, not yet lapsed in the store. */
export type LapsedTradingState = Omit<TradingStateEntry, 'beneath'> & {
  /** `account`, `strategy:<id>` or `symbol:<code>`. */
  readonly scope: string;
  readonly lapsed: true;
};

/** The kept states at an instant. */
export interface TradingStatesView {
  /** Every scope that is not ACTIVE, by scope key: the state in force, the others `beneath`. */
  readonly states: ReadonlyMap<string, TradingStateEntry>;
  /** The sources' states past their end, in the store's order of scopes; they hold nothing any more. */
  readonly lapsed: readonly LapsedTradingState[];
}

/**
 * Reads the kept states at `nowMs` and writes nothing: a state past its end is left out of the one in
 * force (as the gateway's read would lapse it) and listed in `lapsed`.
 *
 * @param persistence - where the states are kept (only `load` is called)
 * @param nowMs - the instant, epoch ms
 */
export function viewTradingStates(
  persistence: Pick<TradingStatePersistence, 'load'>,
  nowMs: number,
): TradingStatesView {
  const states = new Map<string, TradingStateEntry>();
  const gone: LapsedTradingState[] = [];
  for (const [scope, entry] of persistence.load()) {
    const layers = layersOf(entry);
    const kept = entryOfLayers(layers.filter((l) => !lapsed(l, nowMs)));
    if (kept !== null) states.set(scope, kept);
    for (const l of layers) if (lapsed(l, nowMs)) gone.push({ scope, ...l, lapsed: true });
  }
  return { states, lapsed: gone };
}

/** One source's state: `HALTED (daily-loss: …; until 2026-11-24 08:00 KST (Tue))`. */
function describe(layer: TradingStateEntry): string {
  return describeLayer(layer, describeKst);
}

/**
 * The status line of the states in force: `risk: all ACTIVE`, or each restricted scope with the
 * state in force and, after `over`, what the other sources hold. Given scope keys, those scopes
 * alone, in that order, one not restricted as `strategy:s9 ACTIVE`.
 */
export function statusLineOf(
  states: ReadonlyMap<string, TradingStateEntry>,
  named?: readonly string[],
): string {
  const line = (key: string, e: TradingStateEntry | undefined) =>
    e === undefined ? `${key} ACTIVE` : `${key} ${layersOf(e).map(describe).join(' over ')}`;
  if (named !== undefined && named.length > 0) {
    return `risk: ${named.map((key) => line(key, states.get(key))).join('; ')}`;
  }
  const restricted = [...states].map(([key, e]) => line(key, e));
  return restricted.length === 0 ? 'risk: all ACTIVE' : `risk: ${restricted.join('; ')}`;
}

/** The line naming the lapsed states: `lapsed (no longer in force): strategy:s1 HALTED (…; until …)`. */
export function lapsedLineOf(gone: readonly LapsedTradingState[]): string {
  const each = gone.map(({ scope, lapsed: _, ...l }) => `${scope} ${describe(l)}`);
  return `lapsed (no longer in force): ${each.join('; ')}`;
}
