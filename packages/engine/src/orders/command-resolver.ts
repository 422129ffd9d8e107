/**
 * Settling commands whose answer was lost (timeout, dropped connection, 5xx, cut body) or that a
 * crash interrupted. A create inside its `clientOrderId` window is re-sent with the same key (the
 * broker answers the first result); past it, and for modifies and cancels, which have no key, the
 * outcome is looked for in the order history. Lists can lag behind writes, so checks repeat on
 * every poll; only after `minChecks` checks and `unknownAfterMs` is a command declared unknown,
 * reported, and never re-sent.
 *
 * @module
 */

import {
  type CreateContent,
  type ModifyContent,
  NotFoundError,
  type OrderRecord,
  outcomesOf,
  type PendingCommand,
  pollOrderSnapshots,
  targetShowsApplied,
  targetShowsProcessing,
} from '@hoga/connector';
import { BrokerOrderStatus, TERMINAL_BROKER_ORDER_STATUSES } from '@hoga/core';
import type { OrderManager } from './order-manager.js';
import { endedOrderCode, resendsCreate } from './order-manager-options.js';
import { CommandStatus, type StoredCommand } from './order-manager-store.js';

const RECENT_LIMIT = 2_000;

/** See the module description. */
export class CommandResolver {
  private readonly recent = new Map<string, OrderRecord>();
  private readonly resolving = new Set<string>();

  /** @param manager - the order manager it settles commands for */
  constructor(private readonly manager: OrderManager) {}

  /** Keeps unowned orders a poll saw (lists can show an order once and then lag). */
  remember(records: Iterable<OrderRecord>): void {
    for (const r of records) {
      if (this.manager.store.execution(r.orderId) !== null) continue;
      this.recent.delete(r.orderId);
      this.recent.set(r.orderId, r);
    }
    while (this.recent.size > RECENT_LIMIT) {
      const oldest = this.recent.keys().next().value as string;
      this.recent.delete(oldest);
    }
  }

  /** One check of an unsettled command (a no-op while another check of it runs). */
  async resolve(command: StoredCommand): Promise<void> {
    if (this.resolving.has(command.commandId)) return;
    this.resolving.add(command.commandId);
    try {
      await this.check(command);
    } finally {
      this.resolving.delete(command.commandId);
    }
  }

  private async check(command: StoredCommand): Promise<void> {
    const m = this.manager;
    const now = m.clock.nowMs();
    const checks = command.checks + 1;
    m.store.settleCommand(command.commandId, CommandStatus.AMBIGUOUS, now, { checks });
    const current = { ...command, status: CommandStatus.AMBIGUOUS, checks };
    if (command.kind === 'create') {
      if (resendsCreate(command, now, m.options)) {
        await m.sendCreate(current);
        return;
      }
      const pending: PendingCommand = {
        kind: 'create',
        sentAt: command.sentAt,
        content: command.content as unknown as CreateContent,
      };
      const matches = outcomesOf(pending, await this.candidates(command.sentAt), m.options.skewMs);
      if (matches.length === 1) {
        m.onCreated(current, (matches[0] as OrderRecord).orderId, matches[0] as OrderRecord);
        return;
      }
      this.waitOrUnknown(current, `${matches.length} orders in the history match the create`);
      return;
    }
    let target: OrderRecord;
    try {
      target = await m.gateway.getOrder(command.targetBrokerOrderId ?? '');
    } catch (error) {
      if (error instanceof NotFoundError) {
        this.waitOrUnknown(current, 'the target order is not found');
        return;
      }
      throw error;
    }
    m.applyRecord(target);
    const kind = command.kind;
    if (targetShowsApplied(kind, target)) {
      // Another command of the order already made this change of the same broker order (a
      // strategy cancelled again after a restart; a modify of another process, or an earlier one of
      // this one): the broker takes one change of an order and refuses the next (409), so this one
      // did not take effect. A cancel's outcome is then known; a modify goes on to the replacement
      // the other one made, as one answered 409 `already-modified` does.
      const commands = m.store.commandsOf(command.clientOrderId); // in the order they were stored
      const made = commands.find(
        (c) =>
          c.commandId !== command.commandId &&
          c.kind === kind &&
          c.status === CommandStatus.DONE &&
          c.targetBrokerOrderId === command.targetBrokerOrderId,
      );
      if (made !== undefined) {
        if (kind === 'modify' && storedBefore(commands, command.commandId, made.commandId))
          // The other modify was asked after this one: its terms are the newer wish, and this one,
          // which the broker did not take (refused 429, or lost before it arrived), is not sent
          // after it. Before, it went on to the replacement and its older terms replaced the newer
          // ones at the broker (hostile-broker-changes.int.test.ts).
          m.rejectChange(
            current,
            'already-modified',
            `the order was modified by command ${made.commandId}, asked after this one; this modify did not take effect and is not sent after it`,
          );
        else if (kind === 'modify') await m.followReplaced(current);
        else
          m.rejectChange(
            current,
            'already-canceled',
            `the order was already cancelled by command ${made.commandId}`,
          );
        return;
      }
      const pending: PendingCommand =
        kind === 'modify'
          ? { kind, sentAt: command.sentAt, target, content: command.content as unknown as ModifyContent }
          : { kind, sentAt: command.sentAt, target };
      const matches = outcomesOf(pending, await this.candidates(command.sentAt), m.options.skewMs);
      if (matches.length === 1) {
        m.onChanged(current, (matches[0] as OrderRecord).orderId, matches[0] as OrderRecord);
        return;
      }
      if (kind === 'modify' && matches.length === 0) {
        // No order in the history has the modify's terms: once the lists have had the time to show
        // it (as long as an outcome is looked for before it is declared unknown), it did not make
        // the replacement, and follows it as a cancel does
        if (this.due(current)) await this.followReplacement(current);
        return;
      }
      this.waitOrUnknown(current, `${matches.length} orders in the history match the ${kind}`);
      return;
    }
    if (targetShowsProcessing(kind, target)) {
      this.waitOrUnknown(current, `the order still shows ${target.status}`);
      return;
    }
    if (target.status === BrokerOrderStatus.REPLACED) {
      // (a cancel: a modify's target shows it applied) a modify replaced the target
      await this.followReplacement(current);
      return;
    }
    if (TERMINAL_BROKER_ORDER_STATUSES.has(target.status)) {
      // the broker's code for the status (already-filled, …), as its answer would have said
      m.rejectChange(
        current,
        endedOrderCode(target.status),
        `the order is ${target.status}; the ${kind} did not take effect`,
      );
      return;
    }
    if (checks >= m.options.minChecks) {
      m.rejectChange(current, 'not-applied', `the order is still ${target.status} and unchanged`);
    }
  }

