/**
 * The one gateway that holds the trading states (ACTIVE, REDUCING, HALTED) of the account, each
 * strategy and each symbol. Guards, stale data, reconciliation and operators change them through
 * it. Each source holds its own state of a scope; the scope's state in force is the strictest of
 * them, so a source lifting its own (stale data recovering, a kill switch lapsing) shows what the
 * others hold. Every change of a scope's state in force is a `TradingStateChanged` event in the
 * journal with the source that caused it; a source's change that leaves it as it was is a
 * `TradingStateSourceChanged` event.
 *
 * @module
 */
import { type Clock, newEventId } from '@hoga/core';
import { type Observable, Subject } from 'rxjs';
import {
  type RiskScope,
  scopeKey,
  scopeOfKey,
  stricterState,
  TradingState,
  type TradingStateLayerReason,
} from './risk-types.js';
import { describeLayer, entryOfLayers, lapsed, layersOf } from './trading-state-layers.js';
import {
  type TradingStateChanged,
  type TradingStateEntry,
  type TradingStatePersistence,
  TradingStateSource,
} from './trading-state-persistence.js';
import { statusLineOf } from './trading-state-view.js';
import { describeKst } from './valuation.js';

/** The three states that bear on one order: the account's, its strategy's and its symbol's. */
export interface EffectiveStates {
  readonly account: TradingState;
  readonly strategy: TradingState;
  readonly symbol: TradingState;
}

/** Every scope ACTIVE (the answer while no state is kept). */
const ALL_ACTIVE: EffectiveStates = Object.freeze({
  account: TradingState.ACTIVE,
  strategy: TradingState.ACTIVE,
  symbol: TradingState.ACTIVE,
});

/** A scope `hoga risk reset` lifted, with what each source held of it. */
export interface ResetScope {
  readonly scope: RiskScope;
  /** The sources' states cleared, the one in force first. */
  readonly cleared: readonly TradingStateEntry[];
  /**
   * The sources' states the reset found past their end (a kill switch at the next trading day, with
   * no process there to lapse it), lifted with the others; absent when none.
   */
  readonly lapsed?: readonly TradingStateEntry[];
}

/**
 * One source's state of a scope as the status line shows it: `HALTED (daily-loss: …; until …)`
 * (what `hoga risk reset` says it cleared).
 */
export function describeTradingState(layer: TradingStateLayerReason): string {
  return describeLayer(layer, describeKst);
}

/** One source's state of a scope changing: from (ACTIVE: it held none) to (ACTIVE: lifted). */
interface SourceChange {
  readonly source: TradingStateSource;
  readonly from: TradingState;
  readonly to: TradingState;
  readonly reason: string;
  readonly untilMs: number | null;
}

/** What caused a change: the event's source and reason. */
interface Cause {
  readonly source: TradingStateSource;
  readonly reason: string;
}

const NEW_DAY: Cause = { source: TradingStateSource.NEW_TRADING_DAY, reason: 'a new trading day began' };

/** Holds and changes the trading states. */
export class TradingStateGateway {
  /** Each restricted scope's entry: the state in force, the other sources' beneath it. */
  private entries: Map<string, TradingStateEntry>;
  /** The persistence's revision the entries were read at (undefined: read again on every sync). */
  private loaded: number | undefined;
  private readonly changes = new Subject<TradingStateChanged>();
  /** Every change of a scope's state in force, as it happens. */
  readonly changes$: Observable<TradingStateChanged> = this.changes.asObservable();
  /**
   * How long before the clock's instant a state's end is judged, ms: a backtest's
   * `BAR_CLOSE_DAY_SHIFT_MS` (a kill switch ending at a day's start still holds at a bar stamped
   * there, which closes the day before), else 0.
   */
  dayShiftMs = 0;

  /**
   * @param clock - the engine clock (times of changes, lapse of kill switches)
   * @param persistence - where states are kept and changes journalled
   */
  constructor(
    private readonly clock: Clock,
    private readonly persistence: TradingStatePersistence,
  ) {
    this.loaded = persistence.revision?.();
    this.entries = persistence.load();
  }

  /**
   * Re-reads the kept states (another process, e.g. `hoga risk reset`, may have changed them); a
   * persistence with a revision is read again only when it changed.
   */
  sync(): void {
    const revision = this.persistence.revision?.();
    if (revision !== undefined && revision === this.loaded) return;
    this.loaded = revision;
    this.entries = this.persistence.load();
  }

  /** The state in force of a scope (ACTIVE when unset); a kill switch past its end lapses here. */
  state(scope: RiskScope): TradingState {
    return this.entry(scope)?.state ?? TradingState.ACTIVE;
  }

