/**
 * What a paper run keeps in the store, written so that a crash or a refused write never splits it,
 * and told to the run only once kept (persist, then publish): each order event's rows in the
 * `orders` and `fills` tables ({@link PaperOrderTables}) and the paper ledger with the open orders
 * it produced (`strategy_state` of `paper/_account`), in ONE transaction; and the event is handed
 * to the runtime (its strategy's `onOrderEvent` and `onFill`, its books, the risk module, the run's
 * journal and output) once that transaction has committed, as live's order manager stores a fill
 * before it tells anyone. The store holds a fill with the ledger and the open order it changed, or
 * none of them; and the strategy has heard of exactly what the store holds, but for a kill between
 * the commit and the telling: each fill is noted untold in the transaction that stores it and the
 * note dropped once told, so the next paper start tells what such a kill left (`untold-events.ts`;
 * before, the fill was stored and booked and never told).
 *
 * Before, the ledger and the open orders were saved in one transaction and the fill's rows in
 * another: a crash between them, or a refused write of the second, left the ledger with a fill
 * `hoga db fills` did not list; and a refused ledger write was thrown out of the venue's event
 * handler, failing the run as an "uncaught exception" whose stop threw again. And until the
 * events waited for the store, the venue's events reached the runtime whether or not the store
 * took them: a fill the store refused, then a crash, and the restarted run filled that order again,
 * its strategy (whose `ctx.state` may have counted the first) hearing of a second fill of the same
 * order, the journal listing both.
 *
 * A write the store refuses (disk full, an I/O error, the file locked past the busy timeout) is
 * told to `onError` (`paper-store`) and the run goes on: the events wait in memory, in order (the
 * refused ones and every one after them), are written with the next event or the run's next tick
 * (after a pause while the store keeps refusing: 1 s, doubled after each refused try, at most
 * 30 s), all in one transaction, and are told to
 * the runtime, in order, right after the write that stores them. Meanwhile the paper venue fills
 * nothing (its fill model matches nothing, the closing auctions wait: {@link PaperStore.refusing}),
 * and takes no new order and no modify: the risk module, which learns of open orders from the
 * events told, would not count them (its `maxOpenOrders`, the exposure of open orders), so the
 * paper run's gate denies them before the venue, code `store-unavailable`, the reason saying what
 * the store refused and that orders resume once it takes what waits ({@link PaperStore.refusal},
 * `PaperStoreGate`; before, the venue took them and their events waited unseen). A cancel goes
 * through (it only takes risk off; its events wait with the others). So few events wait. What the strategy sees meanwhile is what it was told: the order still working
 * as before the refused fill (`ctx.openOrders()`), its position without it (`ctx.position()`); only
 * the paper account (`ctx.account`, the ledger: the broker's side, as live's account can be ahead
 * of the orders the engine has heard of) holds the fill already. A crash meanwhile leaves the store
 * as it was before the first refused write, and the strategy never heard of what it lacks: the
 * next paper run works the orders again from there, and the strategy hears of each fill once. The
 * stop tries once more before the strategies stop ({@link PaperStore.flush}); what is still
 * refused then is neither told nor stored ({@link PaperStore.close} says so).
 *
 * @module
 */
import type { BookLiquiditySnapshot, LedgerSnapshot } from '@hoga/broker-model';
import type { Logger, OrderEvent, OrderFilled, OrderPartiallyFilled } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import { addToldFill, dropToldFills, noteUntoldEvent } from '../orders/untold-events.js';
import { StateWriteHold } from '../store/state-write-hold.js';
import { PaperOrderTables } from './paper-order-tables.js';
import type { SavedPaperOrder } from './paper-orders.js';
import { RetryPause } from './retry-pause.js';

/** Where the paper account is kept (`strategy_state` owner; `hoga db positions --mode paper` reads it). */
export const PAPER_STATE_ID = 'paper/_account';

/** The events whose rows the tables keep (the others change no row: no transaction for them). */
const ROW_EVENTS = new Set<OrderEvent['type']>([
  'OrderSubmitted',
  'OrderAccepted',
  'OrderModified',
  'OrderPartiallyFilled',
  'OrderFilled',
  'OrderCanceled',
  'OrderExpired',
  'OrderRejected',
]);

/**
 * The events whose rows are written durably (`synchronous=FULL`, as the store writes an order's
 * intent and its broker ids): a batch holding one is committed so, all of it.
 */
const DURABLE_EVENTS = new Set<OrderEvent['type']>(['OrderSubmitted', 'OrderAccepted', 'OrderModified']);

