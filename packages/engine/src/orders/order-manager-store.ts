/**
 * The order manager's persistence: commands written with their full content before they are sent
 * (`OrderCommandTables`), the logical orders' rows (`OrderIntentTables`), which broker order belongs
 * to which logical order, the cumulative execution counted per broker order (read and kept in
 * memory by `OrderExecutionReads`, written here), and the positions those fills built
 * (`OrderManagerTables`).
 * Order identity and fills are mirrored into the store's `orders`, `order_broker_ids` and `fills`
 * (what `hoga db` shows); the manager's own tables (migrations 4 and 7) are the source of truth
 * after a restart.
 *
 * @module
 */

import type { ModifyContent } from '@hoga/connector';
import { Decimal, formatDecimal, type OrderEvent, type OrderState } from '@hoga/core';
import type { CumulativeExecution, ExecutionDelta } from './execution-delta.js';
import { OrderExecutionReads } from './order-execution-reads.js';
import type { CountedFill, StoredExecution } from './order-manager-rows.js';
import { modifiedTerms } from './order-requests.js';
import { dropToldFills, noteUntoldEvent } from './untold-events.js';

export type { CommandParams, LoggedCreate } from './order-command-tables.js';
export {
  CommandStatus,
  type CountedFill,
  type OrderHead,
  type StoredCommand,
  type StoredExecution,
} from './order-manager-rows.js';

/**
 * The stored status of a broker order the broker answered 404 `order-not-found` for, read after
 * read, while it was open here. The broker keeps every order since the account opened, so this is
 * another account's order or a broker that lost its state (a simulator restarted without its
 * state file); its logical order ends `CANCELED` with reason `not-found-at-broker`.
 */
export const NOT_FOUND_STATUS = 'NOT_FOUND';

/**
 * What {@link OrderManagerStore.applyReport} answers when the broker order's row is no longer what
 * the report was counted from: another process sharing the store counted or ended it since (a
 * manual order that two runs poll). Nothing was written; count again from the row as it is now.
 */
export const STALE = 'stale';

/** Reads and writes the manager's tables; see the module description. */
export class OrderManagerStore extends OrderExecutionReads {
  /**
   * At startup: each open live order takes the terms of its last confirmed modify, which an older
   * hoga did not write to `orders` (it kept the create's price with the new broker order id, and a
   * restarted strategy's `ctx.order()` said the old price).
   */
  repairModifiedTerms(at: number): void {
    const rows = this.statements.lastModifies.all() as {
      client_order_id: string;
      content: string;
      result_broker_order_id: string | null;
    }[];
    for (const row of rows) {
      const content = JSON.parse(row.content) as ModifyContent;
      let filled = new Decimal(0);
      for (const e of this.executionsOf(row.client_order_id))
        if (e.brokerOrderId !== row.result_broker_order_id) filled = filled.plus(e.filledQuantity);
      this.setOrderTerms(row.client_order_id, modifiedTerms(content, filled), at);
    }
  }

  /**
   * Makes a broker order part of a logical order (durably), starting from `baseline` (zero for an
   * order the manager made; the current totals for an order adopted at the first start, whose
   * fills the holdings already contain).
   */
  link(
    clientOrderId: string,
    brokerOrderId: string,
    kind: 'create' | 'modify' | 'cancel',
    info: { readonly symbol: string; readonly side: 'BUY' | 'SELL'; readonly orderedAt: number | null },
    at: number,
    baseline: CumulativeExecution | null = null,
  ): void {
    // The broker order and the logical order's lineage in one transaction (one commit).
    this.durable(this.runTx, () => {
      this.statements.insertExecution.run({
        id: brokerOrderId,
        clientOrderId,
        symbol: info.symbol,
        side: info.side,
        status: 'PENDING',
        q: (baseline?.filledQuantity ?? 0).toString(),
        a: (baseline?.filledAmount ?? 0).toString(),
        c: (baseline?.commission ?? 0).toString(),
        t: (baseline?.tax ?? 0).toString(),
        orderedAt: info.orderedAt,
        at,
      });
      const order = this.orderKey(clientOrderId);
      if (order === null || this.statements.linkOwner.get(brokerOrderId) !== undefined) return;
      const { n } = this.statements.nextOrdinal.get(order.id) as { n: number };
      this.statements.insertLink.run(brokerOrderId, order.id, n, kind, at);
      this.statements.setCurrentBrokerId.run(brokerOrderId, at, order.id);
    });
    this.dropKept(brokerOrderId, clientOrderId);
  }

  /** Repairs lineage links a crash left out (the manager's table is written first). */
  repairLinks(at: number): void {
    for (const row of this.statements.unlinked.all() as {
      broker_order_id: string;
      client_order_id: string;
    }[]) {
      if (this.db.orders.get(row.client_order_id) !== null)
        this.db.orders.linkBrokerOrderId(row.client_order_id, row.broker_order_id, 'create', at);
      this.heads.delete(row.client_order_id);
    }
  }

  /**
   * Counts a broker report: stores the new totals and status and, when quantity was added, the
   * fill (store `fills`, positions) in one transaction. Returns the fill, or null; or
   * {@link STALE}, writing nothing, when the row no longer holds `owned`'s quantity and status.
   */
  applyReport(
    owned: StoredExecution,
    status: string,
    closed: boolean,
    delta: ExecutionDelta | null,
    filledAt: number,
    at: number,
  ): CountedFill | null | typeof STALE {
    // inside a poll's batch already: no savepoint per fill
    if (this.conn.inTransaction) return this.countReport(owned, status, closed, delta, filledAt, at);
    return this.runTx(() => this.countReport(owned, status, closed, delta, filledAt, at)) as
      | CountedFill
      | null
      | typeof STALE;
  }

