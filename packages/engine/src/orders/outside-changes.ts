/**
 * Modifies of an order made by another process on the same store (`hoga order modify`, another
 * engine), told on this manager's event stream as `OrderModified`, as a modify of its own is told.
 * That process writes its command, links the replacement to the logical order and writes the new
 * terms to the store; this one, whose strategy placed the order, sees only the broker orders in
 * its polls: the original `REPLACED`, the replacement under the same logical order. Before, nothing
 * of it was told: the strategy's `ctx.order()` kept the old price and quantity while the broker
 * worked the new ones, and the risk module valued the order at them.
 *
 * For each open logical order it reports on, the manager keeps the broker order whose terms its
 * events last told (its `OrderAccepted`, its own `OrderModified`; at a start, the current one: the
 * strategies read the orders from the store once it is reconciled). Before a report of another
 * broker order of it is counted, the done modifies that lead on from that one (another process's:
 * this one's own are told as they are answered) are told in the order they were made, each with
 * the new broker order id, the one it replaced, the new price and the order's new total quantity,
 * so the replacement's fills come after the terms they fill. A cancel from another process needs
 * nothing here: the order ends `OrderCanceled` once its broker orders are all closed.
 *
 * @module
 */

import type { ModifyContent } from '@hoga/connector';
import { Decimal, type OrderEvent } from '@hoga/core';
import type { OrderEventFactory } from './order-event-factory.js';
import { CommandStatus, type OrderManagerStore, type StoredCommand } from './order-manager-store.js';

/** Events after which an order's terms no longer change. */
const ENDING = new Set<OrderEvent['type']>([
  'OrderFilled',
  'OrderCanceled',
  'OrderExpired',
  'OrderRejected',
  'OrderDenied',
]);

/** See the module description. */
export class OutsideChanges {
  /** By logical order: the broker order whose terms its events last told. */
  private readonly told = new Map<string, string>();

  /**
   * @param store - the manager's tables
   * @param factory - builds the events
   * @param emit - the manager's event stream (held back while a batch of reports is written)
   */
  constructor(
    private readonly store: OrderManagerStore,
    private readonly factory: OrderEventFactory,
    private readonly emit: (event: OrderEvent) => void,
  ) {}

  /** At a start, once reconciled: the open orders' terms are the current broker order's. */
  seed(): void {
    for (const { clientOrderId, brokerOrderId } of this.store.openOrderHeads())
      if (!this.told.has(clientOrderId)) this.told.set(clientOrderId, brokerOrderId);
  }

  /** The manager's events told the terms of `brokerOrderId` (its create's, its own modify's). */
  tell(clientOrderId: string, brokerOrderId: string): void {
    this.told.set(clientOrderId, brokerOrderId);
  }

  /** An event went out: an order that ended has no terms to follow any longer. */
  sent(event: OrderEvent): void {
    if (ENDING.has(event.type)) this.told.delete(event.clientOrderId);
  }

  /**
   * Tells the modifies another process made of the order since the broker order its events last
   * told (see the module description). Cheap when `brokerOrderId`, the broker order a report is
   * of, is that one (most reports), or the order is not followed.
   *
   * @param brokerOrderId - the broker order whose report is about to be counted; null: unknown
   */
  catchUp(clientOrderId: string, brokerOrderId: string | null): void {
    let at = this.told.get(clientOrderId);
    if (at === undefined || at === brokerOrderId) return;
    const modifies = this.store
      .commandsOf(clientOrderId)
      .filter(
        (c) => c.kind === 'modify' && c.status === CommandStatus.DONE && c.resultBrokerOrderId !== null,
      );
    let next = following(modifies, at);
    if (next === undefined) return;
    // as the file holds it now: the current broker order and what the earlier ones filled
    const executions = this.store.reload(clientOrderId);
    while (next !== undefined) {
      const made = next.resultBrokerOrderId as string;
      let filled = new Decimal(0);
      for (const e of executions) if (e.brokerOrderId !== made) filled = filled.plus(e.filledQuantity);
      this.emit(
        this.factory.modified(clientOrderId, made, at, next.content as unknown as ModifyContent, filled),
      );
      modifies.splice(modifies.indexOf(next), 1);
      at = made;
      this.told.set(clientOrderId, at);
      next = following(modifies, at);
    }
  }
}

/** The done modify that addressed `brokerOrderId`, if any. */
function following(modifies: readonly StoredCommand[], brokerOrderId: string): StoredCommand | undefined {
  return modifies.find((c) => c.targetBrokerOrderId === brokerOrderId);
}