/**
 * The paper account as saved: its ledger (no reservations), its open orders, and what its fills
 * took of the books polled (so that a book polled again after a restart is not taken twice).
 */
export interface PaperSnapshot {
  readonly ledger: LedgerSnapshot;
  readonly orders: SavedPaperOrder[];
  readonly liquidity: BookLiquiditySnapshot;
}

/** See the module documentation. */
export class PaperStore {
  private readonly tables: PaperOrderTables;
  /** Events whose rows are not stored yet, in order. */
  private readonly waiting: OrderEvent[] = [];
  /**
   * The events not told to the runtime yet, in order: the first `stored` of them are stored (being
   * told now), the rest wait for the store. Empty but for the event at hand while the store takes
   * every write.
   */
  private readonly outbox: OrderEvent[] = [];
  /** How many events at the head of the outbox are stored. */
  private stored = 0;
  /** Whether the outbox is being told (an event the runtime's reaction brings waits behind it). */
  private telling = false;
  /** Whether the ledger and the open orders changed since they were last stored. */
  private snapshotDue = false;
  /** When the next write is tried after a refused one ({@link RetryPause}). */
  private readonly pause = new RetryPause();
  /** What the store said when it last refused a write. */
  private refusedWith = '';
  /**
   * Per strategy, the ids of its noted fills told and not dropped from the notes yet (the store
   * refused the drop: done in the next write's transaction).
   */
  private readonly toldNotes = new Map<string, Set<string>>();

  /**
   * @param db - the run's store
   * @param snapshot - the ledger and the open orders as they stand now
   * @param logger - the run's logger (a write taken after refusals is said there)
   * @param onError - told of each refused write (`paper-store`)
   * @param publish - hands one event to the runtime, once the store holds it
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly snapshot: () => PaperSnapshot,
    private readonly logger: Logger,
    private readonly onError: (error: unknown, where: string) => void,
    private readonly publish: (event: OrderEvent) => void,
  ) {
    this.tables = new PaperOrderTables(db);
  }

  /** Whether the store refused the last write (what it held still waits). */
  get refusing(): boolean {
    return this.pause.refusing;
  }

  /**
   * While the store refuses writes, why a new order or a modify is refused now (the store's last
   * refusal and how many order events wait for it); null while it takes them.
   */
  get refusal(): string | null {
    if (!this.pause.refusing) return null;
    const n = this.outbox.length;
    return (
      `the paper store refuses writes (${this.refusedWith}), ${n} order event${n === 1 ? '' : 's'} ` +
      'waiting for it: new orders and modifies resume once it takes them'
    );
  }

  /** Whether something waits for the store. */
  get pending(): boolean {
    return this.waiting.length > 0 || this.snapshotDue;
  }

  /**
   * Stores one event of the venue: its rows and, when `changed`, the ledger and the open orders
   * after it, in one transaction with whatever still waits (unless the store refused a write less
   * than a second ago: then it waits too); then tells it to the runtime, after the events before it.
   */
  onEvent(event: OrderEvent, changed: boolean): void {
    const rows = ROW_EVENTS.has(event.type);
    // nothing to store and nothing waiting before it: told at once
    if (!rows && !changed && this.outbox.length === 0) {
      this.publish(event);
      return;
    }
    if (rows) this.waiting.push(event);
    if (changed) this.snapshotDue = true;
    this.outbox.push(event);
    if (this.pause.due()) this.flush();
  }

  /** Stores the ledger and the open orders as they stand (with what waits, then told); whether the store took it. */
  save(): boolean {
    this.snapshotDue = true;
    return this.flush();
  }

  /** Tries again what waits, after the pause (call it from the run's timer tick: cheap when nothing waits). */
  retry(): void {
    if (this.pause.refusing && this.pending && this.pause.due()) this.flush();
  }

  /**
   * Stores what waits now (however recently the store refused a write) and tells the runtime what
   * it stored: the stop's last try, while the strategies still hear of events. Whether all is stored.
   */
  flush(): boolean {
    if (this.pending && !this.write()) return false;
    this.stored = this.outbox.length;
    this.tell();
    return true;
  }

