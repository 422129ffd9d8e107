/**
 * Whether a report of a broker order is older than one already taken in. The spec says nothing of
 * the order in which the broker's reads are answered (a detail read served from a lagging replica,
 * a listing asked before a later poll and answered after it, a report read again after a restart),
 * but the broker never lowers an order's filled quantity nor reopens an ended order: a report that
 * does either was made before the one already known. Both owners of what an order's reports say
 * apply this one rule: `orderUpdates$`'s tracker (`streams/order-tracker.ts`: such a report emits
 * nothing and is not kept) and the engine's order manager (its stored execution row is not written
 * back).
 *
 * @module
 */
import { BrokerOrderStatus, type Decimal, TERMINAL_BROKER_ORDER_STATUSES } from '@hoga/core';
import type { OrderRecord } from '../schemas/orders.js';

/** What the rule compares of two reports of one order (a stored row has it too). */
export interface ReportProgress {
  /** The broker's status (a stored row may hold one of its owner's, which no rule here names). */
  readonly status: string;
  /** The cumulative filled quantity. */
  readonly filledQuantity: Decimal;
}

/**
 * The ends of an order itself. Not `CANCEL_REJECTED` nor `REPLACE_REJECTED`: those are the records
 * of a cancel or modify, after which the order goes back to its state (were they ever shown on the
 * order itself, it would work again).
 */
const ORDER_ENDS: ReadonlySet<string> = new Set<string>([
  BrokerOrderStatus.FILLED,
  BrokerOrderStatus.CANCELED,
  BrokerOrderStatus.REJECTED,
  BrokerOrderStatus.REPLACED,
]);

/** The progress a broker's order record reports. */
export function progressOf(record: OrderRecord): ReportProgress {
  return { status: record.status, filledQuantity: record.execution.filledQuantity };
}

/**
 * Whether `report` is older than `known`: its filled quantity is smaller, or `known` showed the
 * order ended (`FILLED`, `CANCELED`, `REJECTED`, `REPLACED`) and `report` shows it in no final
 * state. Taking such a report in would set the order back (and emit the same fill, or end, again
 * with the next report). Reports of the same progress, or of statuses the rule does not order
 * (one working status after another), are not older.
 *
 * @param known - the last report taken in (or what was stored of it)
 * @param report - a new report of the same order
 */
export function isOlderReport(known: ReportProgress, report: ReportProgress): boolean {
  if (report.filledQuantity.lt(known.filledQuantity)) return true;
  return ORDER_ENDS.has(known.status) && !TERMINAL_BROKER_ORDER_STATUSES.has(report.status);
}