  /**
   * The kept entry of a scope (the state in force, the other sources' `beneath` it), or undefined
   * when ACTIVE.
   */
  entry(scope: RiskScope): TradingStateEntry | undefined {
    const key = scopeKey(scope);
    const cached = this.entries.get(key);
    if (cached?.untilMs == null || this.lapseNowMs() < cached.untilMs) return cached;
    // the state in force lapsed (a kill switch at the next trading day): what the others hold shows,
    // as kept now (what `hoga risk` set since the last read stays)
    this.sync();
    const entry = this.entries.get(key);
    if (entry?.untilMs == null || this.lapseNowMs() < entry.untilMs) return entry;
    const layers = this.current(scope, entry);
    return this.commit(scope, layers.kept, NEW_DAY, layers.lapsed) ?? undefined;
  }

  /** The account's, the strategy's and the symbol's states. */
  effective(strategyId: string, symbol: string): EffectiveStates {
    // nothing kept: everything ACTIVE (and no kill switch to lapse)
    if (this.entries.size === 0) return ALL_ACTIVE;
    return {
      account: this.state({ kind: 'account' }),
      strategy: this.state({ kind: 'strategy', strategyId }),
      symbol: this.state({ kind: 'symbol', symbol }),
    };
  }

  /** The state `source` holds of a scope (past the scope's state in force), or undefined. */
  held(scope: RiskScope, source: TradingStateSource): TradingStateEntry | undefined {
    const entry = this.entry(scope);
    if (entry === undefined) return undefined;
    const nowMs = this.lapseNowMs();
    return layersOf(entry).find((l) => l.source === source && !lapsed(l, nowMs));
  }

  /**
   * Sets the state `source` holds of a scope (ACTIVE: lifts it); the scope shows the strictest any
   * source holds. A no-op when the source already holds `to`. By hand (source `manual`) the scope
   * is set to `to` outright: the states of other sources stricter than `to` are lifted with it
   * (ACTIVE lifts every source's, as {@link reset}), those as strict or looser stay beneath.
   *
   * @returns whether the source's state (by hand: the scope's) changed
   */
  set(
    scope: RiskScope,
    to: TradingState,
    source: TradingStateSource,
    reason: string,
    untilMs: number | null = null,
  ): boolean {
    // a change is made on the states as kept now: `hoga risk` (or another engine) may have changed
    // the scope since the last read, and what it set must stay (read again only for a change)
    if (this.setting(scope, to, source) === undefined) return false;
    this.sync();
    // a state in force past its end lapses first, as a read of the scope lapses it: the change is
    // then one from what holds now (a kill switch tripping again on a later day, with nothing read
    // in between, was journalled as no change of the state in force, and a backtest missed its halt)
    this.entry(scope);
    const change = this.setting(scope, to, source);
    if (change === undefined) return false;
    const { others, from, gone } = change;
    const layers =
      to === TradingState.ACTIVE
        ? others
        : [...others, { state: to, source, reason, sinceMs: this.clock.nowMs(), untilMs }];
    this.commit(scope, layers, { source, reason }, [...gone, { source, from, to, reason, untilMs }]);
    return true;
  }

  /** Lifts the state `source` holds of a scope, if it holds one (stale data recovering). */
  liftIf(scope: RiskScope, source: TradingStateSource, reason: string): boolean {
    if (!this.current(scope).kept.some((l) => l.source === source)) return false;
    // as in set: on the states as kept now (an operator's reset since the last read stays), a
    // state in force past its end lapsed first
    this.sync();
    this.entry(scope);
    const { kept, lapsed: gone } = this.current(scope);
    const mine = kept.find((l) => l.source === source);
    if (mine === undefined) return false;
    const change = { source, from: mine.state, to: TradingState.ACTIVE, reason, untilMs: null };
    this.commit(
      scope,
      kept.filter((l) => l !== mine),
      { source, reason },
      [...gone, change],
    );
    return true;
  }

  /**
   * What {@link set} would change on the states held now: the other sources' states that stay, the
   * source's own state before and those past their end; undefined when it would change nothing.
   */
  private setting(
    scope: RiskScope,
    to: TradingState,
    source: TradingStateSource,
  ): { others: TradingStateEntry[]; from: TradingState; gone: SourceChange[] } | undefined {
    const { kept, lapsed: gone } = this.current(scope);
    const byHand = source === TradingStateSource.MANUAL;
    const mine = kept.find((l) => l.source === source);
    const from = mine?.state ?? TradingState.ACTIVE;
    // by hand, the states of other sources stricter than `to` go
    const loosened = (l: TradingStateEntry) =>
      byHand && l.state !== to && stricterState(l.state, to) === l.state;
    const others = kept.filter((l) => l.source !== source && !loosened(l));
    if (from === to && others.length + (mine === undefined ? 0 : 1) === kept.length) return undefined;
    return { others, from, gone };
  }

