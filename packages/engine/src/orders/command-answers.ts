/**
 * The answer side of the order manager's commands: a create's or a change's outcome linked to the
 * logical order (the new broker order id), the command settled, the logical order's state and
 * terms written, and the event reported; a refusal settled and reported as such. Kept apart from
 * the sender (`order-sending.ts`), which writes and sends commands and keeps those whose answer the
 * store could not take, because an outcome does not only come as the send's answer: the resolver
 * (through the {@link OrderManager}) settles a command whose answer was lost from what it finds in
 * the order history, or rejects a change it finds did not happen.
 *
 * @module
 */

import type { ModifyContent, OrderRecord } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import type { OrderEventFactory } from './order-event-factory.js';
import type { OrderManager } from './order-manager.js';
import { ambiguous, codeOf } from './order-manager-options.js';
import { CommandStatus, type StoredCommand } from './order-manager-store.js';
import type { OrderReports } from './order-reports.js';
import { modifiedTerms } from './order-requests.js';
import type { OutsideChanges } from './outside-changes.js';

/** See the module description. */
export class CommandAnswers {
  /**
   * @param m - the order manager (store, clock, event stream, report counting)
   * @param factory - builds the events
   * @param reports - settles logical orders
   * @param outside - the modifies of other processes, told before this one's
   */
  constructor(
    private readonly m: OrderManager,
    private readonly factory: OrderEventFactory,
    private readonly reports: OrderReports,
    private readonly outside: OutsideChanges,
  ) {}

  /** A create's order is known: link it, settle the command, report it. */
  onCreated(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    const now = this.m.clock.nowMs();
    if (this.settled(stored.commandId)) return;
    this.m.store.together(() => {
      if (this.m.store.execution(brokerOrderId) === null) {
        this.m.store.link(
          stored.clientOrderId,
          brokerOrderId,
          'create',
          { symbol: stored.symbol, side: stored.side, orderedAt: record?.orderedAt.toMillis() ?? null },
          now,
        );
      }
      this.m.store.settleCommand(stored.commandId, CommandStatus.DONE, now, { result: brokerOrderId });
      this.m.store.setOrderState(stored.clientOrderId, 'ACCEPTED', now);
    });
    this.outside.tell(stored.clientOrderId, brokerOrderId);
    this.m.emit(this.factory.accepted(stored.clientOrderId, brokerOrderId));
    if (record !== null) this.m.applyRecord(record);
  }

  /** A modify or cancel made `brokerOrderId`: link it, settle, report. */
  onChanged(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    const now = this.m.clock.nowMs();
    if (this.settled(stored.commandId)) return;
    const kind = stored.kind === 'cancel' ? 'cancel' : 'modify';
    // the modifies another process made before this change, told first (this one may follow them)
    this.outside.catchUp(stored.clientOrderId, null);
    if (this.m.store.execution(brokerOrderId) === null) {
      this.m.store.link(
        stored.clientOrderId,
        brokerOrderId,
        kind,
        { symbol: stored.symbol, side: stored.side, orderedAt: record?.orderedAt.toMillis() ?? null },
        now,
      );
    }
    if (kind === 'cancel') {
      this.m.store.settleCommand(stored.commandId, CommandStatus.DONE, now, { result: brokerOrderId });
    } else {
      // A KR modify's quantity is the new broker order's (the original's rest is dropped): the
      // logical order now totals what its broker orders filled so far plus that.
      const content = stored.content as unknown as ModifyContent;
      let filled = new Decimal(0);
      for (const e of this.m.store.executionsOf(stored.clientOrderId)) {
        if (e.brokerOrderId !== brokerOrderId) filled = filled.plus(e.filledQuantity);
      }
      // The stored order takes the terms the broker now holds (hoga db orders, a restart's
      // ctx.order(), the risk checks' value of open buys), with the command's settlement.
      this.m.store.together(() => {
        this.m.store.settleCommand(stored.commandId, CommandStatus.DONE, now, { result: brokerOrderId });
        this.m.store.setOrderTerms(stored.clientOrderId, modifiedTerms(content, filled), now);
        this.settleState(stored.clientOrderId, now);
      });
      this.outside.tell(stored.clientOrderId, brokerOrderId);
      this.m.emit(
        this.factory.modified(
          stored.clientOrderId,
          brokerOrderId,
          stored.targetBrokerOrderId,
          content,
          filled,
        ),
      );
    }
    if (record !== null) this.m.applyRecord(record);
    this.reports.settleLogical(stored.clientOrderId);
  }

