/**
 * The backtest's journal: one `OrderSummary` entry per order, written when the order ends (or when
 * the run stops, for an order still open), holding what its events said — the intent (for an order
 * denied before it was submitted, the intent the engine hands over with its denial), each event's
 * type and time, every fill with its commission and tax, the final state and any reason. A backtest
 * is deterministic and rerunnable, so its orders need not be journalled event by event with the
 * durability a live order needs; a third of the rows and compact payloads keep the store's share of
 * a backtest small. Each event goes to the store's {@link RunJournalWriter} as a compact record (its
 * decimals as safe-integer numbers or plain text): the writer's thread makes and writes the
 * summaries while the run goes on, and a stored run's trades with them.
 *
 * @module
 */
import {
  type Decimal,
  exactIntOf,
  formatDecimal,
  type OrderCanceled,
  type OrderDenied,
  type OrderEvent,
  type OrderIntent,
  type OrderRejected,
} from '@hoga/core';
import type { RunJournalWriter } from '@hoga/store';
import { RefusalTally } from '../runtime/refusal-tally.js';
import type { EventRecorder } from './event-recorder.js';

export type { OrderSummary } from '@hoga/store';

/** A decimal as the writer takes it: a safe integer as a number (no text made here), else its text. */
function plain(d: Decimal): number | string {
  const n = exactIntOf(d);
  return Number.isNaN(n) ? formatDecimal(d) : n;
}

/** Journals one summary per order through a {@link RunJournalWriter} (see the module documentation). */
export class OrderSummaryRecorder implements EventRecorder {
  /** The orders refused so far (denied or rejected), by code. */
  readonly refusals = new RefusalTally();

  /** @param writer - where the records go (its owner closes it once the run stopped) */
  constructor(private readonly writer: RunJournalWriter) {}

  /** @inheritdoc */
  record(event: OrderEvent): void {
    const w = this.writer;
    const strategyId = event.strategyId ?? null;
    switch (event.type) {
      case 'OrderSubmitted':
        this.ordered(true, event.intent, event.clientOrderId, strategyId, event.tsEvent);
        break;
      case 'OrderFilled':
      case 'OrderPartiallyFilled': {
        const f = event.fill;
        w.filled(
          event.type,
          event.clientOrderId,
          strategyId,
          event.tsEvent,
          event.tsInit,
          f.symbol,
          f.side,
          plain(f.quantity),
          plain(f.price),
          f.commission.currency,
          plain(f.commission.amount),
          f.tax === undefined ? 0 : plain(f.tax.amount),
        );
        break;
      }
      case 'OrderModified':
        w.modified(
          event.clientOrderId,
          strategyId,
          event.tsEvent,
          event.tsInit,
          event.price === undefined ? null : plain(event.price),
          event.quantity === undefined ? null : plain(event.quantity),
        );
        break;
      case 'OrderRejected':
      case 'OrderDenied': {
        this.refusals.note(event);
        w.reason(event.type, event.clientOrderId, strategyId, event.tsEvent, event.tsInit, reasonOf(event));
        break;
      }
      case 'OrderCanceled':
        w.reason(event.type, event.clientOrderId, strategyId, event.tsEvent, event.tsInit, reasonOf(event));
        break;
      default:
        w.event(event.type, event.clientOrderId, strategyId, event.tsEvent, event.tsInit);
        break;
    }
  }

  /**
   * Keeps what a denied order asked for (it was never submitted, so no `OrderSubmitted` says it):
   * its summary names the symbol, side, type and size beside the denial.
   */
  recordDenied(intent: OrderIntent, event: OrderDenied): void {
    this.ordered(false, intent, event.clientOrderId, event.strategyId ?? null, event.tsEvent);
  }

  /** An order's intent: submitted (an `OrderSubmitted` event), or only asked for (denied). */
  private ordered(
    submitted: boolean,
    intent: OrderIntent,
    clientOrderId: string,
    strategyId: string | null,
    tsEvent: number,
  ): void {
    const byAmount = intent.sizing === 'AMOUNT';
    this.writer.order(
      submitted,
      clientOrderId,
      strategyId,
      tsEvent,
      intent.instrument.symbol,
      intent.side,
      intent.orderType,
      !byAmount && intent.orderType === 'LIMIT' ? plain(intent.price) : null,
      byAmount ? null : plain(intent.quantity),
      byAmount ? plain(intent.amount) : null,
    );
  }

  /** Journals the orders still open as they stand and sends what is buffered. */
  flush(): void {
    this.writer.flush();
  }
}

/** What a rejection, a denial (`code: reason`) or a cancel (its reason, or null) says of the order. */
function reasonOf(event: OrderRejected | OrderDenied | OrderCanceled): string | null {
  if (event.type === 'OrderCanceled') return event.reason ?? null;
  return event.code === undefined ? event.reason : `${event.code}: ${event.reason}`;
}
