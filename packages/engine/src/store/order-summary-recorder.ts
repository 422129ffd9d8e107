/**
 * The backtest's journal: one `OrderSummary` entry per order, written when the order ends (or when
 * the run stops, for an order still open), holding what its events said — the intent, each event's
 * type and time, every fill with its commission and tax, the final state and any reason. A backtest
 * is deterministic and rerunnable, so its orders need not be journalled event by event with the
 * durability a live order needs; a third of the rows and compact payloads keep the store's share of
 * a backtest small.
 *
 * @module
 */
import type { OrderEvent } from '@hoga/core';
import type { HogaDatabase, NewJournalEntry, TradingMode } from '@hoga/store';
import type { EventRecorder } from './event-recorder.js';

/** The payload of an `OrderSummary` journal entry (decimals as strings, times epoch ms). */
export interface OrderSummary {
  clientOrderId: string;
  strategyId: string | null;
  symbol: string;
  side: string;
  orderType: string;
  /** Limit price, quantity or amount as ordered (strings), null when not applicable. */
  price: string | null;
  quantity: string | null;
  amount: string | null;
  /** The last state-changing event's type (`OrderFilled`, `OrderCanceled`, …). */
  last: string;
  /** Every event as `[type, tsEvent]`, in order. */
  events: [string, number][];
  /** Every fill as `[tsEvent, quantity, price, commission, tax]`. */
  fills: [number, string, string, string, string][];
  /** Why it was denied, rejected or canceled, when it was. */
  reason: string | null;
}

const TERMINAL: ReadonlySet<string> = new Set([
  'OrderFilled',
  'OrderRejected',
  'OrderDenied',
  'OrderCanceled',
  'OrderExpired',
]);

/** Journals one summary per order (see the module documentation). */
export class OrderSummaryRecorder implements EventRecorder {
  private readonly open = new Map<string, OrderSummary>();
  private buffer: NewJournalEntry[] = [];

  /**
   * @param db - the store
   * @param mode - the mode written on each entry
   * @param batchSize - entries per transaction (default 5,000)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly mode: TradingMode = 'backtest',
    private readonly batchSize = 5_000,
  ) {}

  /** @inheritdoc */
  record(event: OrderEvent): void {
    let summary = this.open.get(event.clientOrderId);
    if (summary === undefined) {
      summary = {
        clientOrderId: event.clientOrderId,
        strategyId: event.strategyId ?? null,
        symbol: '',
        side: '',
        orderType: '',
        price: null,
        quantity: null,
        amount: null,
        last: event.type,
        events: [],
        fills: [],
        reason: null,
      };
      this.open.set(event.clientOrderId, summary);
    }
    summary.events.push([event.type, event.tsEvent]);
    summary.last = event.type;
    switch (event.type) {
      case 'OrderSubmitted': {
        const intent = event.intent;
        summary.symbol = intent.instrument.symbol;
        summary.side = intent.side;
        summary.orderType = intent.orderType;
        if (intent.sizing === 'AMOUNT') summary.amount = intent.amount.toFixed();
        else {
          summary.quantity = intent.quantity.toFixed();
          if (intent.orderType === 'LIMIT') summary.price = intent.price.toFixed();
        }
        break;
      }
      case 'OrderFilled':
      case 'OrderPartiallyFilled': {
        const f = event.fill;
        summary.symbol = f.symbol;
        summary.side = f.side;
        summary.fills.push([
          f.tsEvent,
          f.quantity.toFixed(),
          f.price.toFixed(),
          f.commission.amount.toFixed(),
          f.tax === undefined ? '0' : f.tax.amount.toFixed(),
        ]);
        break;
      }
      case 'OrderModified':
        if (event.price !== undefined) summary.price = event.price.toFixed();
        if (event.quantity !== undefined) summary.quantity = event.quantity.toFixed();
        break;
      case 'OrderRejected':
      case 'OrderDenied':
        summary.reason = event.code === undefined ? event.reason : `${event.code}: ${event.reason}`;
        break;
      case 'OrderCanceled':
        summary.reason = event.reason ?? null;
        break;
      default:
        break;
    }
    if (TERMINAL.has(event.type)) this.close(summary, event.tsEvent, event.tsInit);
  }

  /** Writes the closed orders' summaries and, as they stand, those still open. */
  flush(): void {
    for (const summary of [...this.open.values()]) {
      const last = summary.events[summary.events.length - 1];
      this.close(summary, last?.[1] ?? 0, last?.[1] ?? 0);
    }
    this.write();
  }

  private close(summary: OrderSummary, tsEvent: number, tsInit: number): void {
    this.open.delete(summary.clientOrderId);
    this.buffer.push({
      type: 'OrderSummary',
      tsEvent,
      tsInit,
      mode: this.mode,
      strategyId: summary.strategyId,
      clientOrderId: summary.clientOrderId,
      payload: summary,
    });
    if (this.buffer.length >= this.batchSize) this.write();
  }

  private write(): void {
    if (this.buffer.length === 0) return;
    const entries = this.buffer;
    this.buffer = [];
    this.db.journal.appendMany(entries);
  }
}
