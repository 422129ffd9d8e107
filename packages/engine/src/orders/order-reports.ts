/**
 * The report side of the order manager: broker order reports (from polls, details, lost answers)
 * turned into counted fills, status changes and the end of logical orders. Each broker order's
 * cumulative execution is counted once in the store, whichever process counts it; orders placed
 * elsewhere are adopted as external logical orders; a report an unsettled command may own is
 * deferred; a report of an order another live run works is left to that run ({@link OrderOwnership}).
 *
 * @module
 */

import { isOlderReport, type OrderRecord, progressOf } from '@hoga/connector';
import { type Clock, type OrderEvent, TERMINAL_BROKER_ORDER_STATUSES } from '@hoga/core';
import { cumulativeOf, executionDelta } from './execution-delta.js';
import type { OrderEventFactory } from './order-event-factory.js';
import { type ResendWindow, resendsCreate } from './order-manager-options.js';
import {
  CommandStatus,
  NOT_FOUND_STATUS,
  type OrderManagerStore,
  STALE,
  type StoredCommand,
  type StoredExecution,
} from './order-manager-store.js';
import type { OrderOwnership } from './order-ownership.js';
import { externalOrderOf, type OrderManagerAlert } from './order-requests.js';
import type { OutsideChanges } from './outside-changes.js';

/** Where the reports' events and alerts go. */
export interface ReportSink {
  emit(event: OrderEvent | null): void;
  alert(alert: OrderManagerAlert): void;
  /** Tells the modifies another process made of an order before a report of it is counted. */
  readonly outside: Pick<OutsideChanges, 'catchUp'>;
}

/** See the module description. */
export class OrderReports {
  /**
   * @param store - the manager's tables
   * @param factory - builds the events
   * @param clock - the engine clock
   * @param skewMs - tolerated difference between our clock and the broker's `orderedAt`
   * @param sink - the manager's event and alert streams
   * @param ownership - which logical orders are counted here
   * @param window - when an unsettled create is re-sent under its key
   */
  constructor(
    private readonly store: OrderManagerStore,
    private readonly factory: OrderEventFactory,
    private readonly clock: Clock,
    private readonly skewMs: number,
    private readonly sink: ReportSink,
    private readonly ownership: OrderOwnership,
    private readonly window: ResendWindow,
  ) {}

  /**
   * Counts many broker reports in one store transaction (one commit per poll, not per fill); the
   * orders placed elsewhere among them are adopted first (their rows are written durably), and the
   * events go out after the commit (`flush`), so a strategy reacting to them never writes inside
   * it. The broker orders of one logical order are counted in the order they were placed
   * ({@link inChainOrder}): an original's last fills go out before its replacement's, whichever list
   * showed which. Reports an unsettled command may own are deferred. Returns how many were counted.
   *
   * @param records - the reports
   * @param unresolved - the unsettled commands
   * @param hold - starts holding events back; returns a function that releases them
   */
  applyRecords(
    records: Iterable<OrderRecord>,
    unresolved: readonly StoredCommand[],
    hold: () => () => void,
  ): number {
    const counted: [OrderRecord, StoredExecution][] = [];
    const all = [...records];
    const known = this.store.executionsById(all.map((r) => r.orderId)); // one read for the poll
    let open = unresolved;
    let folded = false;
    for (const record of all) {
      let owned = known.get(record.orderId) ?? null;
      if (owned === null) {
        if (open.some((c) => this.mayOwn(c, record))) continue;
        if (!folded) {
          folded = true;
          open = this.foldJournal(open);
          if (open.some((c) => this.mayOwn(c, record))) continue;
        }
        owned = this.adopt(record, false);
        known.set(record.orderId, owned);
      }
      counted.push([record, owned]);
    }
    this.countAll(inChainOrder(counted), hold);
    return counted.length;
  }

