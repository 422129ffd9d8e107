/**
 * The change side of the order manager's command sending: modifies and cancels written to the
 * store, with their order's pending state, before they are sent to the broker order they address;
 * a target a modify replaced meanwhile is followed to the replacement and the change sent again
 * there; their answers go to {@link CommandAnswers}, a lost one is settled from the order's state
 * or by the resolver.
 *
 * @module
 */

import type { ModifyContent } from '@hoga/connector';
import { BrokerOrderStatus } from '@hoga/core';
import type { CancelOrder, ModifyOrder } from '../commands/order-commands.js';
import { unsendableModify } from '../commands/order-commands.js';
import { type ChangeRefusal, ChangeTargets, superseded } from './change-targets.js';
import type { CommandAnswers } from './command-answers.js';
import type { CommandResolver } from './command-resolver.js';
import type { OrderEventFactory } from './order-event-factory.js';
import type { OrderManager } from './order-manager.js';
import { codeOf, endedOrderCode, STORE_UNAVAILABLE, storeRefused } from './order-manager-options.js';
import { CommandStatus, type StoredCommand, type StoredExecution } from './order-manager-store.js';
import { modifyContent, modifyRequest, type OrderGateway } from './order-requests.js';

/** How often a modify or cancel refused as superseded is sent again to a newer broker order. */
const CHANGE_RETRIES = 3;

/** See the module description. */
export class ChangeSender {
  /** Which broker order a modify or cancel goes to. */
  private readonly targets: ChangeTargets;

  /**
   * @param m - the order manager (store, gateway, clock, event stream, report counting)
   * @param factory - builds the events
   * @param answers - links, settles and reports the commands' answers
   * @param resolver - settles commands whose answer was lost
   * @param unstored - takes a command whose answer the store could not take (looked for once it can)
   */
  constructor(
    private readonly m: OrderManager,
    private readonly factory: OrderEventFactory,
    private readonly answers: CommandAnswers,
    private readonly resolver: CommandResolver,
    private readonly unstored: (stored: StoredCommand, error: unknown) => void,
  ) {
    this.targets = new ChangeTargets(m);
  }

  /** Stores a modify with its order's pending state, then sends it to the order's current broker order. */
  async modify(command: ModifyOrder): Promise<void> {
    const target = await this.targets.of(command.clientOrderId, 'modify');
    // refused unsent: no open broker order, or a modify the connector would not send (a MARKET price)
    const unsent = 'code' in target ? target : unsendableModify(command);
    if (unsent !== null || 'code' in target) {
      const { code, reason } = unsent ?? (target as ChangeRefusal);
      this.m.emit(this.factory.modifyRejected(command.clientOrderId, code, reason, false));
      return;
    }
    const content = modifyContent(command);
    const refused = this.storeChange(command, 'modify', target, { ...content });
    if (refused !== null) {
      this.m.emit(this.factory.modifyRejected(command.clientOrderId, STORE_UNAVAILABLE, refused, false));
      return;
    }
    this.m.emit(this.factory.modifyRequested(command.clientOrderId, target.brokerOrderId, command));
    await this.sendChange(this.answers.requireCommand(command.commandId));
  }

  /** Stores a cancel with its order's pending state, then sends it to the order's current broker order. */
  async cancel(command: CancelOrder): Promise<void> {
    const target = await this.targets.of(command.clientOrderId, 'cancel');
    if ('code' in target) {
      this.m.emit(this.factory.cancelRejected(command.clientOrderId, target.code, target.reason, false));
      return;
    }
    const refused = this.storeChange(command, 'cancel', target, {});
    if (refused !== null) {
      this.m.emit(this.factory.cancelRejected(command.clientOrderId, STORE_UNAVAILABLE, refused, false));
      return;
    }
    this.m.emit(this.factory.cancelRequested(command.clientOrderId, target.brokerOrderId));
    await this.sendChange(this.answers.requireCommand(command.commandId));
  }

  /**
   * Writes a modify or cancel, and its order's pending state, before it is sent. A store that
   * refuses the writes (full, locked past the busy timeout, an I/O error) keeps neither, and the
   * command is not sent (fail closed: nothing reaches the broker that the store does not know of):
   * answers the reason of its `store-unavailable` refusal, else null. Before, the store's error
   * rejected the venue's promise: the strategy's `ctx.cancel` (or a kill switch's cancel,
   * `--cancel-on-stop`'s) failed the run as a throw in the strategy's hook (`strategy … threw in
   * venue`; a kill switch's cancel was dropped unsaid), and nothing told it its order was still
   * working; a row written whose order state then was not stayed `sending`, never sent.
   */
  private storeChange(
    command: ModifyOrder | CancelOrder,
    kind: 'modify' | 'cancel',
    target: StoredExecution,
    content: Record<string, unknown>,
  ): string | null {
    const now = this.m.clock.nowMs();
    const id = command.clientOrderId;
    // a cancel pending or done (from the file: maybe another process's) outranks a modify, as in core
    const pending = () => (kind === 'cancel' ? 'PENDING_CANCEL' : this.m.store.pendingChange(id));
    try {
      this.m.store.recordChange(command.commandId, kind, target, command.strategyId, content, now, () =>
        this.m.store.setOrderState(id, pending() ?? 'PENDING_MODIFY', now),
      );
      return null;
    } catch (error) {
      return storeRefused(kind, error);
    }
  }

