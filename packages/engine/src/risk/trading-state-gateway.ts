/**
 * The one gateway that holds the trading states (ACTIVE, REDUCING, HALTED) of the account, each
 * strategy and each symbol. Guards, stale data, reconciliation and operators change them through
 * it; every change is a `TradingStateChanged` event in the journal with its reason.
 *
 * @module
 */
import { type Clock, newEventId } from '@hoga/core';
import { type Observable, Subject } from 'rxjs';
import { type RiskScope, scopeKey, scopeOfKey, stricterState, TradingState } from './risk-types.js';
import {
  type TradingStateChanged,
  type TradingStateEntry,
  type TradingStatePersistence,
  TradingStateSource,
} from './trading-state-persistence.js';
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

/** Holds and changes the trading states. */
export class TradingStateGateway {
  private entries: Map<string, TradingStateEntry>;
  /** The persistence's revision the entries were read at (undefined: read again on every sync). */
  private loaded: number | undefined;
  private readonly changes = new Subject<TradingStateChanged>();
  /** Every change, as it happens. */
  readonly changes$: Observable<TradingStateChanged> = this.changes.asObservable();

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

  /** The state of a scope (ACTIVE when unset); a kill switch past its end lapses here. */
  state(scope: RiskScope): TradingState {
    return this.entry(scope)?.state ?? TradingState.ACTIVE;
  }

  /** The kept entry of a scope, or undefined when ACTIVE. */
  entry(scope: RiskScope): TradingStateEntry | undefined {
    const key = scopeKey(scope);
    const entry = this.entries.get(key);
    if (entry?.untilMs != null && this.clock.nowMs() >= entry.untilMs) {
      this.apply(
        scope,
        TradingState.ACTIVE,
        TradingStateSource.NEW_TRADING_DAY,
        'a new trading day began',
        null,
      );
      return undefined;
    }
    return entry;
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

  /**
   * Sets a scope's state. A no-op when the state and source are unchanged; a stricter state is
   * never loosened by a different source (stale data does not lift a halt), except by hand; nor is
   * a kill switch (source `daily-loss`) replaced by the same state of another source before it
   * lapses, except by hand (stale data's REDUCING over a `reduce` kill switch's lost its end, and
   * the data's recovery then lifted it); nor is a state set by hand replaced by the same state of
   * another source (a kill switch's HALTED over an operator's gave it an end: it lapsed the next day).
   *
   * @returns whether the state changed
   */
  set(
    scope: RiskScope,
    to: TradingState,
    source: TradingStateSource,
    reason: string,
    untilMs: number | null = null,
  ): boolean {
    const current = this.entry(scope);
    const from = current?.state ?? TradingState.ACTIVE;
    if (current !== undefined && current.state === to && current.source === source) return false;
    if (
      current?.state === to &&
      (current.source === TradingStateSource.DAILY_LOSS || current.source === TradingStateSource.MANUAL) &&
      source !== TradingStateSource.MANUAL
    ) {
      return false;
    }
    if (source !== TradingStateSource.MANUAL && stricterState(from, to) === from && from !== to) return false;
    this.apply(scope, to, source, reason, untilMs);
    return true;
  }

  /** Lifts a scope back to ACTIVE if, and only if, `source` set it (stale data recovering). */
  liftIf(scope: RiskScope, source: TradingStateSource, reason: string): boolean {
    const current = this.entry(scope);
    if (current === undefined || current.source !== source) return false;
    this.apply(scope, TradingState.ACTIVE, source, reason, null);
    return true;
  }

  /**
   * Manual reset (`hoga risk reset`): the named scopes, or every scope that is not ACTIVE, back to
   * ACTIVE.
   *
   * @returns the scopes reset
   */
  reset(reason: string, scopes?: readonly RiskScope[]): RiskScope[] {
    this.sync();
    const targets = scopes ?? [...this.entries.keys()].map(scopeOfKey);
    const done: RiskScope[] = [];
    for (const scope of targets) {
      if (this.state(scope) === TradingState.ACTIVE) continue;
      this.apply(scope, TradingState.ACTIVE, TradingStateSource.MANUAL, reason, null);
      done.push(scope);
    }
    return done;
  }

  /** Every scope that is not ACTIVE, by scope key. */
  snapshot(): ReadonlyMap<string, TradingStateEntry> {
    for (const key of [...this.entries.keys()]) this.entry(scopeOfKey(key));
    return new Map(this.entries);
  }

  /**
   * One line for the status display: `all ACTIVE` or each restricted scope with its reason, and
   * until when where it lapses by itself (a kill switch).
   */
  statusLine(): string {
    const restricted = [...this.snapshot()].map(
      ([key, e]) =>
        `${key} ${e.state} (${e.source}: ${e.reason}${e.untilMs == null ? '' : `; until ${describeKst(e.untilMs)}`})`,
    );
    return restricted.length === 0 ? 'risk: all ACTIVE' : `risk: ${restricted.join('; ')}`;
  }

  /** Ends the change stream. */
  dispose(): void {
    this.changes.complete();
  }

  private apply(
    scope: RiskScope,
    to: TradingState,
    source: TradingStateSource,
    reason: string,
    untilMs: number | null,
  ): void {
    const key = scopeKey(scope);
    const from = this.entries.get(key)?.state ?? TradingState.ACTIVE;
    const nowMs = this.clock.nowMs();
    const entry: TradingStateEntry | null =
      to === TradingState.ACTIVE ? null : { state: to, source, reason, sinceMs: nowMs, untilMs };
    if (entry === null) this.entries.delete(key);
    else this.entries.set(key, entry);
    const event: TradingStateChanged = {
      type: 'TradingStateChanged',
      eventId: newEventId(),
      scope: key,
      ...(scope.kind === 'strategy' ? { strategyId: scope.strategyId } : {}),
      from,
      to,
      source,
      reason,
      untilMs,
      tsEvent: nowMs,
      tsInit: nowMs,
    };
    this.persistence.save(key, entry);
    this.persistence.journal(event);
    this.changes.next(event);
  }
}