  /**
   * Counts one broker report of an owned order (or adopts an order placed elsewhere), and settles
   * the logical order, in one store transaction; the events go out after the commit. Returns false
   * when the report was deferred (an unsettled command may own it).
   *
   * @param hold - as for {@link OrderReports.applyRecords}
   */
  applyRecord(
    record: OrderRecord,
    unresolved: readonly StoredCommand[] | undefined,
    hold: () => () => void,
  ): boolean {
    let owned = this.store.execution(record.orderId);
    if (owned === null) {
      let open = unresolved ?? this.store.unresolvedCommands();
      if (open.some((c) => this.mayOwn(c, record))) return false;
      open = this.foldJournal(open);
      if (open.some((c) => this.mayOwn(c, record))) return false;
      owned = this.adopt(record, false);
    }
    this.countAll([[record, owned]], hold);
    return true;
  }

  /**
   * Before an order nobody knows is adopted as one from another channel: the creates the command
   * journal holds and the tables do not are stored (a process died, or gave up on a locked store,
   * between its send and its rows), and the unsettled commands read again if any was. Before, the
   * order was adopted as `ext-<id>`, its fills booked to no strategy, and the next start stored
   * the create, which then found its order taken and stayed ACCEPTED for ever.
   */
  private foldJournal(unresolved: readonly StoredCommand[]): readonly StoredCommand[] {
    return this.store.foldJournalNow() ? this.store.unresolvedCommands() : unresolved;
  }

  /**
   * Counts reports of owned broker orders in one write transaction, but those of orders another
   * live run works: who works which strategy is read inside it, so a run that took its lease
   * before is seen, and one that takes it after books this transaction's fills from the store.
   */
  private countAll(
    counted: readonly (readonly [OrderRecord, StoredExecution])[],
    hold: () => () => void,
  ): void {
    const release = hold();
    try {
      this.store.batch(() => {
        const others = this.ownership.others();
        const done = new Set<string>();
        for (const [record, owned] of counted) {
          if (this.ownership.leaves(owned.clientOrderId, others)) continue;
          // a modify of another process is told before the replacement's report (its fills)
          this.sink.outside.catchUp(owned.clientOrderId, record.orderId);
          // The same order twice in one batch: the second report counts from what the first stored.
          const current = done.has(record.orderId) ? this.store.execution(record.orderId) : owned;
          done.add(record.orderId);
          if (current !== null) this.count(record, current);
        }
      });
    } finally {
      release();
    }
  }

  /**
   * Counts one report of an owned broker order (see {@link OrderReports.applyRecord}). What this
   * process last stored of the order may be older than the store's row (another process counted
   * it since: a manual order two runs poll): then the row is read again, inside the same write
   * transaction, and the report counted from it. A report older than the row (`isOlderReport`, the
   * rule `orderUpdates$` applies too: a smaller filled quantity, an ended order shown working)
   * writes nothing.
   */
  private count(record: OrderRecord, owned: StoredExecution): void {
    const now = this.clock.nowMs();
    const closed = TERMINAL_BROKER_ORDER_STATUSES.has(record.status);
    const filledAt = record.execution.filledAt?.toMillis() ?? now;
    let counted: StoredExecution | null = owned;
    for (let read = 0; counted !== null && read < 2; read++) {
      // made before what the row holds (answered late, read again after a restart): the row and
      // the logical order never go back to an earlier status, an ended order never reopens
      if (isOlderReport(counted, progressOf(record))) return;
      const delta = executionDelta(counted, cumulativeOf(record.execution));
      if (delta === null && counted.status === record.status && counted.closed === closed) return;
      const fill = this.store.applyReport(counted, record.status, closed, delta, filledAt, now);
      if (fill === STALE) {
        counted = this.store.execution(record.orderId);
        continue;
      }
      if (fill !== null) this.sink.emit(this.factory.fill(fill, counted, record, filledAt));
      // A logical order ends only once all its broker orders are closed: an open report cannot end it.
      if (closed) this.settleLogical(counted.clientOrderId, record);
      return;
    }
  }