  private async sendChange(stored: StoredCommand, retries = CHANGE_RETRIES): Promise<void> {
    const target = stored.targetBrokerOrderId ?? '';
    let outcome: Awaited<ReturnType<OrderGateway['cancelOrder']>>;
    try {
      outcome =
        stored.kind === 'modify'
          ? await this.m.gateway.modifyOrder(
              target,
              modifyRequest(stored.content as unknown as ModifyContent),
            )
          : await this.m.gateway.cancelOrder(target);
    } catch (error) {
      try {
        await this.changeFailed(stored, retries, error);
      } catch (local) {
        this.unstored(stored, local);
      }
      return;
    }
    try {
      if (outcome.kind === 'acknowledged') {
        this.answers.onChanged(stored, outcome.orderId, null);
        return;
      }
      // The answer was lost; the connector read the order instead. Its state tells whether the
      // change happened, never which new order it made: that is looked for in the history.
      this.m.applyRecord(outcome.order);
      if (outcome.applied) {
        this.m.store.settleCommand(stored.commandId, CommandStatus.AMBIGUOUS, this.m.clock.nowMs(), {
          error: 'answer lost; order shows the change',
        });
        await this.resolver.resolve(this.answers.requireCommand(stored.commandId));
      } else if (outcome.order.status === BrokerOrderStatus.REPLACED && retries > 0) {
        // a modify replaced the target (another process's, or an earlier one of this process whose
        // answer is not in yet): follow it, as a 409 `already-modified` answered is followed
        await this.follow(stored, replacedRefusal(target), retries);
      } else {
        const status = outcome.order.status;
        this.answers.rejectChange(stored, endedOrderCode(status), `the order was already ${status}`);
      }
    } catch (error) {
      this.unstored(stored, error);
    }
  }

  /** A modify or cancel the broker refused, or whose answer was lost. */
  private async changeFailed(stored: StoredCommand, retries: number, error: unknown): Promise<void> {
    if (retries > 0 && superseded(error)) {
      // the order moved on (a modify of another process, or of this one): follow it
      const reason = error instanceof Error ? error.message : String(error);
      await this.follow(stored, { code: codeOf(error), reason }, retries);
      return;
    }
    this.answers.onCommandError(stored, error);
  }

  /**
   * A modify or cancel whose answer was lost, found by a later poll (the connector's read of the
   * order failed too) to address a broker order the broker shows `REPLACED`: followed to the
   * replacement stored by now and sent again there, as a 409 `already-modified` answered is
   * (not waited for: a poll does not stop for it); refused `already-modified` when none is stored.
   * Before, it was refused `order-closed` and never sent on: a strategy's cancel was dropped while
   * its order kept working at the broker under the new id. @internal
   */
  async followReplaced(stored: StoredCommand): Promise<void> {
    try {
      await this.follow(stored, replacedRefusal(stored.targetBrokerOrderId ?? ''), CHANGE_RETRIES, 0);
    } catch (error) {
      this.unstored(stored, error);
    }
  }

  /**
   * Sends a modify or cancel whose target was replaced ({@link ChangeTargets.after}) again to the
   * logical order's newer broker order (the command pointed at it first); refuses it when there is
   * none to send it to.
   */
  private async follow(
    stored: StoredCommand,
    refused: ChangeRefusal,
    retries: number,
    waitMs?: number,
  ): Promise<void> {
    const target = stored.targetBrokerOrderId ?? '';
    const next = await this.targets.after(stored, refused, waitMs);
    if ('code' in next) {
      this.answers.rejectChange(stored, next.code, next.reason);
      return;
    }
    if (next.brokerOrderId !== target)
      this.m.store.retargetCommand(stored.commandId, next.brokerOrderId, this.m.clock.nowMs());
    await this.sendChange(this.answers.requireCommand(stored.commandId), retries - 1);
  }
}

/** What a modify or cancel is refused when its target is found `REPLACED`: the broker's 409 code. */
function replacedRefusal(brokerOrderId: string): ChangeRefusal {
  return { code: 'already-modified', reason: `broker order ${brokerOrderId} was modified (REPLACED)` };
}