  /**
   * A change found not to have made its target's replacement goes on to it, as one answered 409
   * `already-modified` does (refused so when none is stored); while a modify of this order whose
   * outcome is still looked for may have made it, it is waited for.
   */
  private async followReplacement(command: StoredCommand): Promise<void> {
    if (this.replacementAwaited(command)) {
      this.waitOrUnknown(command, 'the order was replaced by a modify whose outcome is not known yet');
      return;
    }
    await this.manager.followReplaced(command);
  }

  /**
   * Whether the replacement of a command's target is not stored yet while another unsettled modify
   * of its order addressed the same broker order (its outcome, the replacement, is still looked for).
   */
  private replacementAwaited(command: StoredCommand): boolean {
    const m = this.manager;
    if (m.newestExecution(command.clientOrderId)?.brokerOrderId !== command.targetBrokerOrderId) return false;
    return m.store
      .commandsOf(command.clientOrderId)
      .some(
        (c) =>
          c.commandId !== command.commandId &&
          c.kind === 'modify' &&
          (c.status === CommandStatus.AMBIGUOUS || c.status === CommandStatus.SENDING) &&
          c.targetBrokerOrderId === command.targetBrokerOrderId,
      );
  }

  private waitOrUnknown(command: StoredCommand, reason: string): void {
    const m = this.manager;
    const now = m.clock.nowMs();
    if (!this.due(command)) return;
    m.store.settleCommand(command.commandId, CommandStatus.UNKNOWN, now, { error: reason });
    m.alert({
      type: 'OrderOutcomeUnknown',
      clientOrderId: command.clientOrderId,
      commandId: command.commandId,
      kind: command.kind,
      reason,
      tsEvent: now,
    });
  }

  /** Whether a command was checked long and often enough that what the lists lack is not there. */
  private due(command: StoredCommand): boolean {
    const m = this.manager;
    return (
      command.checks >= m.options.minChecks && m.clock.nowMs() - command.sentAt >= m.options.unknownAfterMs
    );
  }

  /** Unowned orders placed since `sentAt`: the lists now, plus those recent polls saw. */
  private async candidates(sentAt: number): Promise<OrderRecord[]> {
    const m = this.manager;
    const snapshot = await pollOrderSnapshots(m.gateway, {
      closedSinceMs: sentAt - m.options.skewMs,
      maxClosedPages: 5,
    });
    const all = new Map<string, OrderRecord>(this.recent);
    for (const r of snapshot.open) all.set(r.orderId, r);
    for (const r of snapshot.closed) all.set(r.orderId, r);
    return [...all.values()].filter((r) => m.store.execution(r.orderId) === null);
  }
}

/** Whether command `a` was stored before command `b` (`commands` in the order they were stored). */
function storedBefore(commands: readonly StoredCommand[], a: string, b: string): boolean {
  return commands.findIndex((c) => c.commandId === a) < commands.findIndex((c) => c.commandId === b);
}