  /** A modify or cancel did not take effect. */
  rejectChange(stored: StoredCommand, code: string, reason: string): void {
    const now = this.m.clock.nowMs();
    this.m.store.settleCommand(stored.commandId, CommandStatus.REJECTED, now, {
      error: `${code}: ${reason}`,
    });
    this.settleState(stored.clientOrderId, now);
    this.m.emit(
      stored.kind === 'modify'
        ? this.factory.modifyRejected(stored.clientOrderId, code, reason, true)
        : this.factory.cancelRejected(stored.clientOrderId, code, reason, true),
    );
    this.reports.settleLogical(stored.clientOrderId);
  }

  /**
   * A command's send failed at the broker, or its answer was lost: an ambiguous error leaves it to
   * the resolver; a refusal settles it `rejected` and reports it (a create's order `REJECTED`).
   */
  onCommandError(stored: StoredCommand, error: unknown): void {
    const now = this.m.clock.nowMs();
    if (ambiguous(error)) {
      this.m.store.settleCommand(stored.commandId, CommandStatus.AMBIGUOUS, now, { error: codeOf(error) });
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    if (stored.kind === 'create') {
      this.m.store.settleCommand(stored.commandId, CommandStatus.REJECTED, now, { error: codeOf(error) });
      this.m.store.setOrderState(stored.clientOrderId, 'REJECTED', now);
      this.m.emit(this.factory.rejected(stored.clientOrderId, codeOf(error), reason));
    } else {
      this.rejectChange(stored, codeOf(error), reason);
    }
  }

  /**
   * After a modify or cancel settled: the logical order's state follows core's table, as the
   * strategy's view does. It stays pending while another change of it, from this process or
   * another, is on its way, `PENDING_CANCEL` while a cancel is or was done (a pending cancel
   * outranks a modify: the order is on its way out, and the poll that reads its end records it),
   * else `PENDING_MODIFY` while a modify is; else it goes back from `PENDING_MODIFY` /
   * `PENDING_CANCEL` to working (`PARTIALLY_FILLED` once anything filled, else `ACCEPTED`). An
   * order that ended meanwhile is left alone. Before, only a change on its way kept it pending: the
   * refusal of a modify, or of a second cancel, given after the broker took a cancel wrote
   * `ACCEPTED` until the next poll recorded `CANCELED`, and a cancel refused while a modify was on
   * its way left `PENDING_CANCEL`.
   */
  private settleState(clientOrderId: string, at: number): void {
    const executions = this.m.store.reload(clientOrderId); // as the file holds it now
    const state = this.m.store.orderHead(clientOrderId)?.state;
    if (state !== 'PENDING_MODIFY' && state !== 'PENDING_CANCEL') return;
    const pending = this.m.store.pendingChange(clientOrderId);
    const next =
      pending ?? (executions.some((e) => !e.filledQuantity.isZero()) ? 'PARTIALLY_FILLED' : 'ACCEPTED');
    if (next !== state) this.m.store.setOrderState(clientOrderId, next, at);
  }

  /** Whether a command was already settled (done, rejected or unknown). */
  settled(commandId: string): boolean {
    return this.unsettled(commandId) === null;
  }

  /** The stored command with this id, still being sent or looked for. */
  requireCommand(commandId: string): StoredCommand {
    const found = this.unsettled(commandId);
    if (found !== null) return found;
    throw new Error(`command ${commandId} is not pending`);
  }

  private unsettled(commandId: string): StoredCommand | null {
    const found = this.m.store.command(commandId);
    return found !== null &&
      (found.status === CommandStatus.SENDING || found.status === CommandStatus.AMBIGUOUS)
      ? found
      : null;
  }
}
