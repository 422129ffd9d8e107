/**
 * Where the order events of a live or paper run go: every event the runtime routes to the
 * strategies (the venue's, and the risk gate's denials, which never reach the venue) is journalled
 * at once (mode `live` or `paper`: a process killed outright keeps what it journalled; before, the
 * events waited in memory for the stop, and a run killed after a day of trading left none in the
 * journal), counted when it is a refusal, and handed to `onEvent`; an order the risk gate denied
 * is stored as an order of the run too, its row in one transaction. A journal line or a denied
 * order the store refuses is kept in memory and written once the store takes writes again, those
 * after it kept too while it refuses, tried again after a pause ({@link StoreWriteBacklog}): the
 * first refusal is logged with its cause, the refused tries counted. Before, each was tried at
 * once and lost when refused: while another process held the file locked, each denied order of a
 * strategy retrying every bar blocked the run for the busy timeout twice (its row, its journal
 * line), and a full disk lost them all.
 *
 * @module
 */
import type { OrderDenied, OrderEvent, OrderIntent } from '@hoga/core';
import { orderFromIntent } from '@hoga/store';
import { RefusalTally } from '../runtime/refusal-tally.js';
import type { EventRecorder } from '../store/event-recorder.js';
import type { LiveRunOptions } from './run-live.js';
import { StoreWriteBacklog } from './store-write-backlog.js';

/** What the recorder needs of the run's options. */
type RecorderOptions = Pick<LiveRunOptions, 'db' | 'settings' | 'logger' | 'onEvent'>;

/** A denied order and its denial, to be stored. */
interface DeniedOrder {
  readonly intent: OrderIntent;
  readonly event: OrderDenied;
}

/** Journals, counts and hands over a run's order events (see the module documentation). */
export class RunEventRecorder implements EventRecorder {
  /** The orders refused so far (denied by the risk module or rejected by the broker), by code. */
  readonly refusals: RefusalTally;
  /** The journal lines, kept while the store refuses them. */
  private readonly journal: StoreWriteBacklog<OrderEvent>;
  /** The denied orders' rows, kept while the store refuses them. */
  private readonly denied: StoreWriteBacklog<DeniedOrder>;

  /**
   * @param o - the store, the mode, the logger and `onEvent`
   * @param storeRefusing - whether the paper store refused its last write (paper): then the
   *   recorder keeps its writes without trying them, each try a busy wait on a locked file
   */
  constructor(
    private readonly o: RecorderOptions,
    storeRefusing: () => boolean = () => false,
  ) {
    this.refusals = new RefusalTally();
    const { db, logger } = o;
    const mode = o.settings.mode;
    this.journal = new StoreWriteBacklog(
      db,
      {
        durable: false,
        write: (event) => db.journal.appendEvent(event, mode),
        fields: (event) => ({ type: event.type, clientOrderId: event.clientOrderId }),
      },
      logger,
      {
        first: 'could not journal an event (kept, tried again)',
        more: 'refused tries to journal the kept order events',
        moreOne: 'refused try to journal the kept order events',
        again: 'order events are journalled again, those kept too',
        lost: 'order events are not journalled (the store refused them to the stop)',
      },
      storeRefusing,
    );
    this.denied = new StoreWriteBacklog(
      db,
      {
        durable: true,
        // one transaction: the row whole (DENIED, with its reason) or none (before, the reason's
        // update refused left a DENIED row without it)
        write: ({ intent, event }) => {
          db.orders.recordIntent({
            ...orderFromIntent(intent, { mode, state: 'DENIED', createdAt: event.tsEvent }),
            strategyId: event.strategyId ?? null,
          });
          db.orders.updateState(event.clientOrderId, {
            state: 'DENIED',
            updatedAt: event.tsEvent,
            rejectReason: `${event.code}: ${event.reason}`,
          });
        },
        fields: ({ event }) => ({ clientOrderId: event.clientOrderId }),
      },
      logger,
      {
        first: 'could not store a denied order (kept, tried again)',
        more: 'refused tries to store the kept denied orders',
        moreOne: 'refused try to store the kept denied orders',
        again: 'denied orders are stored again, those kept too',
        lost: 'denied orders are not stored (the store refused them to the stop)',
      },
      storeRefusing,
    );
  }

  /**
   * The strategies whose refusals the session counts (set once the run's strategies exist): an
   * order of another strategy (another engine's, one not running, `hoga order`'s) that this run's
   * order polls counted is journalled and shown, but its rejection is not this session's refusal.
   * Null: every refusal counts.
   */
  private own: ReadonlySet<string> | null = null;

  /**
   * Counts only the refusals of these strategies' orders from now on (see `own`): the session's
   * own set (`SessionRecord.own`), by which its trades are counted too.
   */
  countOnly(strategyIds: ReadonlySet<string>): void {
    this.own = strategyIds;
  }

  /** @inheritdoc */
  record(event: OrderEvent): void {
    this.journalled(event);
    if (this.own === null || (event.strategyId !== undefined && this.own.has(event.strategyId)))
      this.refusals.note(event);
    this.o.onEvent?.(event);
  }

  /**
   * An event of the time a strategy was down, told at its start (`tellUntoldEvents`): journalled and
   * shown as any event, but not counted as a refusal of this session.
   */
  recordTold(event: OrderEvent): void {
    this.journalled(event);
    this.o.onEvent?.(event);
  }

  private journalled(event: OrderEvent): void {
    // kept while the store refuses it: the event still reaches the strategy (its order and fills
    // are stored apart)
    this.journal.add(event);
    // the store took the line: denied orders kept meanwhile are tried again (after their pause)
    if (this.journal.size === 0) this.denied.retry();
  }

  /** @inheritdoc */
  flush(): void {
    // the stop: what is kept is tried once more, what is still refused is said
    this.denied.flush();
    this.journal.flush();
  }

  /**
   * An order the risk gate denied is an order of this run too (`hoga db orders` shows it, DENIED);
   * kept while the store refuses writes (nothing was sent: the denial still reaches the strategy).
   */
  recordDenied(intent: OrderIntent, event: OrderDenied): void {
    this.denied.add({ intent, event });
  }
}
