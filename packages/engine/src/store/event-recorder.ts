/**
 * How order events reach the store. Backtests append them to the journal (mode `backtest`) in
 * batches inside one transaction each; live and paper journal each event as it is routed
 * (`RunEventRecorder`).
 *
 * @module
 */
import type { OrderDenied, OrderEvent, OrderIntent } from '@hoga/core';
import type { HogaDatabase, NewJournalEntry, TradingMode } from '@hoga/store';

/** Token of {@link EventRecorder}. */
export const EventRecorder = Symbol.for('hoga.engine.EventRecorder');

/** Writes order events to the store. */
export interface EventRecorder {
  /** Records an event (possibly buffered until {@link EventRecorder.flush}). */
  record(event: OrderEvent): void;
  /** Writes what is buffered. */
  flush(): void;
  /**
   * Stores an order the engine denied before it reached the venue (the risk gate, warm-up), with
   * its intent: its `OrderDenied` event follows through {@link EventRecorder.record}. A recorder
   * without it keeps only the event.
   */
  recordDenied?(intent: OrderIntent, event: OrderDenied): void;
}

/** Appends events to the journal in batches (one transaction per batch). */
export class JournalRecorder implements EventRecorder {
  private buffer: NewJournalEntry[] = [];

  /**
   * @param db - the store
   * @param mode - the mode written on each entry
   * @param batchSize - events per transaction (default 5,000)
   */
  constructor(
    private readonly db: HogaDatabase,
    private readonly mode: TradingMode,
    private readonly batchSize = 5_000,
  ) {}

  /** @inheritdoc */
  record(event: OrderEvent): void {
    this.buffer.push({
      type: event.type,
      tsEvent: event.tsEvent,
      tsInit: event.tsInit,
      mode: this.mode,
      strategyId: event.strategyId ?? null,
      clientOrderId: event.clientOrderId,
      payload: event,
    });
    if (this.buffer.length >= this.batchSize) this.flush();
  }

  /** @inheritdoc */
  flush(): void {
    if (this.buffer.length === 0) return;
    const entries = this.buffer;
    this.buffer = [];
    this.db.journal.appendMany(entries);
  }
}
