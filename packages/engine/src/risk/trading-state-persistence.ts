/**
 * Where the trading-state gateway keeps its states (so a halt survives a restart and `hoga risk
 * reset` in another process reaches a running engine) and journals its changes.
 *
 * @module
 */
import type { HogaDatabase, TradingMode } from '@hoga/store';
import type { TradingState } from './risk-types.js';

/** What set a trading state. */
export const TradingStateSource = {
  /** A guard (for example the kill switch of the daily loss limit). */
  GUARD: 'guard',
  /** The daily loss limit's kill switch. */
  DAILY_LOSS: 'daily-loss',
  /** No successful order-history poll or price for too long. */
  STALE_DATA: 'stale-data',
  /** Reconciliation found the broker and hoga disagree on a symbol. */
  RECONCILIATION: 'reconciliation',
  /** An operator (`hoga risk`, the API). */
  MANUAL: 'manual',
  /** A new trading day lifted a kill switch. */
  NEW_TRADING_DAY: 'new-trading-day',
} as const;
/** What set a trading state. */
export type TradingStateSource = (typeof TradingStateSource)[keyof typeof TradingStateSource];

/**
 * A scope's state, as kept: the state in force (the strictest any source holds, its source,
 * reason and times) and, in `beneath`, what the other sources hold of the same scope.
 */
export interface TradingStateEntry {
  readonly state: TradingState;
  readonly source: TradingStateSource;
  readonly reason: string;
  /** When it was set, epoch ms. */
  readonly sinceMs: number;
  /** When it lapses by itself (the kill switch: the next trading day), or null. */
  readonly untilMs: number | null;
  /**
   * The states the other sources hold of the scope, strictest first (each without `beneath`):
   * shown once the one in force is lifted or lapses. Absent when one source holds the scope (and in
   * entries kept before sources stacked, which load as that).
   */
  readonly beneath?: readonly TradingStateEntry[];
}

/** A change of trading state: journalled, shown in the status line. */
export interface TradingStateChanged {
  readonly type: 'TradingStateChanged';
  readonly eventId: string;
  /** `account`, `strategy:<id>` or `symbol:<code>`. */
  readonly scope: string;
  /** The strategy, for a strategy scope. */
  readonly strategyId?: string;
  readonly from: TradingState;
  readonly to: TradingState;
  /** What caused the change (a source setting or lifting its state, a kill switch lapsing, an operator). */
  readonly source: TradingStateSource;
  readonly reason: string;
  /** When the new state lapses by itself, or null. */
  readonly untilMs: number | null;
  /**
   * The source (and its reason) that holds the new state, when that is not the one that caused the
   * change: a kill switch lapsing shows an operator's REDUCING that was beneath it.
   */
  readonly heldBy?: { readonly source: TradingStateSource; readonly reason: string };
  readonly tsEvent: number;
  readonly tsInit: number;
}

/**
 * A source set or lifted its own state of a scope while the scope's state in force stayed as it was
 * (a kill switch tripping under an operator's halt, stale data recovering under a kill switch):
 * journalled, so the record tells why the scope is held, but not a {@link TradingStateChanged}.
 */
export interface TradingStateSourceChanged {
  readonly type: 'TradingStateSourceChanged';
  readonly eventId: string;
  /** `account`, `strategy:<id>` or `symbol:<code>`. */
  readonly scope: string;
  /** The strategy, for a strategy scope. */
  readonly strategyId?: string;
  /** The source's own state before and after (ACTIVE: it held none). */
  readonly from: TradingState;
  readonly to: TradingState;
  readonly source: TradingStateSource;
  readonly reason: string;
  readonly untilMs: number | null;
  /** The scope's state in force, unchanged. */
  readonly state: TradingState;
  readonly tsEvent: number;
  readonly tsInit: number;
}

/** What the gateway journals. */
export type TradingStateEvent = TradingStateChanged | TradingStateSourceChanged;

/** Storage of the gateway. */
export interface TradingStatePersistence {
  /** Every scope that is not ACTIVE, by scope key. */
  load(): Map<string, TradingStateEntry>;
  /** Keeps a scope's entry (null: ACTIVE, removed). */
  save(scopeKey: string, entry: TradingStateEntry | null): void;
  /** Appends a change to the journal. */
  journal(event: TradingStateEvent): void;
  /**
   * A number that changes whenever the kept states change (each save). Storage that another process
   * may change leaves it out, and is read again on every sync.
   */
  revision?(): number;
}

/** In-memory storage (backtests, unit tests); the journal is an array. */
export class MemoryTradingStatePersistence implements TradingStatePersistence {
  private readonly entries = new Map<string, TradingStateEntry>();
  private saves = 0;
  /** Every journalled change, oldest first. */
  readonly journalled: TradingStateEvent[] = [];

  load(): Map<string, TradingStateEntry> {
    return new Map(this.entries);
  }
  save(scopeKey: string, entry: TradingStateEntry | null): void {
    this.saves += 1;
    if (entry === null) this.entries.delete(scopeKey);
    else this.entries.set(scopeKey, entry);
  }
  /** Only this process writes memory: the count of saves tells a sync whether to read again. */
  revision(): number {
    return this.saves;
  }
  journal(event: TradingStateEvent): void {
    this.journalled.push(event);
  }
}

/** The `strategy_state` owner id under which the risk module keeps live trading states. */
export const RISK_STATE_OWNER = '__risk__';

/**
 * The `strategy_state` owner of a mode's trading states: `__risk__` live, `paper/__risk__` paper
 * (as a paper strategy's own state is kept under `paper/`): a paper run's kill switch or a paper
 * halt set by hand never restricts live trading on the same store, nor the other way round.
 *
 * @param mode - the session's mode
 */
export function riskStateOwner(mode: TradingMode): string {
  return mode === 'paper' ? `paper/${RISK_STATE_OWNER}` : RISK_STATE_OWNER;
}

/**
 * Storage in the store: states in `strategy_state` (owner {@link riskStateOwner} of the mode),
 * changes in the journal.
 */
export class StoreTradingStatePersistence implements TradingStatePersistence {
  /**
   * @param db - the open store
   * @param mode - the session's mode, written with each journal entry
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly mode: TradingMode,
  ) {}

  load(): Map<string, TradingStateEntry> {
    const out = new Map<string, TradingStateEntry>();
    for (const [key, value] of this.db.strategyState.entries(riskStateOwner(this.mode))) {
      out.set(key, value as TradingStateEntry);
    }
    return out;
  }
  save(scopeKey: string, entry: TradingStateEntry | null): void {
    if (entry === null) this.db.strategyState.delete(riskStateOwner(this.mode), scopeKey);
    else this.db.strategyState.set(riskStateOwner(this.mode), scopeKey, entry);
  }
  journal(event: TradingStateEvent): void {
    this.db.journal.append({
      type: event.type,
      tsEvent: event.tsEvent,
      tsInit: event.tsInit,
      mode: this.mode,
      strategyId: event.strategyId ?? null,
      payload: event,
    });
  }
}