  /**
   * Manual reset (`hoga risk reset`): the named scopes, or every scope that is not ACTIVE, back to
   * ACTIVE, whichever sources held them.
   *
   * @returns the scopes where it found a state, each with the sources' states it cleared (the one
   *   in force first) and those it found past their end (`lapsed`: they lapse first, journalled as
   *   the next trading day's, as any read of the scope would lapse them)
   */
  reset(reason: string, scopes?: readonly RiskScope[]): ResetScope[] {
    this.sync();
    const targets = scopes ?? [...this.entries.keys()].map(scopeOfKey);
    const done: ResetScope[] = [];
    for (const scope of targets) {
      const entry = this.entries.get(scopeKey(scope));
      if (entry === undefined) continue;
      const nowMs = this.lapseNowMs();
      const gone = layersOf(entry).filter((l) => lapsed(l, nowMs));
      const { kept, lapsed: changes } = this.current(scope, entry);
      if (gone.length > 0) this.commit(scope, kept, NEW_DAY, changes);
      if (kept.length > 0) this.commit(scope, [], { source: TradingStateSource.MANUAL, reason }, []);
      done.push(gone.length === 0 ? { scope, cleared: kept } : { scope, cleared: kept, lapsed: gone });
    }
    return done;
  }

  /** Every scope that is not ACTIVE, by scope key (states past their end lapse first). */
  snapshot(): ReadonlyMap<string, TradingStateEntry> {
    for (const key of [...this.entries.keys()]) {
      const scope = scopeOfKey(key);
      const entry = this.entry(scope);
      if (entry?.beneath === undefined) continue;
      const layers = this.current(scope, entry);
      if (layers.lapsed.length > 0) this.commit(scope, layers.kept, NEW_DAY, layers.lapsed);
    }
    return new Map(this.entries);
  }

  /**
   * One line for the status display: `all ACTIVE` or each restricted scope with its reason, and
   * until when where it lapses by itself (a kill switch); what other sources hold of the scope
   * follows, `over` it.
   */
  statusLine(): string {
    return statusLineOf(this.snapshot());
  }

  /** Ends the change stream. */
  dispose(): void {
    this.changes.complete();
  }

  /** The instant states' ends are judged at (see {@link TradingStateGateway.dayShiftMs}). */
  private lapseNowMs(): number {
    return this.clock.nowMs() - this.dayShiftMs;
  }

  /** The sources' states of a scope: those in force and those past their end. */
  private current(
    scope: RiskScope,
    entry: TradingStateEntry | undefined = this.entries.get(scopeKey(scope)),
  ): { kept: TradingStateEntry[]; lapsed: SourceChange[] } {
    const nowMs = this.lapseNowMs();
    const kept: TradingStateEntry[] = [];
    const gone: SourceChange[] = [];
    for (const l of layersOf(entry)) {
      if (!lapsed(l, nowMs)) kept.push(l);
      else
        gone.push({
          source: l.source,
          from: l.state,
          to: TradingState.ACTIVE,
          reason: NEW_DAY.reason,
          untilMs: null,
        });
    }
    return { kept, lapsed: gone };
  }

  /**
   * Keeps a scope's new sources' states and journals the change: one `TradingStateChanged` (with its
   * cause) when the state in force changed, else a `TradingStateSourceChanged` per source changed.
   *
   * @returns the scope's new entry (null: ACTIVE)
   */
  private commit(
    scope: RiskScope,
    layers: readonly TradingStateEntry[],
    cause: Cause,
    sources: readonly SourceChange[],
  ): TradingStateEntry | null {
    const key = scopeKey(scope);
    const from = this.entries.get(key)?.state ?? TradingState.ACTIVE;
    const entry = entryOfLayers(layers);
    const to = entry?.state ?? TradingState.ACTIVE;
    const nowMs = this.clock.nowMs();
    if (entry === null) this.entries.delete(key);
    else this.entries.set(key, entry);
    this.persistence.save(key, entry);
    const common = {
      scope: key,
      ...(scope.kind === 'strategy' ? { strategyId: scope.strategyId } : {}),
      tsEvent: nowMs,
      tsInit: nowMs,
    };
    if (from !== to) {
      const event: TradingStateChanged = {
        type: 'TradingStateChanged',
        eventId: newEventId(),
        ...common,
        from,
        to,
        source: cause.source,
        reason: cause.reason,
        untilMs: entry?.untilMs ?? null,
        ...(entry !== null && entry.source !== cause.source
          ? { heldBy: { source: entry.source, reason: entry.reason } }
          : {}),
      };
      this.persistence.journal(event);
      this.changes.next(event);
      return entry;
    }
    for (const c of sources) {
      this.persistence.journal({
        type: 'TradingStateSourceChanged',
        eventId: newEventId(),
        ...common,
        ...c,
        state: to,
      });
    }
    return entry;
  }
}
