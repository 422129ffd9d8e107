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

/** A scope's current state, as kept. */
export interface TradingStateEntry {
  readonly state: TradingState;
  readonly source: TradingStateSource;
  readonly reason: string;
  /** When it was set, epoch ms. */
  readonly sinceMs: number;
  /** When it lapses by itself (the kill switch: the next trading day), or null. */
  readonly untilMs: number | null;
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
  readonly source: TradingStateSource;
  readonly reason: string;
  readonly untilMs: number | null;
  readonly tsEvent: number;
  readonly tsInit: number;
}

/** Storage of the gateway. */
export interface TradingStatePersistence {
  /** Every scope that is not ACTIVE, by scope key. */
  load(): Map<string, TradingStateEntry>;
  /** Keeps a scope's entry (null: ACTIVE, removed). */
  save(scopeKey: string, entry: TradingStateEntry | null): void;
  /** Appends a change to the journal. */
  journal(event: TradingStateChanged): void;
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
  readonly journalled: TradingStateChanged[] = [];

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
  journal(event: TradingStateChanged): void {
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
  journal(event: TradingStateChanged): void {
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
