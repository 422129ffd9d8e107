/**
 * Where the order events of a live or paper run go: every event the runtime routes to the
 * strategies (the venue's, and the risk gate's denials, which never reach the venue) is journalled
 * at once (mode `live` or `paper`: a process killed outright keeps what it journalled; before, the
 * events waited in memory for the stop, and a run killed after a day of trading left none in the
 * journal), counted when it is a refusal, and handed to `onEvent`; an order the risk gate denied
 * is stored as an order of the run too.
 *
 * @module
 */
import type { OrderDenied, OrderEvent, OrderIntent } from '@hoga/core';
import { orderFromIntent } from '@hoga/store';
import { RefusalTally } from '../runtime/refusal-tally.js';
import type { EventRecorder } from '../store/event-recorder.js';
import type { LiveRunOptions } from './run-live.js';

/** What the recorder needs of the run's options. */
type RecorderOptions = Pick<LiveRunOptions, 'db' | 'settings' | 'logger' | 'onEvent'>;

/** Journals, counts and hands over a run's order events (see the module documentation). */
export class RunEventRecorder implements EventRecorder {
  /** The orders refused so far (denied by the risk module or rejected by the broker), by code. */
  readonly refusals: RefusalTally;

  /** @param o - the store, the mode, the logger and `onEvent` */
  constructor(private readonly o: RecorderOptions) {
    this.refusals = new RefusalTally();
  }

  /** @inheritdoc */
  record(event: OrderEvent): void {
    try {
      // one event at a time: a live run's events are few, and each is kept once routed
      this.o.db.journal.appendEvent(event, this.o.settings.mode);
    } catch (error) {
      // the event still reaches the strategy (its order and fills are stored apart)
      this.o.logger.error(
        { err: error, type: event.type, clientOrderId: event.clientOrderId },
        'could not journal an event',
      );
    }
    this.refusals.note(event);
    this.o.onEvent?.(event);
  }

  /** @inheritdoc */
  flush(): void {
    // nothing is buffered
  }

  /** An order the risk gate denied is an order of this run too (`hoga db orders` shows it, DENIED). */
  recordDenied(intent: OrderIntent, event: OrderDenied): void {
    const { o } = this;
    const mode = o.settings.mode;
    try {
      o.db.orders.recordIntent({
        ...orderFromIntent(intent, { mode, state: 'DENIED', createdAt: event.tsEvent }),
        strategyId: event.strategyId ?? null,
      });
      o.db.orders.updateState(event.clientOrderId, {
        state: 'DENIED',
        updatedAt: event.tsEvent,
        rejectReason: `${event.code}: ${event.reason}`,
      });
    } catch (error) {
      // nothing was sent: the denial still reaches the strategy and the journal
      o.logger.error({ err: error, clientOrderId: event.clientOrderId }, 'could not store a denied order');
    }
  }
}
