/**
 * The states the sources hold of one scope, each source its own: the scope's state in force is the
 * strictest of them. Kept as one {@link TradingStateEntry} (the one in force, the others `beneath`
 * it), so an entry kept before sources stacked is one source's state and loads as it was.
 *
 * @module
 */
import { stricterState, TradingState, type TradingStateLayerReason } from './risk-types.js';
import { type TradingStateEntry, TradingStateSource } from './trading-state-persistence.js';

/**
 * Of two sources holding the same state, the one shown (and explained in a denial): the one that is
 * hardest to lift first. An operator's and a reconciliation's hold until reset by hand, a kill
 * switch until the next trading day, stale data until the data flows again.
 */
const SOURCE_RANK: Readonly<Record<TradingStateSource, number>> = {
  [TradingStateSource.MANUAL]: 0,
  [TradingStateSource.RECONCILIATION]: 1,
  [TradingStateSource.GUARD]: 2,
  [TradingStateSource.DAILY_LOSS]: 3,
  [TradingStateSource.STALE_DATA]: 4,
  [TradingStateSource.NEW_TRADING_DAY]: 5,
};

function inForceFirst(a: TradingStateEntry, b: TradingStateEntry): number {
  if (a.state !== b.state) return stricterState(a.state, b.state) === a.state ? -1 : 1;
  return (SOURCE_RANK[a.source] ?? 9) - (SOURCE_RANK[b.source] ?? 9);
}

/** One source's state, without the others. */
function own(entry: TradingStateEntry): TradingStateEntry {
  if (entry.beneath === undefined) return entry;
  const { beneath: _, ...rest } = entry;
  return rest;
}

/** The sources' states of a kept entry, the one in force first (none: the scope is ACTIVE). */
export function layersOf(entry: TradingStateEntry | undefined): TradingStateEntry[] {
  if (entry === undefined) return [];
  const layers = [own(entry)];
  for (const b of entry.beneath ?? []) layers.push(own(b));
  return layers;
}

/**
 * The entry to keep for these sources' states: the strictest in force, the others beneath it
 * (strictest first); null when none holds the scope (ACTIVE). One source gives a plain entry, as
 * entries were kept before sources stacked.
 */
export function entryOfLayers(layers: readonly TradingStateEntry[]): TradingStateEntry | null {
  const held = layers.filter((l) => l.state !== TradingState.ACTIVE).sort(inForceFirst);
  const [top, ...beneath] = held;
  if (top === undefined) return null;
  return beneath.length === 0 ? top : { ...top, beneath };
}

/** Whether a state lapsed by `nowMs` (a kill switch past its end). */
export function lapsed(layer: Pick<TradingStateLayerReason, 'untilMs'>, nowMs: number): boolean {
  return layer.untilMs != null && nowMs >= layer.untilMs;
}

/** One source's state for the status line: `HALTED (daily-loss: …; until …)`. */
export function describeLayer(layer: TradingStateLayerReason, describeTime: (ms: number) => string): string {
  const until = layer.untilMs == null ? '' : `; until ${describeTime(layer.untilMs)}`;
  return `${layer.state} (${layer.source}: ${layer.reason}${until})`;
}
