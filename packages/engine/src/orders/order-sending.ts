/**
 * The command side of the order manager: creates, modifies and cancels written to the store with
 * their full content before they are sent, and sent through the gateway; their answers go to
 * {@link CommandAnswers} (linked to the logical order, settled, reported). A lost answer leaves the
 * command ambiguous for the resolver; a refusal is reported; an answer the store could not take is
 * marked ambiguous once it can.
 *
 * @module
 */

import type { CreateContent, ModifyContent } from '@hoga/connector';
import { BrokerOrderStatus } from '@hoga/core';
import type { CancelOrder, ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import { unsendableModify } from '../commands/order-commands.js';
import { type ChangeRefusal, ChangeTargets, superseded } from './change-targets.js';
import type { CommandAnswers } from './command-answers.js';
import type { CommandResolver } from './command-resolver.js';
import { CommandAlreadyStored } from './order-command-tables.js';
import type { OrderEventFactory } from './order-event-factory.js';
import type { OrderManager } from './order-manager.js';
import { codeOf, endedOrderCode, ID_TAKEN, STORE_UNAVAILABLE } from './order-manager-options.js';
import {
  CommandStatus,
  type LoggedCreate,
  type StoredCommand,
  type StoredExecution,
} from './order-manager-store.js';
import {
  createContent,
  createRequest,
  createRequestOf,
  modifyContent,
  modifyRequest,
  newOrderOf,
  type OrderGateway,
} from './order-requests.js';
import { UnstoredAnswers } from './unstored-answers.js';

/** How often a modify or cancel refused as superseded is sent again to a newer broker order. */
const CHANGE_RETRIES = 3;

/** See the module description. */
export class CommandSender {
  /**
   * @param m - the order manager (store, gateway, clock, event stream, report counting)
   * @param factory - builds the events
   * @param answers - links, settles and reports the commands' answers
   * @param resolver - settles commands whose answer was lost
   */
  constructor(
    private readonly m: OrderManager,
    private readonly factory: OrderEventFactory,
    private readonly answers: CommandAnswers,
    private readonly resolver: CommandResolver,
  ) {
    this.targets = new ChangeTargets(m);
    this.unstoredAnswers = new UnstoredAnswers(m, answers);
  }

  /** Which broker order a modify or cancel goes to. */
  private readonly targets: ChangeTargets;
  /** The commands whose answer the store could not take, to be looked for once it can. */
  private readonly unstoredAnswers: UnstoredAnswers;

  async submit(command: SubmitOrder): Promise<void> {
    const intent = command.intent;
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
    const taken = this.takenIdReason(intent.clientOrderId);
    if (taken !== null) {
      this.m.emit(this.factory.denied(intent.clientOrderId, command.strategyId, ID_TAKEN, taken));
      return;
    }
    this.creating.add(intent.clientOrderId);
    try {
      await this.submitNew(command);
    } finally {
      this.creating.delete(intent.clientOrderId);
    }
  }

  /** The clientOrderIds of the creates this process is sending (their rows not written yet). */
  private readonly creating = new Set<string>();

  /**
   * Why a create under `clientOrderId` is refused before it is sent, or null: the store keeps one
   * order per id, and the broker answers a repeated id with the first order (same body, within
   * 10 minutes), a conflict (another body), or a second order (later). The store is read, so an
   * order of an earlier run or of another process counts.
   */
  private takenIdReason(clientOrderId: string): string | null {
    if (this.creating.has(clientOrderId)) {
      return `clientOrderId ${clientOrderId} is being sent for another order now; this order was not sent: give it a new id`;
    }
    const use = this.m.store.idInUse(clientOrderId);
    if (use === null) return null;
    const held = use.state === null ? 'a command being sent' : `an order (${use.state})`;
    return `clientOrderId ${clientOrderId} already names ${held} in hoga's store, which keeps one order per id; this order was not sent: give it a new id`;
  }

  private async submitNew(command: SubmitOrder): Promise<void> {
    const intent = command.intent;
    const now = this.m.clock.nowMs();
    const symbol = intent.instrument.symbol;
    const content = createContent(intent);
    const strategyId = intent.strategyId ?? null;
    // Written before it is sent: the command with its full body, one small commit. A store that
    // refuses it (the disk full: the command journal's line not written) sends nothing, and the
    // strategy is told (before, the store's error failed the run as a throw in the strategy's hook).
    let logged: LoggedCreate;
    try {
      logged = this.m.store.recordCreate(
        command.commandId,
        intent.clientOrderId,
        { symbol, side: intent.side, strategyId },
        JSON.stringify(content),
        now,
      );
    } catch (error) {
      if (error instanceof CommandAlreadyStored) throw error;
      const refused = storeRefused('order', error);
      this.m.emit(this.factory.denied(intent.clientOrderId, command.strategyId, STORE_UNAVAILABLE, refused));
      return;
    }
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
    const record = (): void => {
      this.m.store.recordSent(logged, newOrderOf(intent, now));
      this.m.emit(this.factory.submitted(intent, now));
    };
    await this.sendCreate(stored, createRequestOf(intent), () => {
      try {
        record();
      } catch (error) {
        // the rows are written by the next poll that can (the order may be working at the broker)
        this.unstoredAnswers.createRows(stored.commandId, intent.clientOrderId, record, error);
        throw error;
      }
    });
  }

  /** Sends (or re-sends, same key) a stored create. */
  async sendCreate(
    stored: StoredCommand,
    request = createRequest(stored.content as unknown as CreateContent),
    sent?: () => void,
  ): Promise<void> {
    let answer: ReturnType<OrderGateway['createOrder']>;
    try {
      answer = this.m.gateway.createOrder(request);
    } catch (error) {
      answer = Promise.reject(error); // what was sent (or not) is settled below all the same
    }
    try {
      sent?.();
    } catch (error) {
      // the request is on its way: its answer is awaited all the same (a process that ends after
      // this send, `hoga order`, does not leave it in flight) and kept for whoever asks; the command
      // is settled like a lost answer once the store takes writes
      try {
        const placed = await answer;
        this.unstoredAnswers.createAnswered(stored.commandId, placed.orderId);
      } catch {
        // refused or lost: looked for like a lost answer all the same
      }
      this.unstored(stored, error);
      return;
    }
    let result: Awaited<typeof answer>;
    try {
      result = await answer;
    } catch (error) {
      this.failed(stored, error);
      return;
    }
    try {
      this.answers.onCreated(stored, result.orderId, null);
    } catch (error) {
      this.unstored(stored, error);
    }
  }

  /** The answer the store could not take: looked for once it can (see {@link UnstoredAnswers}). */
  private unstored(stored: StoredCommand, error: unknown): void {
    this.unstoredAnswers.add(stored, error);
  }

  /** See {@link UnstoredAnswers.unstoredCreate}. */
  unstoredCreate(clientOrderId: string): { reason: string; brokerOrderId: string | null } | undefined {
    return this.unstoredAnswers.unstoredCreate(clientOrderId);
  }

  /** Marks the commands whose answer the store could not take as ambiguous, once it can. */
  markUnstored(): void {
    this.unstoredAnswers.mark();
  }

  /** A command's send failed at the broker, or its answer was lost; settled as such when the store can. */
  private failed(stored: StoredCommand, error: unknown): void {
    try {
      this.answers.onCommandError(stored, error);
    } catch (local) {
      this.unstored(stored, local);
    }
  }

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

/** The reason of a `store-unavailable` refusal: what was not sent, and the store's error. */
function storeRefused(what: 'order' | 'modify' | 'cancel', error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `the ${what} was not sent: the store refuses writes (${why})`;
}
