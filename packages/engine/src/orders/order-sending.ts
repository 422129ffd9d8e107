/**
 * The command side of the order manager: creates, modifies and cancels written to the store with
 * their full content before they are sent, sent through the gateway, and their answers linked to
 * the logical order (new broker ids), settled, and reported. A lost answer leaves the command
 * ambiguous for the resolver; a refusal is reported.
 *
 * @module
 */

import type { OrderRecord } from '@hoga/connector';
import { Decimal } from '@hoga/core';
import type { CancelOrder, ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import type { CommandResolver } from './command-resolver.js';
import type { CreateContent, ModifyContent } from './history-match.js';
import type { OrderEventFactory } from './order-event-factory.js';
import type { OrderManager } from './order-manager.js';
import { ambiguous, codeOf } from './order-manager-options.js';
import { CommandStatus, type StoredCommand } from './order-manager-store.js';
import type { OrderReports } from './order-reports.js';
import {
  createContent,
  createRequest,
  createRequestOf,
  modifyContent,
  modifyRequest,
  newOrderOf,
  type OrderGateway,
} from './order-requests.js';

/** See the module description. */
export class CommandSender {
  /**
   * @param m - the order manager (store, gateway, clock, event stream, report counting)
   * @param factory - builds the events
   * @param reports - settles logical orders
   * @param resolver - settles commands whose answer was lost
   */
  constructor(
    private readonly m: OrderManager,
    private readonly factory: OrderEventFactory,
    private readonly reports: OrderReports,
    private readonly resolver: CommandResolver,
  ) {}

  async submit(command: SubmitOrder): Promise<void> {
    const intent = command.intent;
    const now = this.m.clock.nowMs();
    const symbol = intent.instrument.symbol;
    if (this.m.isBlocked(symbol)) {
      this.m.emit(
        this.factory.denied(
          intent.clientOrderId,
          command.strategyId,
          'symbol-blocked',
          `${symbol} is blocked`,
        ),
      );
      return;
    }
    const content = createContent(intent);
    const strategyId = intent.strategyId ?? null;
    // Written before it is sent: the command with its full body, one small commit.
    const logged = this.m.store.recordCreate(
      command.commandId,
      intent.clientOrderId,
      { symbol, side: intent.side, strategyId },
      JSON.stringify(content),
      now,
    );
    const stored: StoredCommand = {
      commandId: command.commandId,
      clientOrderId: intent.clientOrderId,
      kind: 'create',
      targetBrokerOrderId: null,
      symbol,
      side: intent.side,
      content: content as unknown as Record<string, unknown>,
      strategyId,
      status: CommandStatus.SENDING,
      resultBrokerOrderId: null,
      error: null,
      checks: 0,
      createdAt: now,
      sentAt: now,
    };
    // The request leaves first (built from the intent's own decimals, equal to the stored body);
    // then the command's and the logical order's rows, and the strategy hears of it
    // (OrderSubmitted) while it is on its way.
    await this.sendCreate(stored, createRequestOf(intent), () => {
      this.m.store.recordSent(logged, newOrderOf(intent, now));
      this.m.emit(this.factory.submitted(intent, now));
    });
  }

  /** Sends (or re-sends, same key) a stored create. */
  async sendCreate(
    stored: StoredCommand,
    request = createRequest(stored.content as unknown as CreateContent),
    sent?: () => void,
  ): Promise<void> {
    try {
      let answer: ReturnType<OrderGateway['createOrder']>;
      try {
        answer = this.m.gateway.createOrder(request);
      } catch (error) {
        answer = Promise.reject(error); // what was sent (or not) is settled below all the same
      }
      sent?.();
      const result = await answer;
      this.onCreated(stored, result.orderId, null);
    } catch (error) {
      this.onCommandError(stored, error);
    }
  }

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
    this.m.emit(this.factory.accepted(stored.clientOrderId, brokerOrderId));
    if (record !== null) this.m.applyRecord(record);
  }

  async modify(command: ModifyOrder): Promise<void> {
    const target = this.m.currentExecution(command.clientOrderId);
    if (target === null || target.closed) {
      this.m.emit(
        this.factory.modifyRejected(
          command.clientOrderId,
          'order-not-open',
          'no open broker order to modify',
        ),
      );
      return;
    }
    const content = modifyContent(command);
    const now = this.m.clock.nowMs();
    this.m.store.recordChange(command.commandId, 'modify', target, command.strategyId, { ...content }, now);
    this.m.store.setOrderState(command.clientOrderId, 'PENDING_MODIFY', now);
    this.m.emit(this.factory.modifyRequested(command.clientOrderId, target.brokerOrderId, command));
    await this.sendChange(this.requireCommand(command.commandId));
  }

  async cancel(command: CancelOrder): Promise<void> {
    const target = this.m.currentExecution(command.clientOrderId);
    if (target === null || target.closed) {
      this.m.emit(
        this.factory.cancelRejected(
          command.clientOrderId,
          'order-not-open',
          'no open broker order to cancel',
        ),
      );
      return;
    }
    const now = this.m.clock.nowMs();
    this.m.store.recordChange(command.commandId, 'cancel', target, command.strategyId, {}, now);
    this.m.store.setOrderState(command.clientOrderId, 'PENDING_CANCEL', now);
    this.m.emit(this.factory.cancelRequested(command.clientOrderId, target.brokerOrderId));
    await this.sendChange(this.requireCommand(command.commandId));
  }

  private async sendChange(stored: StoredCommand): Promise<void> {
    const target = stored.targetBrokerOrderId ?? '';
    try {
      const outcome =
        stored.kind === 'modify'
          ? await this.m.gateway.modifyOrder(
              target,
              modifyRequest(stored.content as unknown as ModifyContent),
            )
          : await this.m.gateway.cancelOrder(target);
      if (outcome.kind === 'acknowledged') {
        this.onChanged(stored, outcome.orderId, null);
        return;
      }
      // The answer was lost; the connector read the order instead. Its state tells whether the
      // change happened, never which new order it made: that is looked for in the history.
      this.m.applyRecord(outcome.order);
      if (outcome.applied) {
        this.m.store.settleCommand(stored.commandId, CommandStatus.AMBIGUOUS, this.m.clock.nowMs(), {
          error: 'answer lost; order shows the change',
        });
        await this.resolver.resolve(this.requireCommand(stored.commandId));
      } else {
        this.rejectChange(stored, 'order-closed', `the order was already ${outcome.order.status}`);
      }
    } catch (error) {
      this.onCommandError(stored, error);
    }
  }

  /** A modify or cancel made `brokerOrderId`: link it, settle, report. */
  onChanged(stored: StoredCommand, brokerOrderId: string, record: OrderRecord | null): void {
    const now = this.m.clock.nowMs();
    if (this.settled(stored.commandId)) return;
    const kind = stored.kind === 'cancel' ? 'cancel' : 'modify';
    if (this.m.store.execution(brokerOrderId) === null) {
      this.m.store.link(
        stored.clientOrderId,
        brokerOrderId,
        kind,
        { symbol: stored.symbol, side: stored.side, orderedAt: record?.orderedAt.toMillis() ?? null },
        now,
      );
    }
    this.m.store.settleCommand(stored.commandId, CommandStatus.DONE, now, { result: brokerOrderId });
    if (kind === 'modify') {
      this.m.store.setOrderState(stored.clientOrderId, 'ACCEPTED', now);
      // A KR modify's quantity is the new broker order's (the original's rest is dropped): the
      // logical order now totals what its broker orders filled so far plus that.
      const content = stored.content as unknown as ModifyContent;
      let filled = new Decimal(0);
      for (const e of this.m.store.executionsOf(stored.clientOrderId)) {
        if (e.brokerOrderId !== brokerOrderId) filled = filled.plus(e.filledQuantity);
      }
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
    this.m.store.setOrderState(stored.clientOrderId, 'ACCEPTED', now);
    this.m.emit(
      stored.kind === 'modify'
        ? this.factory.modifyRejected(stored.clientOrderId, code, reason)
        : this.factory.cancelRejected(stored.clientOrderId, code, reason),
    );
    this.reports.settleLogical(stored.clientOrderId);
  }

  private onCommandError(stored: StoredCommand, error: unknown): void {
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

  /** Whether a command was already settled (done, rejected or unknown). */
  private settled(commandId: string): boolean {
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