  /**
   * At the run's stop, once the strategies have stopped: stores the ledger and the open orders,
   * unless events still wait for the store. Those are not stored now (their strategies, stopped,
   * would never hear of them): the store keeps the paper account as it was before the first
   * refused write, and `onError` is told what it is left without.
   *
   * @returns null when all is stored, else how many order events the store is left without (0:
   *   the ledger and the open orders only)
   */
  close(): number | null {
    if (this.outbox.length === 0 && this.save()) return null;
    const events = this.waiting.length;
    this.onError(
      new EngineError(
        EngineErrorCode.PAPER_NOT_STORED,
        `${events} order event${events === 1 ? '' : 's'} of this paper run and its ledger are not stored; ` +
          'the store keeps the paper account as it was before the first refused write, and the next ' +
          'paper run works its orders again from there',
      ),
      'paper-store',
    );
    return events;
  }

  /**
   * Tells the runtime the stored events, in order (those its reactions bring, stored, after them),
   * then drops the notes of the fills told ({@link PaperStore.writeAll}).
   */
  private tell(): void {
    if (this.telling) return; // the loop below tells what was added
    const outbox = this.outbox;
    this.telling = true;
    let told = 0;
    // the notes of the fills told dropped with the state their strategies wrote as they heard them
    StateWriteHold.of(this.db).telling(
      () => {
        try {
          while (told < this.stored) {
            const event = outbox[told++] as OrderEvent;
            this.publish(event);
            if (isNotedFill(event)) addToldFill(this.toldNotes, event.strategyId, event.fill.fillId);
          }
        } finally {
          if (told === outbox.length) outbox.length = 0;
          else outbox.splice(0, told);
          this.stored -= told;
          this.telling = false;
        }
      },
      () => this.dropToldNotes(),
    );
  }

  /**
   * Drops the notes of the fills told, in a transaction of their own; a store that refuses it
   * leaves them for the next write's transaction (a kill meanwhile tells those fills once more at
   * the next start: told twice rather than never).
   */
  private dropToldNotes(): void {
    if (this.toldNotes.size === 0) return;
    try {
      this.db.transaction(this.dropNotes);
    } catch (error) {
      this.onError(error, 'paper-store');
      return;
    }
    this.toldNotes.clear();
  }

  /** The notes of the fills told, dropped (inside a transaction; forgotten here once it commits). */
  private readonly dropNotes = (): void => {
    for (const [strategyId, fillIds] of this.toldNotes) dropToldFills(this.db, strategyId, fillIds, 'paper');
  };

  /**
   * What waits, written (inside the write's transaction): each fill with a note that it is not
   * told yet (`untold-events.ts`), dropped once it is; a kill between the commit and the telling
   * leaves the note, and the next paper start tells the fill.
   */
  private readonly writeAll = (): void => {
    if (this.toldNotes.size > 0) this.dropNotes();
    for (const event of this.waiting) {
      this.tables.apply(event);
      if (isNotedFill(event)) noteUntoldEvent(this.db, event, 'paper');
    }
    if (this.snapshotDue) {
      const { ledger, orders, liquidity } = this.snapshot();
      this.db.strategyState.set(PAPER_STATE_ID, 'ledger', ledger);
      this.db.strategyState.set(PAPER_STATE_ID, 'orders', orders);
      this.db.strategyState.set(PAPER_STATE_ID, 'liquidity', liquidity);
    }
  };

  /** What waits, written in one transaction (durable when an event of it must be). */
  private readonly commit = (): void => {
    if (this.durable()) this.db.durableTransaction(this.writeAll);
    else this.db.transaction(this.writeAll);
  };

  /** Whether an event of `waiting` must be written durably. */
  private durable(): boolean {
    const waiting = this.waiting;
    for (let i = 0; i < waiting.length; i++)
      if (DURABLE_EVENTS.has((waiting[i] as OrderEvent).type)) return true;
    return false;
  }

  private write(): boolean {
    try {
      // a retry after a refused write does not wait out the busy timeout of a locked file
      if (this.pause.refusing) this.db.withoutBusyWait(this.commit);
      else this.commit();
    } catch (error) {
      this.pause.refused();
      this.refusedWith = error instanceof Error ? error.message : String(error);
      this.onError(error, 'paper-store');
      return false;
    }
    if (this.pause.refusing) {
      this.logger.info(
        { events: this.waiting.length },
        'paper store: the waiting order events are stored, and told to the strategies',
      );
      this.pause.stored();
    }
    this.waiting.length = 0;
    this.snapshotDue = false;
    // the notes of the fills told before it were dropped in it
    this.toldNotes.clear();
    return true;
  }
}

/** A fill of a strategy's order: noted until it is told. */
function isNotedFill(
  event: OrderEvent,
): event is (OrderFilled | OrderPartiallyFilled) & { readonly strategyId: string } {
  return (
    (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') && event.strategyId !== undefined
  );
}
