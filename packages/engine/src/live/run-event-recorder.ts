/**
 * Where the order events of a live or paper run go: every event the runtime routes to the
 * strategies (the venue's, and the risk gate's denials, which never reach the venue) is journalled
 * at once (mode `live` or `paper`: a process killed outright keeps what it journalled; before, the
 * events waited in memory for the stop, and a run killed after a day of trading left none in the
 * journal), counted when it is a refusal, and handed to `onEvent`; an order the risk gate denied
 * is stored as an order of the run too. A journal line or a denied order the store refuses is
 * logged the first time with its cause, its repeats counted ({@link StoreFailureLog}): a strategy
 * retrying every bar while the disk is full no longer logs lines for each denied order.
 *
 * @module
 */
import type { OrderDenied, OrderEvent, OrderIntent } from '@hoga/core';
import { orderFromIntent } from '@hoga/store';
import { RefusalTally } from '../runtime/refusal-tally.js';
import type { EventRecorder } from '../store/event-recorder.js';
import type { LiveRunOptions } from './run-live.js';
import { StoreFailureLog } from './store-failure-log.js';

/** What the recorder needs of the run's options. */
type RecorderOptions = Pick<LiveRunOptions, 'db' | 'settings' | 'logger' | 'onEvent'>;

/** Journals, counts and hands over a run's order events (see the module documentation). */
export class RunEventRecorder implements EventRecorder {
  /** The orders refused so far (denied by the risk module or rejected by the broker), by code. */
  readonly refusals: RefusalTally;
  /** The journal lines the store refused. */
  private readonly journalFailures: StoreFailureLog;
  /** The denied orders the store refused. */
  private readonly deniedFailures: StoreFailureLog;

  /** @param o - the store, the mode, the logger and `onEvent` */
  constructor(private readonly o: RecorderOptions) {
    this.refusals = new RefusalTally();
    this.journalFailures = new StoreFailureLog(o.logger, {
      first: 'could not journal an event',
      more: 'order events could not be journalled',
      moreOne: 'order event could not be journalled',
      again: 'order events are journalled again',
    });
    this.deniedFailures = new StoreFailureLog(o.logger, {
      first: 'could not store a denied order',
      more: 'denied orders could not be stored',
      moreOne: 'denied order could not be stored',
      again: 'denied orders are stored again',
    });
  }

  /** @inheritdoc */
  record(event: OrderEvent): void {
    try {
      // one event at a time: a live run's events are few, and each is kept once routed
      this.o.db.journal.appendEvent(event, this.o.settings.mode);
      this.journalFailures.stored();
    } catch (error) {
      // the event still reaches the strategy (its order and fills are stored apart)
      this.journalFailures.failed(error, { type: event.type, clientOrderId: event.clientOrderId });
    }
    this.refusals.note(event);
    this.o.onEvent?.(event);
  }

  /** @inheritdoc */
  flush(): void {
    // nothing is buffered: the store's refusals not said yet are
    this.journalFailures.flush();
    this.deniedFailures.flush();
  }

  /** An order the risk gate denied is an order of this run too (`hoga db orders` shows it, DENIED). */
  recordDenied(intent: OrderIntent, event: OrderDenied): void {
    const { o } = this;
    const mode = o.settings.mode;
    try {
      // one transaction: the row whole (DENIED, with its reason) or none (before, the reason's update
      // refused left a DENIED row without it)
      o.db.durableTransaction(() => {
        o.db.orders.recordIntent({
          ...orderFromIntent(intent, { mode, state: 'DENIED', createdAt: event.tsEvent }),
          strategyId: event.strategyId ?? null,
        });
        o.db.orders.updateState(event.clientOrderId, {
          state: 'DENIED',
          updatedAt: event.tsEvent,
          rejectReason: `${event.code}: ${event.reason}`,
        });
      });
      this.deniedFailures.stored();
    } catch (error) {
      // nothing was sent: the denial still reaches the strategy and the journal
      this.deniedFailures.failed(error, { clientOrderId: event.clientOrderId });
    }
  }
}
