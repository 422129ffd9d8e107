/**
 * The reads of the order manager's persistence and what it keeps of them in memory: the owned
 * broker orders with their cumulative execution, which of them belong to a logical order, and the
 * logical orders' heads (row id, currency, state, current broker id). What is kept is dropped when
 * a write finds the row changed by another process sharing the store, when a transaction that wrote
 * it is rolled back, and on {@link OrderExecutionReads.reload}. The writes are
 * {@link OrderManagerStore}'s.
 *
 * @module
 */

import type { Currency, OrderState } from '@hoga/core';
import { OrderCommandTables } from './order-command-tables.js';
import { type ExecutionRow, execution, type OrderHead, type StoredExecution } from './order-manager-rows.js';

/** How many broker orders (and logical orders' heads) are kept in memory at most. */
const KEPT = 10_000;

/** Reads the owned broker orders and the logical orders' heads; see the module description. */
export class OrderExecutionReads extends OrderCommandTables {
  /**
   * The owned broker orders as last written, by id: what a read would return unless another
   * process sharing the store wrote the row since, which the report's write finds out
   * (`STALE` of `OrderManagerStore.applyReport`; dropped then, and when a transaction that wrote it is rolled back). Spares a
   * read and four decimal parses per report. What decides an order's end or a command's target is
   * read again ({@link OrderExecutionReads.reload}).
   */
  protected readonly executions = new Map<string, StoredExecution>();
  /** The broker order ids of the logical orders whose list was read (dropped when one is linked). */
  protected readonly executionIds = new Map<string, readonly string[]>();
  /** The logical orders' heads as last read or written (the manager writes their state and id). */
  protected readonly heads = new Map<string, OrderHead>();

  protected override forget(): void {
    this.executions.clear();
    this.executionIds.clear();
    this.heads.clear();
  }

  /** Drops what is kept of a broker order and its logical order (read again from the file next). */
  protected dropKept(brokerOrderId: string, clientOrderId: string): void {
    this.executions.delete(brokerOrderId);
    this.executionIds.delete(clientOrderId);
    this.heads.delete(clientOrderId);
  }

  /** Keeps a broker order as read or written (all dropped once {@link KEPT} are kept). */
  protected keep(found: StoredExecution): StoredExecution {
    if (this.executions.size >= KEPT) {
      this.executions.clear();
      this.executionIds.clear();
    }
    this.executions.set(found.brokerOrderId, found);
    return found;
  }

  /** The broker order with this id, if the manager owns it. */
  execution(brokerOrderId: string): StoredExecution | null {
    const kept = this.executions.get(brokerOrderId);
    if (kept !== undefined) return kept;
    const row = this.statements.execution.get(brokerOrderId) as ExecutionRow | undefined;
    return row === undefined ? null : this.keep(execution(row));
  }

  /** The owned broker orders among these ids, by id (one read for a poll's reports). */
  executionsById(brokerOrderIds: readonly string[]): Map<string, StoredExecution> {
    const found = new Map<string, StoredExecution>();
    const missing: string[] = [];
    for (const id of brokerOrderIds) {
      const kept = this.executions.get(id);
      if (kept === undefined) missing.push(id);
      else found.set(id, kept);
    }
    if (missing.length === 0) return found;
    const rows = this.statements.executionsIn.all(JSON.stringify(missing)) as ExecutionRow[];
    for (const row of rows) found.set(row.broker_order_id, this.keep(execution(row)));
    return found;
  }

  /** Owned broker orders not seen closed yet. */
  openExecutions(): StoredExecution[] {
    return (this.statements.openExecutions.all() as ExecutionRow[]).map(execution);
  }

  /** The broker orders of one logical order. */
  executionsOf(clientOrderId: string): StoredExecution[] {
    const ids = this.executionIds.get(clientOrderId);
    if (ids !== undefined) {
      const all: StoredExecution[] = [];
      for (const id of ids) {
        const found = this.execution(id);
        if (found !== null) all.push(found);
      }
      return all;
    }
    const all = (this.statements.executionsOf.all(clientOrderId) as ExecutionRow[]).map((row) =>
      this.keep(execution(row)),
    );
    this.executionIds.set(
      clientOrderId,
      all.map((e) => e.brokerOrderId),
    );
    return all;
  }

  /**
   * Reads a logical order's head and broker orders again from the file, and keeps them: another
   * process on the same store (`hoga order`, another engine) may have linked, modified, cancelled
   * or closed them since they were kept. Modifies and cancels find their target this way, and a
   * logical order is settled on what the file holds. Returns its broker orders.
   */
  reload(clientOrderId: string): StoredExecution[] {
    this.heads.delete(clientOrderId);
    this.executionIds.delete(clientOrderId);
    return this.executionsOf(clientOrderId);
  }

  /** The live logical orders still open whose every broker order is closed. */
  finishedOpenOrders(): string[] {
    return (this.statements.finishedOpen.all() as { client_order_id: string }[]).map(
      (r) => r.client_order_id,
    );
  }

  /** The open live logical orders with a broker order, and their current broker order id. */
  openOrderHeads(): { clientOrderId: string; brokerOrderId: string }[] {
    return (this.statements.openHeads.all() as { client_order_id: string; broker_order_id: string }[]).map(
      (r) => ({ clientOrderId: r.client_order_id, brokerOrderId: r.broker_order_id }),
    );
  }

  /** The logical order's row id, currency, state and current broker id (a narrow read), or null. */
  orderHead(clientOrderId: string): OrderHead | null {
    const kept = this.heads.get(clientOrderId);
    if (kept !== undefined) return kept;
    const row = this.statements.orderHead.get(clientOrderId) as
      | { id: number; currency: Currency; state: OrderState; broker_order_id: string | null }
      | undefined;
    if (row === undefined) return null;
    const head = { id: row.id, currency: row.currency, state: row.state, brokerOrderId: row.broker_order_id };
    if (this.heads.size >= KEPT) this.heads.clear();
    this.heads.set(clientOrderId, head);
    return head;
  }
}
