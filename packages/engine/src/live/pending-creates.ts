/**
 * The orders given but not yet judged, paper and live: a `ctx.submit` hands its id back at once,
 * and the order reaches the venue (and the store) only once the risk gate read what it needs (a
 * quote, a calendar, an instrument: broker reads that take milliseconds to seconds). A strategy that
 * keeps the id in `ctx.state` (written at once) and is killed meanwhile had, before, an id in its
 * state that no store row, open order or event ever named after the restart: the order was
 * silently gone (paper and live alike: live sent nothing to the broker).
 *
 * So each create is noted in the store (`strategy_state`, under the mode's owner: see
 * {@link PendingCreatesPlace}) synchronously as it is given, before its id is handed back
 * ({@link PendingCreates.note}, from the run's risk gate's `prepare`: `PendingCreatesGate`,
 * `PaperStoreGate`), and forgotten in memory once the gate judged it: its row is then written in the
 * same synchronous step (paper: by the venue's `OrderSubmitted`; live: the order manager writes the
 * create to its command journal before it sends it, and its order row right after, before its first
 * wait; a denial: the denied order's row). The next run settles what an earlier one left
 * ({@link PendingCreates.settle}): a create with no row (and no event journalled of it: a denial the
 * strategy heard of is not told again) never reached the venue, and ends as `OrderDenied`, code
 * {@link RUN_ENDED}, stored DENIED and told to its strategy before `onStart`, as the other events of
 * the time it was down are. It is not placed again: the market has moved on since the strategy
 * decided on it. A create whose row exists then is the venue's (live: the order manager's
 * reconciliation, which runs first, rebuilds a row its command journal holds).
 *
 * A modify or cancel given is noted likewise ({@link PendingCreates.noteChange}), and forgotten, in
 * the store too, once the gate judged it ({@link PendingCreates.judgedChange}: the order manager
 * then writes it to its command journal, or paper's venue takes it, in the same synchronous step; a
 * refusal is told then). One a kill left unjudged never reached the venue, and the order works on
 * as it was: the next start tells its strategy so before `onStart`, as `OrderCancelRejected` or
 * `OrderModifyRejected`, code {@link RUN_ENDED}, `sent: false` (before, nothing told it: a strategy
 * that had asked for a cancel found the order still working with no word of why). A change of an
 * order that ended meanwhile, whose create was lost with it, or with an earlier change still under
 * way at the venue, is dropped unsaid: the order's end, its denial or that change's answer says
 * what became of it.
 *
 * A note the store refuses (a full disk, the file locked by another process) is kept in memory and
 * written with the next note once a pause is over ({@link RetryPause}); a locked file is waited for
 * {@link NOTE_WAIT_MS} at most, and not at all while the store refuses. Before, each note waited
 * out the store's busy timeout on a locked file: a paper strategy ordering every bar stalled the
 * run once per order (`run-denied-while-refused.int.test.ts`: 21 stalls where the run's other
 * writes make one). The create goes on either way: only a kill before its row is written loses it.
 *
 * @module
 */