  /**
   * Whether an unsettled command could have made this (unowned) order: one of its symbol and side,
   * placed after it was sent (less the tolerated clock difference) or, while its answer is still
   * awaited or it is a create re-sent under its key (whose replay names its order), at any time:
   * an engine clock further ahead of the broker's than the tolerance would otherwise take the
   * command's own order for external.
   */
  private mayOwn(command: StoredCommand, record: OrderRecord): boolean {
    if (command.symbol !== record.symbol || command.side !== record.side) return false;
    if (command.status === CommandStatus.SENDING) return true;
    if (resendsCreate(command, this.clock.nowMs(), this.window)) return true;
    return record.orderedAt.toMillis() >= command.sentAt - this.skewMs;
  }

  /** Adopts an order placed elsewhere as an external logical order. */
  adopt(record: OrderRecord, baseline: boolean): StoredExecution {
    const now = this.clock.nowMs();
    const clientOrderId = `ext-${record.orderId}`;
    if (this.store.execution(record.orderId) === null) {
      this.store.recordExternal(externalOrderOf(record, clientOrderId, now));
      this.store.link(
        clientOrderId,
        record.orderId,
        'create',
        {
          symbol: record.symbol,
          side: record.side === 'SELL' ? 'SELL' : 'BUY',
          orderedAt: record.orderedAt.toMillis(),
        },
        now,
        baseline ? cumulativeOf(record.execution) : null,
      );
      this.sink.alert({
        type: 'ExternalOrderAdopted',
        clientOrderId,
        brokerOrderId: record.orderId,
        tsEvent: now,
      });
    }
    return this.store.execution(record.orderId) as StoredExecution;
  }

  /**
   * Ends a broker order the broker has no record of (see {@link NOT_FOUND_STATUS}): closed with
   * nothing counted, reported, and its logical order ended once nothing else of it is open.
   */
  endMissing(owned: StoredExecution): void {
    const now = this.clock.nowMs();
    if (this.ownership.leaves(owned.clientOrderId, this.ownership.others())) return;
    // another process wrote it since (counted or ended it): the next poll reads it as it is now
    if (this.store.applyReport(owned, NOT_FOUND_STATUS, true, null, now, now) === STALE) return;
    this.sink.alert({
      type: 'OrderMissingAtBroker',
      clientOrderId: owned.clientOrderId,
      brokerOrderId: owned.brokerOrderId,
      tsEvent: now,
    });
    this.settleLogical(owned.clientOrderId);
  }

  /**
   * Emits the end of a logical order once every broker order and command of it is settled.
   *
   * @param record - the report that closed one of its broker orders, when there is one (it tells a
   *   DAY order the broker ended at the end of its trading day)
   */
  settleLogical(clientOrderId: string, record?: OrderRecord): void {
    this.sink.emit(this.factory.settle(clientOrderId, record));
  }
}

/**
 * The reports of a batch with those of one logical order together, at the place of its first one,
 * and among them by `orderedAt` (stable: one order's reports keep their order). A modify ends the
 * original `REPLACED` and places its replacement, so every fill of an original is older than every
 * fill of its replacement (a cancel's record, placed by the cancel, has none); a poll reads the
 * replacement in the OPEN list before the original on the CLOSED pages or in a detail read, and
 * counted so, its fill went out first (`replacement-fill-order.int.test.ts`).
 *
 * @param counted - the batch's reports with their stored broker orders
 */
export function inChainOrder<T extends readonly [OrderRecord, StoredExecution]>(counted: readonly T[]): T[] {
  const group = new Map<string, number>();
  for (const [, owned] of counted)
    if (!group.has(owned.clientOrderId)) group.set(owned.clientOrderId, group.size);
  const rank = (entry: T): number => group.get(entry[1].clientOrderId) ?? 0;
  return counted
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        rank(a.entry) - rank(b.entry) ||
        a.entry[0].orderedAt.toMillis() - b.entry[0].orderedAt.toMillis() ||
        a.index - b.index,
    )
    .map((x) => x.entry);
}