  private countReport(
    owned: StoredExecution,
    status: string,
    closed: boolean,
    delta: ExecutionDelta | null,
    filledAt: number,
    at: number,
  ): CountedFill | null | typeof STALE {
    const after = delta?.after ?? owned;
    const wasQ = owned.filledQuantity.toString();
    // Status and `closed` rarely change; leaving them out then spares the index on `closed`.
    const { changes } = (
      status === owned.status && closed === owned.closed
        ? this.statements.updateTotals.run(
            after.filledQuantity.toString(),
            after.filledAmount.toString(),
            after.commission.toString(),
            after.tax.toString(),
            at,
            owned.brokerOrderId,
            wasQ,
            owned.status,
          )
        : this.statements.updateExecution.run({
            id: owned.brokerOrderId,
            status,
            closed: closed ? 1 : 0,
            q: after.filledQuantity.toString(),
            a: after.filledAmount.toString(),
            c: after.commission.toString(),
            t: after.tax.toString(),
            at,
            wasQ,
            wasStatus: owned.status,
          })
    ) as { changes: number };
    if (changes === 0) {
      // another process wrote the row since this one kept it: read it again before counting
      this.dropKept(owned.brokerOrderId, owned.clientOrderId);
      return STALE;
    }
    const updated = this.keep({
      ...owned,
      status,
      closed,
      filledQuantity: after.filledQuantity,
      filledAmount: after.filledAmount,
      commission: after.commission,
      tax: after.tax,
    });
    if (delta === null) return null;
    // The logical order's totals over its broker orders (most have one: this one).
    const all = this.executionsOf(owned.clientOrderId);
    let logical = updated.filledQuantity;
    let amount = updated.filledAmount;
    if (all.length !== 1 || all[0] !== updated) {
      logical = new Decimal(0);
      amount = new Decimal(0);
      for (const e of all) {
        logical = logical.plus(e.filledQuantity);
        amount = amount.plus(e.filledAmount);
      }
    }
    const order = this.orderHead(owned.clientOrderId);
    if (order !== null) {
      this.db.fills.record({
        orderId: order.id,
        brokerOrderId: owned.brokerOrderId,
        symbol: owned.symbol,
        side: owned.side,
        quantity: delta.quantity,
        price: delta.price,
        commission: delta.commission,
        commissionCurrency: order.currency,
        tax: delta.tax,
        filledAt,
        cumulativeQuantity: logical,
      });
    }
    const signed = owned.side === 'BUY' ? delta.quantity : delta.quantity.negated();
    this.addToPosition(owned.symbol, signed, at);
    return {
      brokerOrderId: owned.brokerOrderId,
      clientOrderId: owned.clientOrderId,
      delta,
      logicalCumulative: logical,
      logicalAmount: amount,
      order,
    };
  }

  /**
   * Notes an event for its strategy's next start (`untold-events.ts`), in the caller's transaction
   * (a poll's count: a refusal rolls it back, as any write of it). Outside one (an end settled after
   * a command's answer), a store that refuses the note leaves it out: the event still goes out, and
   * the strategy is not told of it at its next start (as before the notes).
   */
  noteUntold(event: OrderEvent): void {
    if (this.conn.inTransaction) {
      noteUntoldEvent(this.db, event);
      return;
    }
    try {
      noteUntoldEvent(this.db, event);
    } catch {
      // see above: the end is in the store; only its telling at the next start is lost
    }
  }

  /** Whether a transaction of the store's is open (its writes commit together). */
  get inTransaction(): boolean {
    return this.conn.inTransaction;
  }

  /**
   * Drops the notes of fills of strategies this process runs once they were told (per strategy,
   * the fills' ids), in one transaction; a store that refuses it leaves them (the next start tells
   * those fills once more: twice rather than never).
   */
  dropTold(told: ReadonlyMap<string, ReadonlySet<string>>): void {
    try {
      this.db.transaction(() => {
        for (const [strategyId, fillIds] of told) dropToldFills(this.db, strategyId, fillIds, 'live');
      });
    } catch {
      // see above
    }
  }

  /** The logical order's state and fill totals in the store's `orders`. */
  setOrderState(
    clientOrderId: string,
    state: OrderState,
    at: number,
    filled?: Decimal,
    average?: Decimal | null,
    from?: OrderState,
  ): void {
    const averageText = average === undefined || average === null ? null : formatDecimal(average);
    const changed = (
      filled === undefined
        ? this.statements.setState.run(state, at, clientOrderId)
        : state === from // the state column (indexed) is left alone when it stays
          ? this.statements.setFilled.run(at, formatDecimal(filled), averageText, clientOrderId)
          : this.statements.setStateFilled.run(state, at, formatDecimal(filled), averageText, clientOrderId)
    ) as { changes: number };
    const head = this.heads.get(clientOrderId);
    if (head !== undefined && head.state !== state) this.heads.set(clientOrderId, { ...head, state });
    // An adopted order may have no row; an own order without one is a defect: the store says so.
    if (changed.changes === 0 && !clientOrderId.startsWith('ext-')) {
      this.heads.delete(clientOrderId);
      this.db.orders.updateState(clientOrderId, { state, updatedAt: at });
    }
  }
}
