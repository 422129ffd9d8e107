/**
 * What a paper run keeps in the store, written so that a crash or a refused write never splits it:
 * each order event's rows in the `orders` and `fills` tables ({@link PaperOrderTables}) and the
 * paper ledger with the open orders it produced (`strategy_state` of `paper/_account`), in ONE
 * transaction. The store holds a fill with the ledger and the open order it changed, or none of
 * them.
 *
 * Before, the ledger and the open orders were saved in one transaction and the fill's rows in
 * another: a crash between them, or a refused write of the second, left the ledger with a fill
 * `hoga db fills` did not list (the order's row left as it was, its next fills counted from there);
 * and a refused ledger write was thrown out of the venue's event handler, failing the run as an
 * "uncaught exception" whose stop threw again (the session left `running`).
 *
 * A write the store refuses (disk full, an I/O error, the file locked past the busy timeout) is
 * told to `onError` (`paper-store`) and the run goes on: what it held waits in memory, in order,
 * and is written with the next event or the run's next tick (at most once a second while the store
 * keeps refusing), all in one transaction. Meanwhile the paper venue fills nothing (its fill model
 * matches nothing, the closing auctions wait: {@link PaperStore.refusing}), so that what a crash
 * could undo stays the one match the store refused (an order walking several levels: its fills).
 * A crash meanwhile leaves the store as it was before the first refused write, consistent: the
 * next paper run works the orders again from there (a fill the strategy heard of but the store
 * never took is filled again, once). The stop tries once more and says what it could not store.
 *
 * @module
 */
import type { LedgerSnapshot } from '@hoga/broker-model';
import type { Logger, OrderEvent } from '@hoga/core';
import type { HogaDatabase } from '@hoga/store';
import { EngineError, EngineErrorCode } from '../engine-error.js';
import { PaperOrderTables } from './paper-order-tables.js';
import type { SavedPaperOrder } from './paper-orders.js';

/** Where the paper account is kept (`strategy_state` owner; `hoga db positions --mode paper` reads it). */
export const PAPER_STATE_ID = 'paper/_account';

/** How long after a refused write the next one is tried, real ms (a locked file blocks each try for the busy timeout). */
const RETRY_MS = 1_000;

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

/** The paper account as saved: its ledger (no reservations) and its open orders. */
export interface PaperSnapshot {
  readonly ledger: LedgerSnapshot;
  readonly orders: SavedPaperOrder[];
}

/** See the module documentation. */
export class PaperStore {
  private readonly tables: PaperOrderTables;
  /** Events whose rows are not stored yet, in order. */
  private readonly waiting: OrderEvent[] = [];
  /** Whether the ledger and the open orders changed since they were last stored. */
  private snapshotDue = false;
  /** When the last write was refused (real ms, `performance.now()`), or null when the last one went through. */
  private refusedAt: number | null = null;

  /**
   * @param db - the run's store
   * @param snapshot - the ledger and the open orders as they stand now
   * @param logger - the run's logger (a write taken after refusals is said there)
   * @param onError - told of each refused write (`paper-store`)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly snapshot: () => PaperSnapshot,
    private readonly logger: Logger,
    private readonly onError: (error: unknown, where: string) => void,
  ) {
    this.tables = new PaperOrderTables(db);
  }

  /** Whether the store refused the last write (what it held still waits). */
  get refusing(): boolean {
    return this.refusedAt !== null;
  }

  /** Whether something waits for the store. */
  get pending(): boolean {
    return this.waiting.length > 0 || this.snapshotDue;
  }

  /**
   * Stores one event of the venue: its rows and, when `changed`, the ledger and the open orders
   * after it, in one transaction with whatever still waits (unless the store refused a write less
   * than a second ago: then it waits too).
   */
  onEvent(event: OrderEvent, changed: boolean): void {
    const rows = ROW_EVENTS.has(event.type);
    if (!rows && !changed) return;
    if (rows) this.waiting.push(event);
    if (changed) this.snapshotDue = true;
    if (this.refusedAt === null || performance.now() - this.refusedAt >= RETRY_MS) this.write();
  }

  /** Stores the ledger and the open orders as they stand (with what waits); whether the store took it. */
  save(): boolean {
    this.snapshotDue = true;
    return this.write();
  }

  /** Tries again what waits, at most once a second (call it from the run's timer tick: cheap when nothing waits). */
  retry(): void {
    if (this.refusedAt === null || !this.pending) return;
    if (performance.now() - this.refusedAt >= RETRY_MS) this.write();
  }

  /**
   * The last try, at the run's stop: stores what waits, else tells `onError` what the store is
   * left without.
   *
   * @returns null when all is stored, else how many order events the store is left without (0:
   *   the ledger and the open orders only)
   */
  close(): number | null {
    if (this.save()) return null;
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

  /** What waits, written (inside the write's transaction). */
  private readonly writeAll = (): void => {
    for (const event of this.waiting) this.tables.apply(event);
    if (this.snapshotDue) {
      const { ledger, orders } = this.snapshot();
      this.db.strategyState.set(PAPER_STATE_ID, 'ledger', ledger);
      this.db.strategyState.set(PAPER_STATE_ID, 'orders', orders);
    }
  };

  private write(): boolean {
    try {
      if (this.waiting.some((e) => DURABLE_EVENTS.has(e.type))) this.db.durableTransaction(this.writeAll);
      else this.db.transaction(this.writeAll);
    } catch (error) {
      this.refusedAt = performance.now();
      this.onError(error, 'paper-store');
      return false;
    }
    if (this.refusedAt !== null) {
      this.logger.info({ events: this.waiting.length }, 'paper store: the waiting order events are stored');
      this.refusedAt = null;
    }
    this.waiting.length = 0;
    this.snapshotDue = false;
    return true;
  }
}