import {
  type ClientOrderId,
  Decimal,
  type Logger,
  newEventId,
  type OrderCancelRejected,
  type OrderDenied,
  type OrderIntent,
  type OrderModifyRejected,
  type OrderState,
  type StrategyId,
} from '@hoga/core';
import { type HogaDatabase, orderFromIntent } from '@hoga/store';
import type { CancelOrder, ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import type { EngineRuntime } from '../runtime/engine-runtime.js';
import { trackedOrderOf } from '../runtime/order-views.js';
import type { StrategyHost } from '../runtime/strategy-host.js';
import { RetryPause } from './retry-pause.js';

/** The code of a create the run ended before it judged (see the module documentation). */
export const RUN_ENDED = 'run-ended';

/** Where a mode keeps its creates given and not yet judged. */
export interface PendingCreatesPlace {
  /** The mode: the denied order's row is of it. */
  readonly mode: 'live' | 'paper';
  /** The `strategy_state` owner the creates are kept under (one a strategy's id cannot spell). */
  readonly owner: string;
  /**
   * The key a strategy's creates are kept under: paper one for all (one paper run per store), live
   * one per strategy (live runs on a store each hold their own strategies: none writes another's).
   */
  keyOf(strategyId: string): string;
  /** The word the log and the denial name the venue by (`paper venue`, `broker`). */
  readonly venue: string;
  /** Where a refused note is said to be (`onError`'s second argument). */
  readonly where: string;
}

/** See the module documentation. */
export class PendingCreates {
  /**
   * The creates given and not yet judged, by client order id, and the changes, by `change:` and
   * their command id: their key and what is stored (an intent, a {@link StoredChange}).
   */
  private readonly pending = new Map<string, { readonly key: string; readonly intent: unknown }>();
  /** The keys whose lists a refused write left unstored. */
  private readonly unstored = new Set<string>();
  /** When the store is tried again after it refused a note. */
  private readonly pause = new RetryPause();

  /**
   * @param db - the run's store
   * @param log - the run's (or the paper account's) logger
   * @param place - where the mode keeps them
   * @param onError - told of a write the store refused, with where (the create goes on: nothing is
   *   lost unless the process also dies before its row is written)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly log: Logger,
    private readonly place: PendingCreatesPlace,
    private readonly onError?: (error: unknown, where: string) => void,
  ) {}

  /** Notes a create as it is given: stored before its id is handed back to the strategy. */
  note(command: SubmitOrder): void {
    const key = this.place.keyOf(command.strategyId);
    const changed = new Set([key]);
    // one the gate never judged (its read failed: denied, its row written by the denial) is done too
    for (const [id, p] of this.pending)
      if (this.db.orders.get(id) !== null) {
        this.pending.delete(id);
        changed.add(p.key);
      }
    this.pending.set(command.intent.clientOrderId, {
      key,
      intent: JSON.parse(JSON.stringify(command.intent)),
    });
    this.write(changed);
  }

  /** The gate judged the create: its row is written in the same synchronous step. */
  judged(id: ClientOrderId): void {
    this.pending.delete(id);
  }

  /** Notes a modify or cancel as it is given: stored before `ctx.modify` or `ctx.cancel` returns. */
  noteChange(command: ModifyOrder | CancelOrder): void {
    const key = this.place.keyOf(command.strategyId);
    const change: StoredChange = {
      change: command.type === 'CancelOrder' ? 'cancel' : 'modify',
      commandId: command.commandId,
      clientOrderId: command.clientOrderId,
      strategyId: command.strategyId,
    };
    this.pending.set(changeKey(command), { key, intent: change });
    this.write([key]);
  }

  /**
   * The gate judged the change (or could not: its refresh failed, and its refusal is told now): it
   * is forgotten in the store too, so that no start after tells it as never judged.
   */
  judgedChange(command: ModifyOrder | CancelOrder): void {
    if (this.pending.delete(changeKey(command))) this.write([this.place.keyOf(command.strategyId)]);
  }

  /**
   * Settles the creates an earlier run of these strategies noted and never judged: each with no
   * row and no journalled event is stored DENIED and told to its strategy as `OrderDenied`
   * (`tell`), the strategy tracking it first so that `ctx.order(id)` there is the order. Call before
   * `onStart` (live: after the order manager's reconciliation, which rebuilds the rows of the creates
   * its command journal holds).
   *
   * @param tell - hands the denial to the strategy (and the journal): the venue's event stream, or
   *   the strategy's host at once
   */
  settle(
    runtime: EngineRuntime,
    nowMs: number,
    tell: (event: SettledEvent, host: StrategyHost | undefined) => void,
  ): void {
    const keys = new Set(runtime.hosts.map((h) => this.place.keyOf(h.strategyId)));
    const { owner, mode, venue } = this.place;
    for (const key of keys) {
      const saved = this.db.strategyState.get(owner, key);
      if (saved === undefined) continue;
      const lost: OrderIntent[] = [];
      for (const raw of Array.isArray(saved) ? (saved as Record<string, unknown>[]) : []) {
        const intent = intentOf(raw);
        if (intent === null || this.db.orders.get(intent.clientOrderId) !== null) continue;
        if (this.db.journal.forOrder(intent.clientOrderId).length > 0) continue;
        lost.push(intent);
      }
      if (lost.length > 0)
        this.log.info(
          { orders: lost.map((i) => i.clientOrderId) },
          `${mode} orders given before the last run ended and never judged: denied`,
        );
      for (const intent of lost) {
        const event: OrderDenied = {
          type: 'OrderDenied',
          eventId: newEventId(),
          clientOrderId: intent.clientOrderId,
          ...(intent.strategyId === undefined ? {} : { strategyId: intent.strategyId }),
          tsEvent: nowMs,
          tsInit: nowMs,
          code: RUN_ENDED,
          reason: `the ${mode} run ended (stopped or killed) before this order was checked: it never reached the ${venue}; place it again if it is still wanted`,
        };
        this.db.orders.recordIntent({
          ...orderFromIntent(intent, { mode, state: 'DENIED', createdAt: nowMs }),
          strategyId: intent.strategyId ?? null,
        });
        this.db.orders.updateState(intent.clientOrderId, {
          state: 'DENIED',
          updatedAt: nowMs,
          rejectReason: `${RUN_ENDED}: ${event.reason}`,
        });
        const host = runtime.hosts.find((h) => h.strategyId === intent.strategyId);
        if (host !== undefined && !host.owns(intent.clientOrderId)) host.track(trackedOrderOf(intent));
        tell(event, host);
      }
      // the changes after the creates: a change of a create just denied is dropped unsaid
      for (const raw of Array.isArray(saved) ? (saved as Record<string, unknown>[]) : []) {
        const change = changeOf(raw);
        if (change !== null) this.settleChange(change, runtime, nowMs, tell);
      }
      this.db.strategyState.delete(owner, key);
    }
  }

  /** Tells a change never judged to its strategy, while its order works on (see the module documentation). */
  private settleChange(
    change: StoredChange,
    runtime: EngineRuntime,
    nowMs: number,
    tell: (event: SettledEvent, host: StrategyHost | undefined) => void,
  ): void {
    // told only of an order working with no other change under way: one that ended, or whose
    // earlier change the venue still answers (a view restarted with it pending would take this
    // refusal for that change's), is dropped unsaid, that end or answer saying what became of it
    const row = this.db.orders.get(change.clientOrderId);
    if (row === null || !TELLABLE.has(row.state as OrderState)) return;
    const host = runtime.hosts.find((h) => h.strategyId === change.strategyId);
    if (host === undefined || !host.owns(change.clientOrderId)) return;
    const { mode, venue } = this.place;
    this.log.info(
      { clientOrderId: change.clientOrderId, change: change.change },
      `a ${mode} ${change.change} given before the last run ended and never judged: the order works on as it was`,
    );
    const base = {
      eventId: newEventId(),
      clientOrderId: change.clientOrderId,
      strategyId: change.strategyId as StrategyId,
      tsEvent: nowMs,
      tsInit: nowMs,
      code: RUN_ENDED,
      reason: `the ${mode} run ended (stopped or killed) before this ${change.change} was checked: it never reached the ${venue}, and the order works on as it was; give it again if it is still wanted`,
      sent: false,
    };
    tell(
      change.change === 'cancel'
        ? { type: 'OrderCancelRejected', ...base }
        : { type: 'OrderModifyRejected', ...base },
      host,
    );
  }

  /**
   * Stores the lists of `keys` (and of those a refused write left unstored), unless a refused write
   * paused the tries: a file another process holds locked is waited for {@link NOTE_WAIT_MS} at
   * most, then not at all until it took a write again (better-sqlite3 blocks the run meanwhile: a
   * strategy ordering every bar stalled the run once for each order, the busy timeout long).
   */
  private write(keys: Iterable<string>): void {
    for (const key of keys) this.unstored.add(key);
    if (!this.pause.due()) return;
    const { owner } = this.place;
    try {
      withBusyWait(this.db, this.pause.refusing ? 0 : NOTE_WAIT_MS, () =>
        this.db.transaction(() => {
          for (const key of this.unstored) {
            const intents = [...this.pending.values()].filter((p) => p.key === key).map((p) => p.intent);
            if (intents.length === 0) this.db.strategyState.delete(owner, key);
            else this.db.strategyState.set(owner, key, intents);
          }
        }),
      );
      this.unstored.clear();
      this.pause.stored();
    } catch (error) {
      this.pause.refused();
      this.onError?.(error, this.place.where);
    }
  }
}

/** The longest a note waits for a file another process holds locked (ms). */
export const NOTE_WAIT_MS = 100;

/** Runs `fn` with the connection's busy timeout at most `ms`, restored after. */
function withBusyWait<T>(db: HogaDatabase, ms: number, fn: () => T): T {
  const connection = db.connection;
  const timeout = connection.pragma('busy_timeout', { simple: true }) as number;
  if (timeout <= ms) return fn();
  connection.pragma(`busy_timeout = ${ms}`);
  try {
    return fn();
  } finally {
    connection.pragma(`busy_timeout = ${timeout}`);
  }
}

/** The states of an order a change never judged is told of (see {@link PendingCreates.settle}). */
const TELLABLE: ReadonlySet<OrderState> = new Set(['SUBMITTED', 'ACCEPTED', 'PARTIALLY_FILLED']);

/** What {@link PendingCreates.settle} tells a strategy: a create's denial, a change's refusal. */
export type SettledEvent = OrderDenied | OrderCancelRejected | OrderModifyRejected;

/** A modify or cancel given and not yet judged, as stored beside the creates. */
interface StoredChange {
  readonly change: 'cancel' | 'modify';
  readonly commandId: string;
  readonly clientOrderId: ClientOrderId;
  readonly strategyId: string;
}

/** The key a change is kept under in memory (a client order id has no `:`-led `change` prefix). */
function changeKey(command: ModifyOrder | CancelOrder): string {
  return `change:${command.commandId}`;
}

/** A stored change back; null when the entry is not one (a create's intent). */
function changeOf(raw: Record<string, unknown>): StoredChange | null {
  if (raw.change !== 'cancel' && raw.change !== 'modify') return null;
  if (typeof raw.clientOrderId !== 'string' || typeof raw.strategyId !== 'string') return null;
  return {
    change: raw.change,
    commandId: String(raw.commandId),
    clientOrderId: raw.clientOrderId as ClientOrderId,
    strategyId: raw.strategyId,
  };
}

/** A stored intent back as an `OrderIntent` (its decimals as `Decimal`); null when it is not one. */
function intentOf(raw: Record<string, unknown>): OrderIntent | null {
  if (typeof raw.clientOrderId !== 'string' || typeof raw.instrument !== 'object' || raw.instrument === null)
    return null;
  const decimal = (v: unknown) => (v === undefined || v === null ? {} : { value: new Decimal(String(v)) });
  const out: Record<string, unknown> = { ...raw, strategyId: raw.strategyId as StrategyId | undefined };
  for (const field of ['quantity', 'price', 'amount'] as const) {
    const d = decimal(raw[field]);
    if ('value' in d) out[field] = d.value;
  }
  return Object.freeze(out) as unknown as OrderIntent;
}

/**
 * The `strategy_state` owner live keeps its creates given and not yet judged under, one key per
 * strategy id (no strategy's state can be kept under it: strategy ids have no `/`).
 */
export const LIVE_CREATES_OWNER = 'live/_submitting';

/** Live's creates given and not yet judged (see the module documentation). */
export function livePendingCreates(
  db: HogaDatabase,
  log: Logger,
  onError?: (error: unknown, where: string) => void,
): PendingCreates {
  return new PendingCreates(
    db,
    log,
    {
      mode: 'live',
      owner: LIVE_CREATES_OWNER,
      keyOf: (strategyId) => strategyId,
      venue: 'broker',
      where: 'pending-creates',
    },
    onError,
  );
}
