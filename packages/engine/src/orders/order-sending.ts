/**
 * The command side of the order manager: creates, modifies and cancels written to the store with
 * their full content before they are sent, and sent through the gateway; their answers go to
 * {@link CommandAnswers} (linked to the logical order, settled, reported). A lost answer leaves the
 * command ambiguous for the resolver; a refusal is reported; an answer the store could not take is
 * marked ambiguous once it can. Creates are sent here; modifies and cancels by
 * {@link ChangeSender} (`change-sending.ts`).
 *
 * @module
 */

import type { CreateContent } from '@hoga/connector';
import type { CancelOrder, ModifyOrder, SubmitOrder } from '../commands/order-commands.js';
import { ChangeSender } from './change-sending.js';
import type { CommandAnswers } from './command-answers.js';
import type { CommandResolver } from './command-resolver.js';
import { CommandAlreadyStored } from './order-command-tables.js';
import type { OrderEventFactory } from './order-event-factory.js';
import type { OrderManager } from './order-manager.js';
import { ID_TAKEN, STORE_UNAVAILABLE, storeRefused } from './order-manager-options.js';
import { CommandStatus, type LoggedCreate, type StoredCommand } from './order-manager-store.js';
import {
  createContent,
  createRequest,
  createRequestOf,
  newOrderOf,
  type OrderGateway,
} from './order-requests.js';
import { UnstoredAnswers } from './unstored-answers.js';

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
    resolver: CommandResolver,
  ) {
    this.unstoredAnswers = new UnstoredAnswers(m, answers);
    this.changes = new ChangeSender(m, factory, answers, resolver, (stored, error) =>
      this.unstored(stored, error),
    );
  }

  /** The commands whose answer the store could not take, to be looked for once it can. */
  private readonly unstoredAnswers: UnstoredAnswers;
  /** Sends the modifies and cancels. */
  private readonly changes: ChangeSender;

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

  /** Stores and sends a modify (see {@link ChangeSender.modify}). */
  modify(command: ModifyOrder): Promise<void> {
    return this.changes.modify(command);
  }

  /** Stores and sends a cancel (see {@link ChangeSender.cancel}). */
  cancel(command: CancelOrder): Promise<void> {
    return this.changes.cancel(command);
  }

  /** See {@link ChangeSender.followReplaced}. */
  followReplaced(stored: StoredCommand): Promise<void> {
    return this.changes.followReplaced(stored);
  }
}
